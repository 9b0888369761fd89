import type { Clock } from '../core/clock.ts';
import type { VenuePosition } from '../domain/position.ts';
import type { Executor } from '../execution/executor.ts';
import type { Accounting } from './accounting.ts';
import type { PositionMismatchEvent } from './events.ts';
import type { AccountReader } from './ports.ts';
import type { SymbolSlot } from './symbol-slot.ts';

/** Quiet time after our last fill before positions are compared (a fill event may still be on its way). */
const SETTLE_MS = 2_000;

const NEVER_TRADED: VenuePosition = { qty: 0, costBasis: null, realizedPnl: null, lastFillMs: null };

/**
 * Every `everyMs`, compares each quoted symbol's position with the venue's, as of the venue's last
 * fill (fills we booked after it are not in the venue's figure yet). A disagreement is most likely a
 * fill the stream has not delivered (yet): the check recovers fills from REST, lets the stream settle
 * and reads again. A disagreement that survives that is corrected within the same check: the ledger
 * takes the venue's position (quantity, cost basis, realized PnL since start-up) and a
 * `position-mismatch` event carries both figures. Position drives every risk limit and the PnL:
 * trading on a known-wrong inventory is worse than a jump in our own books.
 */
export class PositionCheck {
  #lastMs = -Infinity;
  #busy = false;

  constructor(
    private readonly slots: ReadonlyMap<string, SymbolSlot>,
    private readonly clock: Clock,
    private readonly executor: Executor,
    private readonly accounts: AccountReader | undefined,
    private readonly everyMs: number,
    private readonly accounting: Accounting,
    private readonly recoverFills: () => Promise<number>,
    /** False while a correction must not apply (stopping, order stream down). */
    private readonly canCorrect: () => boolean,
    /** After a correction: publish the event, re-quote on the new position. */
    private readonly corrected: (ev: PositionMismatchEvent) => void,
  ) {}

  /** Called on clock ticks while quoting. */
  maybeRun(): void {
    const reader = this.accounts;
    const now = this.clock.nowMs();
    if (!reader || this.everyMs <= 0 || this.#busy || now - this.#lastMs < this.everyMs) return;
    const lastFill = this.accounting.fills.lastFillMs;
    if (lastFill !== null && now - lastFill < SETTLE_MS) return;
    this.#busy = true;
    this.#lastMs = now;
    void this.#run(reader).finally(() => (this.#busy = false));
  }

  /**
   * Runs a check now, whatever the interval and the settling time (a fill that is not ours was
   * seen: the position must be confirmed at once). Resolves when done; a check already running
   * answers for this one.
   */
  runNow(): Promise<void> {
    const reader = this.accounts;
    if (!reader || this.#busy) return Promise.resolve();
    this.#busy = true;
    this.#lastMs = this.clock.nowMs();
    return this.#run(reader).finally(() => (this.#busy = false));
  }

  async #run(reader: AccountReader): Promise<void> {
    const first = await this.#read(reader);
    if (first === null || this.#disagreeing(first).length === 0) return;
    await this.recoverFills();
    await new Promise<void>((resolve) => this.clock.setTimer(SETTLE_MS, resolve));
    const venue = await this.#read(reader);
    if (venue === null || !this.canCorrect()) return;
    for (const slot of this.#disagreeing(venue)) {
      const v = venue.get(slot.symbol) ?? NEVER_TRADED;
      const engine = this.accounting.positionAsOf(slot.symbol, v.lastFillMs);
      this.accounting.correct(slot, v);
      this.corrected({ type: 'position-mismatch', symbol: slot.symbol, engine, venue: v.qty, corrected: slot.ledger.qty, tsMs: this.clock.nowMs() });
    }
  }

  /** The slots whose position as of the venue's last fill differs from the venue's. */
  #disagreeing(venue: ReadonlyMap<string, VenuePosition>): SymbolSlot[] {
    const off: SymbolSlot[] = [];
    for (const s of this.slots.values()) {
      const v = venue.get(s.symbol) ?? NEVER_TRADED;
      if (this.accounting.positionAsOf(s.symbol, v.lastFillMs) !== v.qty) off.push(s);
    }
    return off;
  }

  /** The venue's positions through the executor (the reads' budget); null when the read failed or was dropped. */
  #read(reader: AccountReader): Promise<ReadonlyMap<string, VenuePosition> | null> {
    return new Promise((resolve) => {
      this.executor.submit({
        endpoint: 'positions',
        key: 'positions',
        run: () => reader.positions(),
        settled: (ok, value) => resolve(ok ? (value as ReadonlyMap<string, VenuePosition>) : null),
        dropped: () => resolve(null),
      });
    });
  }
}
