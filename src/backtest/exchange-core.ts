import { Decimal } from '../core/decimal.ts';
import type { Clock } from '../core/clock.ts';
import { asExecutionId } from '../core/ids.ts';
import type { InstrumentState } from '../domain/enums.ts';
import type { OrderEvent } from '../domain/events.ts';
import { fundingCash, type FundingEstimate, type FundingSettlement } from '../domain/funding.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { ActionQueue } from './action-queue.ts';
import { BID, DenseBook } from './dense-book.ts';
import { OwnLevels } from './own-levels.ts';
import { ReplayIds } from './replay-ids.ts';
import { ConsumedLiquidity } from './consumed-liquidity.ts';
import { toOrder, type XOrder } from './exchange-order.ts';
import { RetiredOrders } from './retired-orders.ts';
import { FillRecord, SymbolLedger, type BacktestFill, type FeeSchedule, type FillSource } from './ledger.ts';
import type { LatencyModel } from './latency-model.ts';
import type { RoundTripOp } from '../record/format.ts';
import type { QueueModel } from './queue-model.ts';
import { L3Levels } from './l3-fifo.ts';
import type { ReactionSettings } from './settings.ts';

const isScheduleList = (f: FeeSchedule | readonly FeeSchedule[]): f is readonly FeeSchedule[] => Array.isArray(f);

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
  /** One schedule for every symbol, or one per symbol index. */
  readonly fees: FeeSchedule | readonly FeeSchedule[];
  readonly seed: number;
  /**
   * The venue's order-entry rate limit (per user, place/replace/cancel/cancel-all; docs/venue-rules.md §10):
   * a token bucket on exchange time; a request finding it empty is answered 429. null = unlimited.
   */
  readonly rateLimit?: { readonly burst: number; readonly perSecond: number } | null;
  /** Max open orders per symbol before MAX_OPEN_ORDERS_EXCEEDED (venue default 100). */
  readonly maxOpenOrders?: number;
  /** Delivers an order event to the bot (at its arrival time). */
  readonly onOrderEvent: (ev: OrderEvent) => void;
  /** Called whenever a gateway promise settles, so the runner lets continuations run. */
  readonly onSettled: () => void;
  /** Called on every fill (exchange time), for reports. */
  readonly onFill?: (fill: BacktestFill) => void;
  /**
   * An order-level (L3) recording's order lists (ColumnarRecording.orderStart/orderQty, indexed like
   * the level pool, and orderId when it has ids): queues are then exact FIFOs (l3-fifo.ts) and
   * `queue` is not used.
   */
  /** The competitor reaction model (competitor-reaction.ts); absent or null = the recorded book never answers us. */
  readonly reaction?: ReactionSettings | null;
  readonly l3?: { readonly orderStart: Float64Array; readonly orderQty: Float64Array; readonly orderId?: Float64Array };
  /**
   * A print at a level within this many ms after a book frame that moved our order there up is that
   * frame's volume, not a new trade (depth-before-print.ts; default 0: the same instant only).
   */
  readonly nettingWindowMs?: number;
}

