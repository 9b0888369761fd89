import type { Clock } from '../core/clock.ts';
import type { OrderFilled } from '../domain/events.ts';
import type { Accounting } from './accounting.ts';
import type { UnknownFillEvent } from './events.ts';

/**
 * A fill the order stream delivered for an order that is not ours (or for another account) is
 * never booked from the stream: booking it would move the position every risk limit reads, and a
 * position the venue does not hold makes the bot trade real contracts against it. Each one is
 * reported (`unknown-fill`), then the venue is asked at once: fills from REST (which book the fill
 * if the venue really made it, e.g. another session on the account) and the position check (which
 * corrects any disagreement left). Reconciliations do not pile up: one runs at a time and a fill
 * arriving meanwhile asks for one more after it.
 */
export class UnknownFills {
  #running = false;
  #again = false;

  constructor(
    private readonly clock: Clock,
    private readonly emit: (ev: UnknownFillEvent) => void,
    private readonly accounting: Accounting,
    /** Fills from REST since the last known fill; resolves with how many were new. */
    private readonly recoverFills: () => Promise<number>,
    /** The venue's positions compared with ours now (corrected when they disagree). */
    private readonly checkPosition: () => Promise<void>,
  ) {}

  /**
   * Reports a fill that is not ours and starts a reconciliation, once the start-up seed is done: an
   * earlier session's fill replayed by the venue, already in the seeded position, is skipped quietly.
   */
  onFill(ev: OrderFilled, kind: UnknownFillEvent['kind']): void {
    this.accounting.afterSeed(() => {
      if (kind === 'unknown-order' && this.accounting.inSeededPosition(ev)) return;
      this.#report(ev, kind);
    });
  }

  #report(ev: OrderFilled, kind: UnknownFillEvent['kind']): void {
    const o = ev.order;
    this.emit({
      type: 'unknown-fill',
      kind,
      symbol: o.symbol,
      orderId: o.orderId,
      clientOrderId: o.clientOrderId,
      accountId: o.accountId,
      tradeId: ev.tradeId,
      side: ev.fillSide,
      qty: ev.fillQty,
      priceTicks: ev.fillPriceTicks,
      tsMs: this.clock.nowMs(),
    });
    this.reconcile();
  }

  /** Recovers REST fills then checks positions; while one runs, another is queued behind it. */
  reconcile(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void this.#run();
  }

  async #run(): Promise<void> {
    try {
      do {
        this.#again = false;
        await this.recoverFills();
        await this.checkPosition();
      } while (this.#again);
    } finally {
      this.#running = false;
    }
  }
}
