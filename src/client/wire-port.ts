/**
 * The client's one seam onto wire/: decoders, encoders and wire → domain mappers, each returning
 * a value or an MmError (never throwing), so the clients stay independent of wire/'s internals.
 */
import { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import { ok, type Result } from '../core/result.ts';
import type { Side } from '../domain/enums.ts';
import type { MarketEvent, OrderEvent } from '../domain/events.ts';
import type { FundingEstimate, FundingSettlement } from '../domain/funding.ts';
import type { Instrument, InstrumentCatalog } from '../domain/instrument.ts';
import type { Fill, Order, OrderStatus } from '../domain/order.ts';
import type { VenuePosition } from '../domain/position.ts';
import * as wire from '../wire/index.ts';
import type * as W from '../wire/index.ts';
import type { DecodeError } from '../wire/index.ts';

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
/** JSON.parse that keeps `cid`/`clord_id` integers above 2^53 exact (as digit strings). @throws SyntaxError */
export const parseJson = (text: string): unknown => wire.parseWireJson(text);
/** Encodes a REST body (cid as a bare integer, undefined members dropped). */
export const encodeBody = (body: object): string => wire.encodeRestBody(body);
/** Encodes a REST query string without `?` (lists comma-joined, absent members dropped, an unknown enum as its raw value). */
export const encodeQuery = (query: object): string => wire.encodeRestQuery(query);

// ------------------------------------------------------------------ mappers (wire/map, as MmError)

/** Domain side → wire side (`B`/`S`). */
export const wireSide = (side: Side): W.WireSide => wire.wireSide(side);

/** A mapping failure as the catalog's DECODE_FAILED, naming what and the JSON path. */
function failure(what: string, e: DecodeError): MmError {
  return new MmError('DECODE_FAILED', `${what}: ${e.message}`, { what, path: e.path });
}

/** A socket frame that did not decode (counted and skipped by the WS clients), naming the JSON path. */
export function frameSkipped(what: string, e: DecodeError, text: string): MmError {
  return new MmError('DECODE_FAILED', `${what} skipped: ${e.path}: ${e.message}`, { path: e.path, frame: text.slice(0, 200) });
}

/** Throws a mapping failure (MmError) or returns the mapped value, for callers that propagate it. */
export function unwrap<T>(r: T | MmError): T {
  if (r instanceof MmError) throw r;
  return r;
}

function unwrapMap<T>(what: string, r: Result<T, DecodeError>): T | MmError {
  return r.ok ? r.value : failure(what, r.error);
}

/** Wire order (decoded here when given raw) → domain order, prices in ticks of the symbol's grid. */
export function mapOrder(w: unknown, catalog: InstrumentCatalog): Order | MmError {
  const d = wire.decodeOrder(w);
  if (!d.ok) return failure('order', d.error);
  return unwrapMap('order', wire.toDomainOrder(d.value, catalog));
}

/** Wire order-status record → domain status. */
export function mapOrderStatus(w: unknown): OrderStatus | MmError {
  const d = wire.decodeOrderStatus(w);
  return d.ok ? wire.toDomainOrderStatus(d.value) : failure('order status', d.error);
}

/** Wire order-WS event → domain OrderEvent (null for heartbeats). */
export function mapOrderEvent(e: W.WireOrderWsEvent, catalog: InstrumentCatalog, tsRecv: number): OrderEvent | null | MmError {
  return unwrapMap(`order event ${e.t}`, wire.toOrderEvent(e, catalog, tsRecv));
}

/** Wire estimated funding (decoded here when given raw) → domain estimate. */
export function mapFundingEstimate(w: unknown): FundingEstimate | MmError {
  const d = wire.decodeEstimatedFunding(w);
  if (!d.ok) return failure('estimated funding', d.error);
  return unwrapMap('estimated funding', wire.toFundingEstimate(d.value));
}

/** Wire market-data event → domain MarketEvent; null for heartbeats and BBO candles. */
export function mapMdEvent(e: W.WireMdEvent, catalog: InstrumentCatalog, tsRecv: number): MarketEvent | null | MmError {
  const r = wire.toMarketEvent(e, catalog, tsRecv);
  return r.ok ? r.value : failure(`market-data event ${e.t}`, r.error);
}

/** Wire REST fill → domain fill with the fee the venue charged. */
export function mapFill(w: W.WireFill, catalog: InstrumentCatalog): FillWithFee | MmError {
  const r = wire.toDomainFill(w, catalog);
  return r.ok ? { ...r.value, fee: new Decimal(w.fee) } : failure('fill', r.error);
}

/** Wire position row → the venue's position (quantity, cost basis, realized PnL, last fill time). */
export function mapPosition(w: W.WirePosition): VenuePosition | MmError {
  return unwrapMap(`position ${w.symbol}`, wire.toVenuePosition(w));
}

/** Wire funding-rate record → domain settlement. */
export function mapFundingRate(w: W.WireFundingRate): FundingSettlement | MmError {
  return unwrapMap('funding rate', wire.toFundingSettlement(w));
}

/** Wire instrument → domain instrument. */
export function mapInstrument(w: W.WireInstrument): Instrument | MmError {
  return unwrapMap(`instrument ${String((w as { symbol?: unknown }).symbol)}`, wire.toDomainInstrument(w));
}

// ------------------------------------------------------------------ REST decoders

/**
 * For responses the venue documents no body for (logout, DELETE /api/api-keys, PATCH
 * /api/api-keys/allowed-ips: the venue documents no response): the action succeeded when the status did, so
 * the body is handed back as `unknown` rather than checked against a guessed shape.
 */
const undocumented = (v: unknown): Result<unknown, DecodeError> => ok(v);

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
  undocumented,
  empty: wire.decodeEmpty,
  sandboxTransfer: wire.decodeSandboxTransferResponse,
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
