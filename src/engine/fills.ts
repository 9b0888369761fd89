import type { Decimal } from '../core/decimal.ts';
import type { SymbolSlot } from './symbol-slot.ts';

/** A fill the engine has booked, kept to dedupe stream vs REST and to settle estimated fees. */
export interface BookedFill {
  readonly slot: SymbolSlot;
  readonly tradeId: string;
  fee: Decimal;
  estimated: boolean;
  readonly tsMs: number;
}

/**
 * Fills seen, keyed by trade id + order id, bounded two ways: fills more than `keepMs` (venue time)
 * older than the newest are forgotten once their fee is settled (REST recovery looks back from the
 * newest fill by `fill_recovery_lookback_ms`, default a minute, far inside `keepMs`), and at most
 * `cap` are kept whatever their age. Without the age bound a long run held every fill up to the cap.
 */
export class FillBook {
  readonly #byKey = new Map<string, BookedFill>();
  readonly #estimated = new Set<BookedFill>();
  lastFillMs: number | null = null;
  #addsSincePrune = 0;

  constructor(
    private readonly cap = 50_000,
    private readonly keepMs = 3_600_000,
  ) {}

  /** Fills remembered. */
  get size(): number {
    return this.#byKey.size;
  }

  /** The key of a fill. */
  static key(tradeId: string, orderId: string): string {
    return `${tradeId}/${orderId}`;
  }

  get(key: string): BookedFill | undefined {
    return this.#byKey.get(key);
  }

  add(key: string, f: BookedFill): void {
    this.#byKey.set(key, f);
    if (f.estimated) this.#estimated.add(f);
    if (this.lastFillMs === null || f.tsMs > this.lastFillMs) this.lastFillMs = f.tsMs;
    if (++this.#addsSincePrune >= 256) this.#pruneOld();
    if (this.#byKey.size > this.cap) {
      const oldest = this.#byKey.keys().next().value;
      if (oldest !== undefined) {
        const old = this.#byKey.get(oldest);
        if (old) this.#estimated.delete(old);
        this.#byKey.delete(oldest);
      }
    }
  }

  /** Forgets settled fills older than `keepMs` before the newest (insertion order ≈ time order). */
  #pruneOld(): void {
    this.#addsSincePrune = 0;
    const horizon = (this.lastFillMs ?? 0) - this.keepMs;
    for (const [k, f] of this.#byKey) {
      if (f.tsMs >= horizon) break;
      if (!f.estimated) this.#byKey.delete(k);
    }
  }

  /** Marks a fill's fee as the venue's. */
  settle(f: BookedFill, fee: Decimal): void {
    f.fee = fee;
    f.estimated = false;
    this.#estimated.delete(f);
  }

  /** Fills whose fee is still estimated. */
  get estimatedCount(): number {
    return this.#estimated.size;
  }

  /** Time of the oldest fill whose fee is still estimated, null when none. */
  oldestEstimatedMs(): number | null {
    let m: number | null = null;
    for (const f of this.#estimated) if (m === null || f.tsMs < m) m = f.tsMs;
    return m;
  }
}
