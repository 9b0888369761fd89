const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Which order-count budget an order would exceed. */
export type OrderBudgetWindow = 'minute' | 'day';

/** Orders counted now: in the last 60 s and since the UTC day began. */
export interface OrderCounts {
  readonly lastMinute: number;
  readonly today: number;
}

/**
 * Order-count budgets, as venues ban for order spam: at most `perMinute` orders in any rolling
 * 60 s and `perDay` per UTC day (0 = no limit; orders are still counted, for the gauges). An order
 * is counted when it is about to be sent; one that would exceed a budget is refused and not
 * counted. Pure: time comes in.
 */
export class OrderBudget {
  #perMinute: number;
  #perDay: number;
  /** Send times (ms) within the last minute, oldest first. */
  readonly #recent: number[] = [];
  #day = -1;
  #today = 0;

  constructor(perMinute: number, perDay: number) {
    this.#perMinute = perMinute;
    this.#perDay = perDay;
  }

  /** New budgets (a config reload); the counts are kept. */
  reconfigure(perMinute: number, perDay: number): void {
    this.#perMinute = perMinute;
    this.#perDay = perDay;
  }

  /** The budgets (orders per minute, per UTC day; 0 = none). */
  get limits(): { readonly perMinute: number; readonly perDay: number } {
    return { perMinute: this.#perMinute, perDay: this.#perDay };
  }

  /** Counts one order sent at `nowMs`; returns null when it fits, else the budget it would exceed (then it is not counted). */
  tryTake(nowMs: number): OrderBudgetWindow | null {
    this.#roll(nowMs);
    if (this.#perMinute > 0 && this.#recent.length >= this.#perMinute) return 'minute';
    if (this.#perDay > 0 && this.#today >= this.#perDay) return 'day';
    this.#recent.push(nowMs);
    this.#today++;
    return null;
  }

  /** Orders counted in the last 60 s and today (UTC). */
  counts(nowMs: number): OrderCounts {
    this.#roll(nowMs);
    return { lastMinute: this.#recent.length, today: this.#today };
  }

  /**
   * Room to quote again after a trip: the last minute is back to half its budget or less (so a
   * resumed requote burst does not trip it again at once) and today is under the day's budget.
   */
  hasRoom(nowMs: number): boolean {
    this.#roll(nowMs);
    if (this.#perMinute > 0 && this.#recent.length > Math.floor(this.#perMinute / 2)) return false;
    return this.#perDay <= 0 || this.#today < this.#perDay;
  }

  #roll(nowMs: number): void {
    const day = Math.floor(nowMs / DAY_MS);
    if (day !== this.#day) {
      this.#day = day;
      this.#today = 0;
    }
    let drop = 0;
    while (drop < this.#recent.length && this.#recent[drop]! <= nowMs - MINUTE_MS) drop++;
    if (drop > 0) this.#recent.splice(0, drop);
  }
}
