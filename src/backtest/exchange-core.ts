import { Decimal } from '../core/decimal.ts';
import type { Clock } from '../core/clock.ts';
import { asExecutionId } from '../core/ids.ts';
import type { InstrumentState } from '../domain/enums.ts';
import type { OrderEvent } from '../domain/events.ts';
import { fundingCash, type FundingEstimate, type FundingSettlement } from '../domain/funding.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { ActionQueue } from './action-queue.ts';
import { ASK, BID, DenseBook } from './dense-book.ts';
import { OwnLevels } from './own-levels.ts';
import { ReplayIds } from './replay-ids.ts';
import { leaves, toOrder, type XOrder } from './exchange-order.ts';
import { FillRecord, SymbolLedger, type BacktestFill, type FeeSchedule } from './ledger.ts';
import type { LatencyModel } from './latency-model.ts';
import type { QueueModel } from './queue-model.ts';

/** What the replay exchange needs. */
export interface ReplayExchangeOptions {
  /** Instruments by symbol index (the columnar recording's order). */
  readonly instruments: readonly Instrument[];
  /** Price range per symbol index (ticks), for the dense books. */
  readonly minTick: ArrayLike<number>;
  readonly maxTick: ArrayLike<number>;
  /** The bot's (virtual) clock: requests leave at its time. */
  readonly clock: Clock;
  readonly actions: ActionQueue;
  readonly latency: LatencyModel;
  readonly queue: QueueModel;
  readonly fees: FeeSchedule;
  readonly seed: number;
  /** Max open orders per symbol before MAX_OPEN_ORDERS_EXCEEDED (venue default 100). */
  readonly maxOpenOrders?: number;
  /** Delivers an order event to the bot (at its arrival time). */
  readonly onOrderEvent: (ev: OrderEvent) => void;
  /** Called whenever a gateway promise settles, so the runner lets continuations run. */
  readonly onSettled: () => void;
  /** Called on every fill (exchange time), for reports. */
  readonly onFill?: (fill: BacktestFill) => void;
}

/**
 * The replay exchange's state and market side: books, our resting orders, ledgers, the FIFO reply
 * channel, and how recorded market data advances queues and fills resting orders. Order entry and
 * the gateway/account ports are in ReplayExchange (replay-exchange.ts).
 */
export class ExchangeCore {
  /** Current exchange time (the runner sets it before each step). */
  now = 0;
  readonly books: DenseBook[];
  readonly ledgers: SymbolLedger[];
  /** Open orders per symbol index (small arrays: a quoting bot has a handful). */
  readonly open: XOrder[][];
  /** Every fill booked, in exchange-time order. */
  readonly fillLog: BacktestFill[] = [];
  /** Latest ready funding estimate per symbol (from tickers), for schedule-driven settlement. */
  readonly fundingEstimates: (FundingEstimate | null)[];
  /** The recording bot's own working orders per symbol (`o` lines), null until the first one. */
  readonly own: (OwnLevels | null)[];
  protected readonly _byId = new Map<string, XOrder>();
  protected readonly _symIdx = new Map<string, number>();
  protected readonly _state: InstrumentState[];
  protected readonly _band: { lo: number; hi: number }[];
  protected readonly _ids: ReplayIds;
  protected _lastArrival = -Infinity;
  protected _lastDelivery = -Infinity;
  protected readonly _o: ReplayExchangeOptions;

  constructor(o: ReplayExchangeOptions) {
    this._o = o;
    this.books = o.instruments.map((_, s) => new DenseBook(o.minTick[s]!, o.maxTick[s]!, 64));
    this.ledgers = o.instruments.map((i) => new SymbolLedger(i, o.fees));
    this.open = o.instruments.map(() => []);
    this.fundingEstimates = o.instruments.map(() => null);
    this.own = o.instruments.map(() => null);
    this._state = o.instruments.map(() => 'OPEN');
    this._band = o.instruments.map(() => ({ lo: -Infinity, hi: Infinity }));
    o.instruments.forEach((i, s) => this._symIdx.set(i.symbol, s));
    this._ids = new ReplayIds(o.seed);
  }

  // ------------------------------------------------------------------ market side (exchange time)

