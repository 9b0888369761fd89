import { positionOf, type Account } from '../accounts/account.ts';
import type { BookSide, OrderBook } from '../book/order-book.ts';
import type { InstrumentMarket } from '../prices.ts';
import { snapshotOrder, type SimOrder } from '../types.ts';
import type { EngineDeps } from './engine-types.ts';
import type { OrderStore } from './order-store.ts';
import type { Reject } from './validate.ts';

/**
 * Continuous price-time matching in integer ticks and contracts: an incoming order trades against
 * the opposite side's best levels at their prices, with self-trade prevention; each trade is
 * booked to both accounts (Decimal only in the user accounts' money bookkeeping) and reported.
 */
export class Matcher {
  readonly #d: EngineDeps;
  readonly #store: OrderStore;

  constructor(deps: EngineDeps, store: OrderStore) {
    this.#d = deps;
    this.#store = store;
  }

  /** Matches `taker` (not on the book) against the opposite side while it crosses, at each resting level's price. */
  match(taker: SimOrder, takerAcct: Account, book: OrderBook, market: InstrumentMarket, now: bigint): void {
    const opp = book.oppositeOf(taker.side);
    const isBuy = taker.side === 'buy';
    while (taker.remainingQty > 0) {
      const lvl = opp.best();
      if (!lvl) break;
      if (isBuy ? taker.priceTicks < lvl.priceTicks : taker.priceTicks > lvl.priceTicks) break;
      const maker = lvl.head!;
      if (maker.accountId === taker.accountId) {
        const stp = taker.stp;
        if (stp === 'CancelResting' || stp === 'CancelBoth') this.#store.cancel(maker, takerAcct, 'UNKNOWN', 'self-trade prevention: resting order canceled', now);
        if (stp === 'CancelIncoming' || stp === 'CancelBoth') {
          this.#store.cancel(taker, takerAcct, 'UNKNOWN', 'self-trade prevention: incoming order canceled', now);
          return;
        }
        continue;
      }
      const makerAcct = this.#d.accounts.account(maker.accountId)!;
      const qty = Math.min(maker.remainingQty, taker.remainingQty);
      this.fillResting(maker, makerAcct, opp, qty, now);
      this.#fillIncoming(taker, takerAcct, qty, now);
      this.trade(maker, makerAcct, taker, takerAcct, qty, lvl.priceTicks, market, now);
    }
  }

  /** Applies `qty` of a trade to an order resting on `side` (its level shrinks; filled → off the book). */
  fillResting(o: SimOrder, acct: Account, side: BookSide, qty: number, now: bigint): void {
    side.reduce(o, qty);
    this.#store.unagg(o, acct, qty, false);
    o.remainingQty -= qty;
    o.filledQty += qty;
    o.updatedNs = now;
    if (o.remainingQty === 0) {
      side.remove(o);
      this.#store.unagg(o, acct, 0, true);
      this.#store.terminate(o, acct, 'FILLED', now);
    } else o.state = 'PARTIALLY_FILLED';
  }

  #fillIncoming(o: SimOrder, acct: Account, qty: number, now: bigint): void {
    o.remainingQty -= qty;
    o.filledQty += qty;
    o.updatedNs = now;
    o.state = o.remainingQty === 0 ? 'FILLED' : 'PARTIALLY_FILLED';
    if (o.remainingQty === 0) this.#store.forget(o, acct);
  }

  /**
   * Books a trade of `qty` at `px` between `maker` and the aggressor `taker` (both already updated):
   * positions, fees and ledger of user accounts, open interest and last trade, then the `p`/`f`
   * events of both orders and the public trade.
   */
  trade(maker: SimOrder, makerAcct: Account, taker: SimOrder, takerAcct: Account, qty: number, px: number, market: InstrumentMarket, now: bigint): void {
    const d = this.#d;
    const nowMs = d.clock.nowMs();
    const tradeId = d.ids.trade(nowMs);
    const symbol = taker.symbol;
    const makerPos = positionOf(makerAcct, symbol);
    const takerPos = positionOf(takerAcct, symbol);
    const oiBefore = Math.max(0, makerPos.signedQty) + Math.max(0, takerPos.signedQty);
    if (takerAcct.internal) d.accounts.bookInternalFill(takerAcct, symbol, taker.side, qty, now);
    else d.accounts.bookFill(takerAcct, market.instrument, { tradeId, orderId: taker.oid, side: taker.side, qty, priceTicks: px, isTaker: true, tsNs: now });
    if (makerAcct.internal) d.accounts.bookInternalFill(makerAcct, symbol, maker.side, qty, now);
    else d.accounts.bookFill(makerAcct, market.instrument, { tradeId, orderId: maker.oid, side: maker.side, qty, priceTicks: px, isTaker: false, tsNs: now });
    market.openInterest += Math.max(0, makerPos.signedQty) + Math.max(0, takerPos.signedQty) - oiBefore;
    market.lastTradeTicks = px;
    market.lastTradeQty = qty;
    market.lastTradeMs = nowMs;
    market.volume += qty;
    this.#emitFill(taker, true, tradeId, qty, px, now);
    this.#emitFill(maker, false, tradeId, qty, px, now);
    if (d.tradeListened()) d.emitTrade({ tradeId, symbol, priceTicks: px, qty, takerSide: taker.side, tsNs: now, makerAccountId: maker.accountId, takerAccountId: taker.accountId, makerOid: maker.oid, takerOid: taker.oid });
  }

  /** Emits the `p` (or `f` when done) event of one side of a trade, when its account is listened to. */
  #emitFill(o: SimOrder, aggressor: boolean, tradeId: string, qty: number, px: number, now: bigint): void {
    const d = this.#d;
    if (d.listening(o.accountId)) d.emitOrder(o.accountId, () => ({
      t: o.remainingQty === 0 ? 'f' : 'p',
      eid: d.ids.execution(),
      tsNs: now,
      order: snapshotOrder(o),
      fill: { tradeId, accountId: o.accountId, symbol: o.symbol, qty, priceTicks: px, side: o.side, aggressor },
    }));
  }

  /** Post-only handling: reject, or reprice behind the opposite best (bo) or to the same-side best (tbl). */
  postOnly(order: SimOrder, book: OrderBook, market: InstrumentMarket): Reject | null {
    const opp = book.oppositeOf(order.side).bestPrice();
    if (opp === undefined) return null;
    const crosses = order.side === 'buy' ? order.priceTicks >= opp : order.priceTicks <= opp;
    if (!crosses) return null;
    if (order.reprice === 'rej') return { reason: null, text: 'post-only order would cross the book' };
    const same = book.sideOf(order.side).bestPrice();
    const behind = order.side === 'buy' ? opp - 1 : opp + 1;
    order.priceTicks = order.reprice === 'tbl' && same !== undefined ? same : behind;
    order.priceText = market.instrument.grid.toPrice(order.priceTicks);
    return null;
  }
}
