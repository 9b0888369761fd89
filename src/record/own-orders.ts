import type { Symbol, VenueOrderId } from '../core/ids.ts';
import type { BookLevel } from '../domain/book.ts';
import type { Side } from '../domain/enums.ts';
import type { OrderEvent } from '../domain/events.ts';
import type { Order } from '../domain/order.ts';

interface Working {
  readonly symbol: Symbol;
  readonly side: Side;
  readonly priceTicks: number;
  remaining: number;
}

const OPEN_STATES: ReadonlySet<string> = new Set(['ACCEPTED', 'PARTIALLY_FILLED', 'PENDING']);

/**
 * The recording bot's working orders, rebuilt from its order events (and reconciliation snapshots),
 * so the recorder can write `o` lines: what of each recorded level was the bot itself.
 */
export class OwnOrderBook {
  readonly #orders = new Map<VenueOrderId, Working>();

  /** Applies an order event; returns the symbol whose working orders changed, or null. */
  apply(ev: OrderEvent): Symbol | null {
    switch (ev.type) {
      case 'accepted':
      case 'filled':
        return this.#set(ev.order);
      case 'canceled':
      case 'rejected':
      case 'expired':
      case 'done-for-day':
        return this.#drop(ev.order.orderId, ev.order.symbol);
      case 'replaced': {
        const a = this.#drop(ev.original.orderId, ev.original.symbol);
        const b = ev.replacement ? this.#set(ev.replacement) : null;
        return a ?? b;
      }
      case 'cancel-rejected':
        return null;
    }
  }

  /** Replaces everything with a reconciliation snapshot; returns every symbol touched before or after. */
  reset(open: readonly Order[]): Symbol[] {
    const touched = new Set<Symbol>([...this.#orders.values()].map((o) => o.symbol));
    this.#orders.clear();
    for (const o of open) {
      this.#set(o);
      touched.add(o.symbol);
    }
    return [...touched];
  }

  /** The symbol's working orders aggregated per price (remaining qty), best first. */
  levels(symbol: Symbol): { bids: BookLevel[]; asks: BookLevel[] } {
    const bid = new Map<number, number>();
    const ask = new Map<number, number>();
    for (const o of this.#orders.values()) {
      if (o.symbol !== symbol) continue;
      const m = o.side === 'buy' ? bid : ask;
      m.set(o.priceTicks, (m.get(o.priceTicks) ?? 0) + o.remaining);
    }
    const list = (m: Map<number, number>, desc: boolean): BookLevel[] =>
      [...m].map(([priceTicks, qty]) => ({ priceTicks, qty })).sort((x, y) => (desc ? y.priceTicks - x.priceTicks : x.priceTicks - y.priceTicks));
    return { bids: list(bid, true), asks: list(ask, false) };
  }

  #set(o: Order): Symbol | null {
    const remaining = o.remainingQty;
    if (!OPEN_STATES.has(o.state) || remaining <= 0) return this.#drop(o.orderId, o.symbol);
    const prev = this.#orders.get(o.orderId);
    if (prev && prev.remaining === remaining && prev.priceTicks === o.priceTicks) return null;
    this.#orders.set(o.orderId, { symbol: o.symbol, side: o.side, priceTicks: o.priceTicks, remaining });
    return o.symbol;
  }

  #drop(id: VenueOrderId, symbol: Symbol): Symbol | null {
    return this.#orders.delete(id) ? symbol : null;
  }
}