  /**
   * Applies a book frame from the columnar level pool: `levels[2j], levels[2j+1]` for j in
   * [start, start + nb + na), bids first. Updates queue positions and fills crossed orders.
   */
  applyBook(s: number, snapshot: boolean, levels: Float64Array, start: number, nb: number, na: number): void {
    const book = this.books[s]!;
    const orders = this.open[s]!;
    const no = orders.length;
    if (snapshot) {
      const prev = no > 0 ? orders.map((x) => this.othersQty(s, x.sideIdx, x.priceTicks)) : null;
      book.load(levels, start, nb, na);
      if (prev) for (let k = 0; k < no; k++) this._depth(orders[k]!, prev[k]!, this.othersQty(s, orders[k]!.sideIdx, orders[k]!.priceTicks));
    } else {
      const own = this.own[s];
      for (let j = start, end = start + nb + na; j < end; j++) {
        const side = j - start < nb ? BID : ASK;
        const p = levels[2 * j]!;
        const q = levels[2 * j + 1]!;
        const prev = book.set(side, p, q);
        for (let k = 0; k < no; k++) {
          const x = orders[k]!;
          if (x.priceTicks !== p || x.sideIdx !== side) continue;
          // Queue models see the volume of others: the recording bot's own orders are not ahead of us.
          const g = own ? own.qty(side, p) : 0;
          this._depth(x, prev > g ? prev - g : 0, q > g ? q - g : 0);
        }
      }
    }
    if (no > 0) this._fillCrossed(s);
  }

  /** A public trade: advances queues at its price and fills our orders it traded through. */
  applyTrade(s: number, priceTicks: number, qty: number, takerBuy: boolean): void {
    const orders = this.open[s]!;
    if (orders.length === 0) return;
    const restingSide = takerBuy ? ASK : BID;
    for (let k = 0; k < orders.length; k++) {
      const x = orders[k]!;
      if (x.sideIdx !== restingSide) continue;
      const through = restingSide === BID ? x.priceTicks > priceTicks : x.priceTicks < priceTicks;
      if (through) {
        // The print went through our price: the aggressor would have met our order first. Capped at
        // the print's size (as NautilusTrader's trade-driven fills), so a small print cannot fill a big order.
        this._fill(x, Math.min(leaves(x), qty), x.priceTicks, false);
      } else if (x.priceTicks === priceTicks) {
        this._o.queue.onTrade(x.queue, qty);
        if (x.queue.front < 0) {
          const q = Math.min(leaves(x), Math.floor(-x.queue.front));
          x.queue.front = 0;
          if (q > 0) this._fill(x, q, x.priceTicks, false);
        }
      } else continue;
      if (x.state === 'FILLED') k--; // #fill removed it from `orders`
    }
  }

  /**
   * The recording bot's own working orders on symbol `s` (an `o` line, levels as in applyBook):
   * from now on they are taken out of the displayed levels for queue positions, fills and crossing.
   * Depth changes they explain are not queue events, so no queue is updated here.
   */
  applyOwn(s: number, levels: Float64Array, start: number, nb: number, na: number): void {
    let own = this.own[s];
    if (!own) this.own[s] = own = new OwnLevels(this.books[s]!);
    own.replace(levels, start, nb, na);
  }

  /** Displayed quantity at a price minus the recording bot's own orders there. */
  othersQty(s: number, side: number, priceTicks: number): number {
    const own = this.own[s];
    return own ? own.others(this.books[s]!, side, priceTicks) : this.books[s]!.qty(side, priceTicks);
  }

  /** Best price of a side with volume other than the recording bot's own orders (NaN when none). */
  bestOther(s: number, side: number): number {
    const own = this.own[s];
    const book = this.books[s]!;
    if (own) return own.bestOther(book, side);
    return side === BID ? book.bestBid() : book.bestAsk();
  }

  /** A ticker: instrument state and price band for order checks, and the latest funding estimate. */
  applyTicker(s: number, state: InstrumentState, bandLo: number | null, bandHi: number | null, funding: FundingEstimate | null = null): void {
    this._state[s] = state;
    this._band[s] = { lo: bandLo ?? -Infinity, hi: bandHi ?? Infinity };
    if (funding && funding.status === 'ready' && funding.amount !== null) this.fundingEstimates[s] = funding;
  }

