import type { TradePrinted } from '../domain/events.ts';
import type { WorkingOrder } from '../strategy/contract.ts';

/** How long a fill of ours and the public print it caused may lie apart (either first), engine ms. */
export const OWN_PRINT_WINDOW_MS = 5_000;
/**
 * How long a print that hit one of our resting prices waits for the fill that would make it ours
 * before strategies see it (the order socket and the market-data socket race by a few ms).
 */
export const OWN_PRINT_HOLD_MS = 100;

/** A fill of ours no public print has accounted for yet. */
interface PendingFill {
  readonly priceTicks: number;
  qty: number;
  readonly atMs: number;
}

/** A print held back while it may be ours. */
interface HeldPrint {
  trade: TradePrinted;
  readonly atMs: number;
}

/** Takes up to `qty` off prints at `priceTicks` in `list`, oldest first (a fill's print is the first at its price); returns what is left. */
function takeOff<T>(list: T[], get: (x: T) => TradePrinted, set: (x: T, t: TradePrinted) => T, priceTicks: number, qty: number): number {
  let left = qty;
  for (let i = 0; i < list.length && left > 0; ) {
    const t = get(list[i]!);
    if (t.priceTicks !== priceTicks || t.condition !== undefined) {
      i++;
      continue;
    }
    const take = Math.min(left, t.qty);
    left -= take;
    if (take === t.qty) list.splice(i, 1);
    else {
      list[i] = set(list[i]!, { ...t, qty: t.qty - take });
      i++;
    }
  }
  return left;
}

/**
 * Live, the venue's public trade stream includes the prints of our own fills; a replay's recorded
 * stream never does (our orders were not there). So that strategies read the same market live as in
 * a replay (the flow state, the flow alpha, the λ fit), our prints come off the public stream: each
 * fill of ours is matched to a print at its price within OWN_PRINT_WINDOW_MS, whichever arrives
 * first, and its quantity is taken off that print (a print of several makers keeps the others'
 * part). A print that hit a price where we rest is held OWN_PRINT_HOLD_MS for our fill before a
 * strategy sees it. Public prints carry no trade id: price, size and time are what match.
 */
export class OwnPrints {
  readonly #pending: PendingFill[] = [];
  readonly #held: HeldPrint[] = [];

  /** A fill of ours: comes off held prints, then prints not yet taken (`waiting`, edited in place), else waits for its print. */
  onFill(priceTicks: number, qty: number, nowMs: number, waiting: TradePrinted[]): void {
    let left = takeOff(this.#held, (h) => h.trade, (h, t) => ((h.trade = t), h), priceTicks, qty);
    if (left > 0) left = takeOff(waiting, (t) => t, (_, t) => t, priceTicks, left);
    if (left > 0) this.#pending.push({ priceTicks, qty: left, atMs: nowMs });
  }

  /** A public print as it arrives: the part of it that is not ours (null when it was all ours). */
  othersPart(t: TradePrinted, nowMs: number): TradePrinted | null {
    if (this.#pending.length === 0 || t.condition !== undefined) return t;
    let qty = t.qty;
    for (let i = 0; i < this.#pending.length && qty > 0; ) {
      const f = this.#pending[i]!;
      if (nowMs - f.atMs > OWN_PRINT_WINDOW_MS) {
        this.#pending.splice(i, 1);
        continue;
      }
      if (f.priceTicks === t.priceTicks) {
        const take = Math.min(qty, f.qty);
        qty -= take;
        f.qty -= take;
        if (f.qty === 0) {
          this.#pending.splice(i, 1);
          continue;
        }
      }
      i++;
    }
    if (qty === t.qty) return t;
    return qty > 0 ? { ...t, qty } : null;
  }

  /**
   * The prints a strategy call gets (`batch`, edited in place): those held past OWN_PRINT_HOLD_MS
   * come first, then the batch, less any print that hit a price we rest at (held for our fill).
   */
  settle(batch: TradePrinted[], working: readonly WorkingOrder[], nowMs: number): void {
    if (working.length > 0) {
      for (let i = 0; i < batch.length; ) {
        const t = batch[i]!;
        // A sell aggressor hits bids: ours when we bid at its price; a buy aggressor, our asks.
        const hitSide = t.aggressor === 'sell' ? 'buy' : 'sell';
        if (t.condition === undefined && working.some((w) => w.side === hitSide && w.priceTicks === t.priceTicks)) {
          this.#held.push({ trade: t, atMs: nowMs });
          batch.splice(i, 1);
        } else i++;
      }
    }
    let released = 0;
    while (released < this.#held.length && nowMs - this.#held[released]!.atMs >= OWN_PRINT_HOLD_MS) released++;
    if (released > 0) batch.unshift(...this.#held.splice(0, released).map((h) => h.trade));
  }

  /** Prints held for a fill that has not come yet (a strategy should be called again when they are due). */
  get holding(): boolean {
    return this.#held.length > 0;
  }
}