/**
 * The replay exchange's state: books, our resting orders, ledgers, fills and the FIFO reply channel.
 * How recorded market data advances queues and fills resting orders is in ExchangeMarket
 * (exchange-market.ts); order entry and the gateway/account ports in ReplayExchange.
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
  /** Displayed liquidity our orders took per symbol, until the recording changes the level. */
  readonly consumed: ConsumedLiquidity[];
  /** L3 recordings: the market's orders per level and symbol (null per symbol for L2 data). */
  readonly l3: (L3Levels | null)[];
  /** Time-priority counter of our resting orders (XOrder.seq). */
  protected _seq = 0;
  /** Working orders by venue id (a done one moves to `_retired`). */
  protected readonly _byId = new Map<string, XOrder>();
  /** Done orders, in columns (`_retire`). */
  protected readonly _retired: RetiredOrders;
  protected readonly _symIdx = new Map<string, number>();
  protected readonly _state: InstrumentState[];
  protected readonly _band: { lo: number; hi: number }[];
  protected readonly _ids: ReplayIds;
  protected _lastArrival = -Infinity;
  protected _lastDelivery = -Infinity;
  protected readonly _o: ReplayExchangeOptions;
  /** Response leg of the request being processed (recorded latency), null = sample per delivery. */
  protected _replyMs: number | null = null;
  /** See ReplayExchangeOptions.nettingWindowMs. */
  readonly nettingWindowMs: number;
  /** Order-entry requests answered 429 by the emulated venue limit. */
  rateLimited = 0;
  #tokens = Infinity;
  #tokensMs = -Infinity;

  constructor(o: ReplayExchangeOptions) {
    this._o = o;
    this.nettingWindowMs = o.nettingWindowMs ?? 0;
    this.books = o.instruments.map((_, s) => new DenseBook(o.minTick[s]!, o.maxTick[s]!, 64));
    const fees = o.fees;
    this.ledgers = o.instruments.map((i, s) => new SymbolLedger(i, isScheduleList(fees) ? fees[s]! : fees));
    this.open = o.instruments.map(() => []);
    this.fundingEstimates = o.instruments.map(() => null);
    this.own = o.instruments.map(() => null);
    this.consumed = o.instruments.map(() => new ConsumedLiquidity());
    this.l3 = o.instruments.map(() => (o.l3 ? new L3Levels(o.l3) : null));
    this._state = o.instruments.map(() => 'OPEN');
    this._band = o.instruments.map(() => ({ lo: -Infinity, hi: Infinity }));
    o.instruments.forEach((i, s) => this._symIdx.set(i.symbol, s));
    this._ids = new ReplayIds(o.seed);
    this._retired = new RetiredOrders(this._ids.start, o.instruments.map((i) => i.symbol));
    if (o.rateLimit) this.#tokens = o.rateLimit.burst;
  }

  /** The queue model's name for reports: `l3-fifo` when the queues are exact FIFOs. */
  get queueModelName(): string {
    return this._o.l3 ? 'l3-fifo' : this._o.queue.name;
  }

  // ------------------------------------------------------------------ market side (exchange time)
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

  // ------------------------------------------------------------------ fills and events

  /**
   * Books a fill of `x`. `midBefore`: the mid the match met when the current book is already past it
   * (a crossing fill: the mid before the crossing frame); by default the current book's mid.
   */
  protected _fill(x: XOrder, qty: number, priceTicks: number, aggressor: boolean, source: FillSource = aggressor ? 'taker' : 'print', midBefore = NaN): void {
    const s = x.sym;
    const book = this.books[s]!;
    const mid = Number.isFinite(midBefore) ? midBefore : (book.bestBid() + book.bestAsk()) / 2;
    const ledger = this.ledgers[s]!;
    ledger.fill(x.side, priceTicks, qty, aggressor, mid);
    x.filled += qty;
    const done = x.filled >= x.qty;
    x.state = done ? 'FILLED' : 'PARTIALLY_FILLED';
    if (done) {
      this._unrest(x);
      this._retire(x);
    }
    const tradeId = this._ids.next('T', this.now);
    const snapshot = toOrder(x);
    const tsRecv = this._deliveryTime();
    const fill = new FillRecord(this.now, tsRecv, tradeId, x.id, x.cid, x.symbol, x.side, priceTicks, qty, aggressor, mid, ledger.position, aggressor ? ledger.takerUnitFee : ledger.makerUnitFee, source);
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

  /** `x` is done (its state and figures final): it moves from the working orders to the done ones. */
  protected _retire(x: XOrder): void {
    this._byId.delete(x.id);
    this._retired.add(x);
  }

  protected _eid() {
    return asExecutionId(this._ids.next('E', this.now));
  }

  /** Next FIFO delivery time on the order stream. */
  protected _deliveryTime(): number {
    const t = Math.max(this.now + (this._replyMs ?? this._o.latency.responseMs()), this._lastDelivery);
    this._lastDelivery = t;
    return t;
  }

  protected _deliverAt(t: number, fn: () => void): void {
    this._o.actions.push(t, fn);
  }

  /** Schedules a request's arrival at the matching engine (FIFO, like one socket); its answers travel the request's response leg. */
  protected _send(run: () => void, op: RoundTripOp = 'place'): void {
    const legs = this._o.latency.request(op);
    const t = Math.max(this._o.clock.nowMs() + legs.entryMs, this._lastArrival);
    this._lastArrival = t;
    this._o.actions.push(t, () => {
      this.now = Math.max(this.now, t);
      this._replyMs = legs.responseMs;
      try {
        run();
      } finally {
        this._replyMs = null;
      }
    });
  }

  /** Takes one token of the venue's order-entry budget at exchange time; false = answer 429. */
  protected _admit(): boolean {
    const rl = this._o.rateLimit;
    if (!rl) return true;
    if (this.#tokensMs > -Infinity) this.#tokens = Math.min(rl.burst, this.#tokens + ((this.now - this.#tokensMs) / 1000) * rl.perSecond);
    this.#tokensMs = this.now;
    if (this.#tokens < 1) {
      this.rateLimited++;
      return false;
    }
    this.#tokens -= 1;
    return true;
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
