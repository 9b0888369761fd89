/**
 * The client's one seam onto wire/: decoders, encoders and wire → domain mappers, each returning
 * a value or an MmError (never throwing), so the clients stay independent of wire/'s internals.
 */
import { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import { asAccountId, asClientOrderId, asExecutionId, asSymbol, asUserId, asVenueOrderId, type Symbol } from '../core/ids.ts';
import { ok, type Result } from '../core/result.ts';
import type { BookLevel } from '../domain/book.ts';
import type { InstrumentState, RepriceBehavior, Side, TimeInForce } from '../domain/enums.ts';
import { INSTRUMENT_STATES } from '../domain/enums.ts';
import type { MarketEvent, OrderEvent } from '../domain/events.ts';
import type { FundingEstimate, FundingSettlement } from '../domain/funding.ts';
import type { Instrument, InstrumentCatalog } from '../domain/instrument.ts';
import type { Fill, Order, OrderStatus } from '../domain/order.ts';
import { ORDER_STATES, type OrderState } from '../domain/order-state.ts';
import type { TickGrid } from '../domain/tick-grid.ts';
import * as wire from '../wire/index.ts';
import type * as W from '../wire/index.ts';
import type { DecodeError } from '../wire/index.ts';
import { TickGrid as Grid } from '../domain/tick-grid.ts';

/** A domain fill with the fee the venue charged (REST fills carry it; WS fills do not). */
export type FillWithFee = Fill & { readonly fee: Decimal };

// ------------------------------------------------------------------ frames and encoders

/** Decodes an order-WS frame (reply or event). */
export const decodeOrderWsFrame = (text: string): Result<W.WireOrderWsFrame, DecodeError> => wire.decodeOrderWsFrame(text);
/** Decodes a market-data frame (reply or event). */
export const decodeMdWsFrame = (text: string): Result<W.WireMdFrame, DecodeError> => wire.decodeMdWsFrame(text);
/** Encodes an order-WS request (cid as a bare integer). */
export const encodeOrderRequest = (req: W.WireOrderWsRequest): string => wire.encodeOrderWsRequest(req);
/** Encodes a market-data request. */
export const encodeMdRequest = (req: W.WireMdRequest): string => wire.encodeMdRequest(req);
/** Encodes a REST body (cid as a bare integer, undefined members dropped). */
export const encodeBody = (body: object): string => wire.encodeRestBody(body);

// ------------------------------------------------------------------ helpers

const raw = (v: W.WireEnum<string> | null | undefined): string | null => (v === null || v === undefined ? null : wire.enumRaw(v));
const sideOf = (d: W.WireEnum<W.WireSide>): Side => (d === 'S' ? 'sell' : 'buy');
const ORDER_STATE_SET: ReadonlySet<string> = new Set(ORDER_STATES);
const stateOf = (o: W.WireEnum<W.WireOrderState>): OrderState => (typeof o === 'string' && ORDER_STATE_SET.has(o) ? o : 'UNKNOWN');
const INSTRUMENT_STATE_SET: ReadonlySet<string> = new Set(INSTRUMENT_STATES);
const msOf = (ts: number, tn: number): number => ts * 1000 + tn / 1e6;

function gridOf(catalog: InstrumentCatalog, symbol: string): TickGrid {
  const inst = catalog.get(symbol);
  if (!inst) throw new MmError('DECODE_FAILED', `symbol ${symbol} is not in the instrument catalog`, { symbol });
  return inst.grid;
}

function guard<T>(what: string, fn: () => T): T | MmError {
  try {
    return fn();
  } catch (e) {
    if (e instanceof MmError) return e;
    return new MmError('DECODE_FAILED', `${what}: ${e instanceof Error ? e.message : String(e)}`, { what });
  }
}

function orderOf(w: W.WireOrder, catalog: InstrumentCatalog): Order {
  const grid = gridOf(catalog, w.s);
  return {
    orderId: asVenueOrderId(w.oid),
    clientOrderId: w.cid !== undefined ? asClientOrderId(w.cid) : null,
    accountId: asAccountId(w.aid),
    userId: w.u !== undefined ? asUserId(w.u) : null,
    symbol: asSymbol(w.s),
    side: sideOf(w.d),
    priceTicks: grid.toTicks(w.p, 'nearest'),
    qty: w.q,
    filledQty: w.xq,
    remainingQty: w.rq,
    state: stateOf(w.o),
    tif: (raw(w.tif) ?? 'GTC') as TimeInForce,
    postOnly: w.po,
    reprice: (raw(w.rb) ?? 'rej') as RepriceBehavior,
    tag: w.tag ?? null,
    rejectReason: raw(w.r),
    text: w.txt ?? null,
    createdMs: msOf(w.ts, w.tn),
  };
}

// ------------------------------------------------------------------ order mappers

/** Wire order → domain order (prices in ticks of the symbol's grid). */
export const mapOrder = (w: unknown, catalog: InstrumentCatalog): Order | MmError =>
  guard('order', () => {
    const d = wire.decodeOrder(w);
    if (!d.ok) throw new MmError('DECODE_FAILED', `order: ${d.error.message}`, { path: d.error.path });
    return orderOf(d.value, catalog);
  });

/** Wire order-status record → domain status. */
export const mapOrderStatus = (w: unknown): OrderStatus | MmError =>
  guard('order status', () => {
    const d = wire.decodeOrderStatus(w);
    if (!d.ok) throw new MmError('DECODE_FAILED', `order status: ${d.error.message}`, { path: d.error.path });
    const s = d.value;
    return {
      symbol: asSymbol(s.symbol),
      orderId: asVenueOrderId(s.order_id),
      clientOrderId: s.clord_id !== undefined && s.clord_id !== null ? asClientOrderId(s.clord_id) : null,
      state: stateOf(s.state),
      filledQty: s.filled_quantity,
      remainingQty: s.remaining_quantity,
      rejectReason: raw(s.reject_reason),
      rejectMessage: s.reject_message ?? null,
    };
  });

/** Wire order-WS event (not heartbeat) → domain OrderEvent. */
export const mapOrderEvent = (e: Exclude<W.WireOrderWsEvent, W.WireOrderHeartbeatEvent>, catalog: InstrumentCatalog, tsRecv: number): OrderEvent | MmError =>
  guard(`order event ${e.t}`, (): OrderEvent => {
    const tsEvent = msOf(e.ts, e.tn);
    switch (e.t) {
      case 'n':
        return { type: 'accepted', tsEvent, tsRecv, executionId: asExecutionId(e.eid), order: orderOf(e.o, catalog) };
      case 'x':
        return { type: 'expired', tsEvent, tsRecv, executionId: asExecutionId(e.eid), order: orderOf(e.o, catalog) };
      case 'd':
        return { type: 'done-for-day', tsEvent, tsRecv, executionId: asExecutionId(e.eid), order: orderOf(e.o, catalog) };
      case 'p':
      case 'f': {
        const order = orderOf(e.o, catalog);
        return {
          type: 'filled',
          tsEvent,
          tsRecv,
          executionId: asExecutionId(e.eid),
          order,
          partial: e.t === 'p',
          tradeId: e.xs.tid,
          fillPriceTicks: gridOf(catalog, e.xs.s).toTicks(e.xs.p, 'nearest'),
          fillQty: e.xs.q,
          fillSide: sideOf(e.xs.d),
          aggressor: e.xs.agg,
        };
      }
      case 'c':
        return { type: 'canceled', tsEvent, tsRecv, executionId: asExecutionId(e.eid), order: orderOf(e.o, catalog), reason: e.xr ?? '', text: e.txt ?? '' };
      case 'j':
        return { type: 'rejected', tsEvent, tsRecv, executionId: asExecutionId(e.eid), order: orderOf(e.o, catalog), reason: raw(e.r), text: e.txt ?? '' };
      case 'r':
        return {
          type: 'replaced',
          tsEvent,
          tsRecv,
          executionId: asExecutionId(e.eid),
          original: orderOf(e.ro, catalog),
          replacement: e.no ? orderOf(e.no, catalog) : null,
          newOrderId: e.noid !== undefined ? asVenueOrderId(e.noid) : e.no ? asVenueOrderId(e.no.oid) : null,
        };
      case 'e':
        return {
          type: 'cancel-rejected',
          tsEvent,
          tsRecv,
          orderId: e.oid !== undefined ? asVenueOrderId(e.oid) : null,
          clientOrderId: e.cid !== undefined ? asClientOrderId(e.cid) : null,
          reason: e.r,
          text: e.txt ?? '',
          order: e.o ? orderOf(e.o, catalog) : null,
        };
    }
  });

// ------------------------------------------------------------------ market data

function levels(ls: readonly W.WireBookLevel[], grid: TickGrid): BookLevel[] {
  const out = new Array<BookLevel>(ls.length);
  for (let i = 0; i < ls.length; i++) {
    const l = ls[i]!;
    out[i] = l.o !== undefined ? { priceTicks: grid.toTicks(l.p, 'nearest'), qty: l.q, orders: l.o } : { priceTicks: grid.toTicks(l.p, 'nearest'), qty: l.q };
  }
  return out;
}

const ticksOrNull = (grid: TickGrid, p: string | null | undefined): number | null => (p === null || p === undefined ? null : grid.toTicks(p, 'nearest'));
const decOrNull = (p: string | null | undefined): Decimal | null => (p === null || p === undefined ? null : new Decimal(p));

/** Wire estimated funding → domain estimate. */
export const mapFundingEstimate = (w: unknown): FundingEstimate | MmError =>
  guard('estimated funding', () => {
    const d = wire.decodeEstimatedFunding(w);
    if (!d.ok) throw new MmError('DECODE_FAILED', `estimated funding: ${d.error.message}`, { path: d.error.path });
    const f = d.value;
    return {
      symbol: asSymbol(f.symbol),
      status: raw(f.status) ?? 'unavailable',
      rate: decOrNull(f.funding_rate),
      amount: decOrNull(f.funding_amount),
      benchmarkPrice: decOrNull(f.benchmark_price),
      settlementPrice: decOrNull(f.settlement_price),
      reason: f.reason ?? null,
      computedMs: Date.parse(f.timestamp),
    };
  });

/** Wire market-data event → domain MarketEvent; null for heartbeats and BBO candles. */
export const mapMdEvent = (e: W.WireMdEvent, catalog: InstrumentCatalog, tsRecv: number): MarketEvent | null | MmError =>
  guard(`market-data event ${e.t}`, (): MarketEvent | null => {
    switch (e.t) {
      case '1':
      case '2':
      case '3': {
        const grid = gridOf(catalog, e.s);
        return {
          type: 'book',
          symbol: e.s as Symbol,
          level: e.t === '1' ? 1 : e.t === '2' ? 2 : 3,
          isSnapshot: e.st !== false,
          bids: levels(e.b, grid),
          asks: levels(e.a, grid),
          tsEvent: msOf(e.ts, e.tn),
          tsRecv,
        };
      }
      case 't':
        return { type: 'trade', symbol: asSymbol(e.s), priceTicks: gridOf(catalog, e.s).toTicks(e.p, 'nearest'), qty: e.q, aggressor: sideOf(e.d), tsEvent: msOf(e.ts, e.tn), tsRecv };
      case 's': {
        const grid = gridOf(catalog, e.s);
        const st = raw(e.i);
        const ef = e.ef ? mapFundingEstimate(e.ef) : null;
        return {
          type: 'ticker',
          symbol: asSymbol(e.s),
          lastTicks: ticksOrNull(grid, e.p),
          lastQty: e.q,
          markTicks: ticksOrNull(grid, e.m),
          bestBidTicks: ticksOrNull(grid, e.bp),
          bestAskTicks: ticksOrNull(grid, e.ap),
          bandLowerTicks: ticksOrNull(grid, e.pl),
          bandUpperTicks: ticksOrNull(grid, e.pu),
          lastSettlementTicks: ticksOrNull(grid, e.lsp),
          lastSettlementMs: e.lst === null || e.lst === undefined ? null : e.lst * 1000,
          state: (st !== null && INSTRUMENT_STATE_SET.has(st) ? st : 'UNKNOWN') as InstrumentState,
          volume: e.v,
          openInterest: e.oi,
          funding: ef instanceof MmError ? null : ef,
          tsEvent: msOf(e.ts, e.tn),
          tsRecv,
        };
      }
      case 'c':
        return {
          type: 'candle',
          symbol: asSymbol(e.symbol),
          width: e.width,
          bucketStartMs: typeof e.ts === 'number' ? e.ts * 1000 : Date.parse(e.ts),
          open: new Decimal(e.open),
          high: new Decimal(e.high),
          low: new Decimal(e.low),
          close: new Decimal(e.close),
          buyVolume: e.buy_volume,
          sellVolume: e.sell_volume,
          tsEvent: typeof e.ts === 'number' ? e.ts * 1000 : Date.parse(e.ts),
          tsRecv,
        };
      default:
        return null;
    }
  });

// ------------------------------------------------------------------ REST records

/** Wire REST fill → domain fill with fee. */
export const mapFill = (w: W.WireFill, catalog: InstrumentCatalog): FillWithFee | MmError =>
  guard('fill', () => ({
    tradeId: w.trade_id,
    orderId: asVenueOrderId(w.order_id),
    accountId: asAccountId(w.account_id),
    symbol: asSymbol(w.symbol),
    side: sideOf(w.side),
    priceTicks: gridOf(catalog, w.symbol).toTicks(w.price, 'nearest'),
    qty: w.quantity,
    aggressor: w.is_taker,
    tsEvent: Date.parse(w.timestamp),
    fee: new Decimal(w.fee),
  }));

/** Wire funding-rate record → domain settlement. */
export const mapFundingRate = (w: W.WireFundingRate): FundingSettlement | MmError =>
  guard('funding rate', () => ({
    symbol: asSymbol(w.symbol),
    rate: new Decimal(w.funding_rate),
    amount: new Decimal(w.funding_amount ?? '0'),
    benchmarkPrice: new Decimal(w.benchmark_price ?? w.settlement_price),
    settlementPrice: new Decimal(w.settlement_price),
    tsEvent: Math.floor(w.timestamp_ns / 1e6),
  }));

/** Wire instrument → domain instrument. */
export const mapInstrument = (w: W.WireInstrument): Instrument | MmError =>
  guard(`instrument ${String((w as { symbol?: unknown }).symbol)}`, (): Instrument => {
    const pct = (v: string | null | undefined): Decimal | null => (v === null || v === undefined ? null : new Decimal(v));
    const fs = w.funding_schedule;
    return {
      symbol: asSymbol(w.symbol),
      product: w.product,
      kind: w.expiration ? 'dated' : 'perpetual',
      category: raw(w.category) ?? '',
      description: w.description ?? '',
      expirationMs: w.expiration ? Date.parse(w.expiration) : null,
      grid: new Grid(w.tick_size),
      multiplier: new Decimal(w.multiplier),
      minOrderSize: Number(w.minimum_order_size),
      initialMarginPct: new Decimal(w.initial_margin_pct),
      maintenanceMarginPct: new Decimal(w.maintenance_margin_pct),
      bandLowerPct: pct(w.price_band_lower_deviation_pct) ?? new Decimal(10),
      bandUpperPct: pct(w.price_band_upper_deviation_pct) ?? new Decimal(10),
      fundingCapUpperPct: pct(w.funding_rate_cap_upper_pct),
      fundingCapLowerPct: pct(w.funding_rate_cap_lower_pct),
      fundingSchedule: fs
        ? {
            timezone: fs.timezone,
            times: fs.times.map((t) => ({ daysOfWeek: t.days_of_week, hours: t.time_of_day.hours, minutes: t.time_of_day.minutes, seconds: t.time_of_day.seconds })),
            exceptions: (fs.exceptions ?? []).map((e) => ({ date: e.date, times: e.times, reason: e.reason ?? '' })),
          }
        : null,
      fundingVariant: fs ? (fs.times.length > 1 ? 'intraday_twap' : 'daily_close') : null,
      estimatedFundingSupported: w.estimated_funding_supported ?? false,
    };
  });

// ------------------------------------------------------------------ REST decoders

const passthrough = <T>(v: unknown): Result<T, DecodeError> => ok(v as T);

/** The deprecated index-prices response carries its rows under `index_prices`. */
function decodeIndexPrices(v: unknown): Result<W.WireUnderlyingPricesResponse, DecodeError> {
  if (typeof v === 'object' && v !== null && 'index_prices' in v) {
    const { index_prices, ...rest } = v as Record<string, unknown>;
    return wire.decodeUnderlyingPricesResponse({ underlying_prices: index_prices, ...rest });
  }
  return wire.decodeUnderlyingPricesResponse(v);
}

/** REST response decoders by endpoint (wire/'s, never throwing; errors name the JSON path). */
export const dec = {
  any: passthrough<unknown>,
  anyObject: passthrough<Readonly<Record<string, unknown>>>,
  authenticate: wire.decodeAuthenticateResponse,
  createApiKey: wire.decodeCreateApiKeyResponse,
  health: wire.decodeHealthResponse,
  instruments: wire.decodeInstrumentsResponse,
  instrument: wire.decodeInstrument,
  book: wire.decodeBookResponse,
  ticker: wire.decodeTickerResponse,
  tickers: wire.decodeTickersResponse,
  trades: wire.decodeTradesResponse,
  candles: wire.decodeCandlesResponse,
  candle: wire.decodeCandleResponse,
  fundingRates: wire.decodeFundingRatesResponse,
  estimatedFunding: wire.decodeEstimatedFunding,
  fundingSlots: wire.decodeFundingSlotsReport,
  underlyingPrices: wire.decodeUnderlyingPricesResponse,
  indexPrices: decodeIndexPrices,
  previewAggressive: wire.decodePreviewResponse,
  whoami: wire.decodeWhoAmI,
  balances: wire.decodeBalancesResponse,
  positions: wire.decodePositionsResponse,
  riskSnapshot: wire.decodeRiskSnapshotResponse,
  fills: wire.decodeFillsResponse,
  transactions: wire.decodeTransactionsResponse,
  liquidations: wire.decodeLiquidationsResponse,
  fundingTransactions: wire.decodeFundingTransactionsResponse,
  rewardAccruals: wire.decodeRewardAccrualsResponse,
  orderId: wire.decodeOrderIdResponse,
  cancel: wire.decodeCancelOrderResponse,
  orderStatus: wire.decodeOrderStatusResponse,
  openOrders: wire.decodeOpenOrdersResponse,
  orderHistory: wire.decodeOrderHistoryResponse,
  orderFills: wire.decodeOrderFillsResponse,
  initialMargin: wire.decodeInitialMarginResponse,
};