  /** A funding settlement: positions held now pay or receive (longs pay when amount > 0). */
  applyFunding(s: number, settlement: FundingSettlement): Decimal {
    const ledger = this.ledgers[s]!;
    const cash = fundingCash(ledger.position, settlement.amount, ledger.instrument.multiplier);
    ledger.funding = ledger.funding.plus(cash);
    ledger.fundingEvents++;
    return cash;
  }

  protected _depth(x: XOrder, prev: number, next: number): void {
    if (prev !== next) this._o.queue.onDepth(x.queue, prev, next);
  }

  /** Resting orders the book now trades through (bid ≥ best ask or ask ≤ best bid) fill as makers. */
  protected _fillCrossed(s: number): void {
    const orders = this.open[s]!;
    const ba = this.bestOther(s, ASK);
    const bb = this.bestOther(s, BID);
    for (let k = 0; k < orders.length; k++) {
      const x = orders[k]!;
      const crossed = x.sideIdx === BID ? x.priceTicks >= ba : x.priceTicks <= bb;
      if (crossed) {
        this._fill(x, leaves(x), x.priceTicks, false);
        k--;
      }
    }
  }

  // ------------------------------------------------------------------ fills and events

  protected _fill(x: XOrder, qty: number, priceTicks: number, aggressor: boolean): void {
    const s = x.sym;
    const book = this.books[s]!;
    const bb = book.bestBid();
    const ba = book.bestAsk();
    const mid = (bb + ba) / 2;
    const ledger = this.ledgers[s]!;
    ledger.fill(x.side, priceTicks, qty, aggressor, mid);
    x.filled += qty;
    const done = x.filled >= x.qty;
    x.state = done ? 'FILLED' : 'PARTIALLY_FILLED';
    if (done) this._unrest(x);
    const tradeId = this._ids.next('T', this.now);
    const snapshot = toOrder(x);
    const tsRecv = this._deliveryTime();
    const fill = new FillRecord(this.now, tsRecv, tradeId, x.id, x.cid, x.symbol, x.side, priceTicks, qty, aggressor, mid, ledger.position, aggressor ? ledger.takerUnitFee : ledger.makerUnitFee);
    this.fillLog.push(fill);
    this._o.onFill?.(fill);
    const ev: OrderEvent = {
      type: 'filled',
      order: snapshot,
      partial: !done,
      tradeId,
      fillPriceTicks: priceTicks,
      fillQty: qty,
      fillSide: x.side,
      aggressor,
      executionId: this._eid(),
      tsEvent: this.now,
      tsRecv,
    };
    this._deliverAt(tsRecv, () => this._o.onOrderEvent(ev));
  }

  protected _unrest(x: XOrder): void {
    const list = this.open[x.sym]!;
    const i = list.indexOf(x);
    if (i >= 0) list.splice(i, 1);
  }

  protected _eid() {
    return asExecutionId(this._ids.next('E', this.now));
  }

  /** Next FIFO delivery time on the order stream. */
  protected _deliveryTime(): number {
    const t = Math.max(this.now + this._o.latency.responseMs(), this._lastDelivery);
    this._lastDelivery = t;
    return t;
  }

  protected _deliverAt(t: number, fn: () => void): void {
    this._o.actions.push(t, fn);
  }

  /** Schedules a request's arrival at the matching engine (FIFO, like one socket). */
  protected _send(run: () => void): void {
    const t = Math.max(this._o.clock.nowMs() + this._o.latency.entryMs(), this._lastArrival);
    this._lastArrival = t;
    this._o.actions.push(t, () => {
      this.now = Math.max(this.now, t);
      run();
    });
  }

  /** Replies to the bot: settles the request's promise at the next delivery time. */
  protected _reply(settle: () => void): number {
    const t = this._deliveryTime();
    this._deliverAt(t, () => {
      settle();
      this._o.onSettled();
    });
    return t;
  }

  protected _event(build: (tsRecv: number) => OrderEvent): void {
    const t = this._deliveryTime();
    const ev = build(t);
    this._deliverAt(t, () => this._o.onOrderEvent(ev));
  }

}
