import type { Clock } from '../core/clock.ts';
import type { Executor } from '../execution/executor.ts';
import type { EngineEvent } from './events.ts';
import type { AccountReader } from './ports.ts';
import type { SymbolSlot } from './symbol-slot.ts';

/** Quiet time after our last fill before positions are compared (a fill event may still be on its way). */
const SETTLE_MS = 2_000;

/**
 * Periodically compares each quoted symbol's position with the venue's. The only legitimate cause
 * of a difference is a fill the stream never delivered, so a mismatch first recovers fills from
 * REST; if the next check still disagrees (liquidation, another session trading the account...),
 * it is reported once per distinct pair of figures. The engine never overwrites its ledger.
 */
export class PositionCheck {
  #lastMs = -Infinity;
  #busy = false;
  #suspect = false;
  readonly #reported = new Map<string, string>();

  constructor(
    private readonly slots: ReadonlyMap<string, SymbolSlot>,
    private readonly clock: Clock,
    private readonly executor: Executor,
    private readonly accounts: AccountReader | undefined,
    private readonly everyMs: number,
    private readonly lastFillMs: () => number | null,
    private readonly recoverFills: () => Promise<number>,
    private readonly emit: (ev: EngineEvent) => void,
  ) {}

  /** Called on clock ticks while quoting. */
  maybeRun(): void {
    const reader = this.accounts;
    const now = this.clock.nowMs();
    if (!reader || this.everyMs <= 0 || this.#busy || now - this.#lastMs < this.everyMs) return;
    const lastFill = this.lastFillMs();
    if (lastFill !== null && now - lastFill < SETTLE_MS) return;
    this.#busy = true;
    this.#lastMs = now;
    this.executor.submit({
      endpoint: 'positions',
      key: 'positions',
      run: () => reader.positions(),
      settled: (ok, value) => {
        this.#busy = false;
        if (ok) this.#compare(value as ReadonlyMap<string, number>);
      },
      dropped: () => {
        this.#busy = false;
      },
    });
  }

  #compare(venue: ReadonlyMap<string, number>): void {
    const off: SymbolSlot[] = [];
    for (const s of this.slots.values()) if ((venue.get(s.symbol) ?? 0) !== s.ledger.qty) off.push(s);
    if (off.length === 0) {
      this.#suspect = false;
      this.#reported.clear();
      return;
    }
    if (!this.#suspect) {
      // First sighting: most likely a missed fill. Recover and look again on the next check.
      this.#suspect = true;
      void this.recoverFills();
      return;
    }
    for (const s of off) {
      const v = venue.get(s.symbol) ?? 0;
      const key = `${s.ledger.qty}/${v}`;
      if (this.#reported.get(s.symbol) === key) continue;
      this.#reported.set(s.symbol, key);
      this.emit({ type: 'position-mismatch', symbol: s.symbol, engine: s.ledger.qty, venue: v, tsMs: this.clock.nowMs() });
    }
  }
}
