/**
 * Every decodable message by a stable name (used by `mmbot wire check --as <type>`), and inference
 * of the message type from a value's shape: WS frames by `t` (MD vs order WS by shape), replies by
 * `rid` + `res`/`err`/`result`/`error`, REST bodies by their top-level keys.
 */
import type { Result } from '../../core/result.ts';
import { readFundingSlotsReport, readEstimatedFunding } from './funding.ts';
import { readInstrument } from './instrument.ts';
import { isRec, runDecoder, type Decoder, type DecodeError, type Rec } from './kit.ts';
import { readMdEvent, readMdReply, readMdRequest } from './md-ws.ts';
import { readOrder, readOrderStatus } from './order.ts';
import { readLoginReply, readOrderWsEvent, readOrderWsReply, readOrderWsRequest } from './order-ws.ts';
import * as auth from './rest-auth.ts';
import * as mkt from './rest-market.ts';
import * as ord from './rest-orders.ts';
import * as pf from './rest-portfolio.ts';
import * as rw from './rest-rewards.ts';

/** Message type name → decoder. */
export const WIRE_MESSAGE_DECODERS = {
  'order-event': readOrderWsEvent,
  'order-reply': readOrderWsReply,
  'login-reply': readLoginReply,
  'order-request': readOrderWsRequest,
  'md-event': readMdEvent,
  'md-reply': readMdReply,
  'md-request': readMdRequest,
  order: readOrder,
  'order-status': readOrderStatus,
  'authenticate-request': auth.readAuthenticateRequest,
  'authenticate-response': auth.readAuthenticateResponse,
  'create-api-key-request': auth.readCreateApiKeyRequest,
  'create-api-key-response': auth.readCreateApiKeyResponse,
  'revoke-api-key-request': auth.readRevokeApiKeyRequest,
  'allowed-ips-request': auth.readUpdateAllowedIpsRequest,
  health: auth.readHealthResponse,
  'error-body': auth.readErrorBody,
  empty: auth.readEmpty,
  'place-order-request': ord.readPlaceOrderRequest,
  'initial-margin-request': ord.readPlaceOrderRequest,
  'order-id-response': ord.readOrderIdResponse,
  'cancel-order-request': ord.readCancelOrderRequest,
  'cancel-order-response': ord.readCancelOrderResponse,
  'replace-order-request': ord.readReplaceOrderRequest,
  'cancel-all-request': ord.readCancelAllOrdersRequest,
  'order-status-query': ord.readOrderStatusQuery,
  'order-status-response': ord.readOrderStatusResponse,
  'open-orders-query': ord.readOpenOrdersQuery,
  'open-orders': ord.readOpenOrdersResponse,
  'order-history-query': ord.readOrderHistoryQuery,
  'order-history': ord.readOrderHistoryResponse,
  'order-fills-query': ord.readOrderFillsQuery,
  'order-fills': ord.readOrderFillsResponse,
  'initial-margin': ord.readInitialMarginResponse,
  whoami: pf.readWhoAmI,
  balances: pf.readBalancesResponse,
  positions: pf.readPositionsResponse,
  'risk-snapshot': pf.readRiskSnapshotResponse,
  'timeseries-query': pf.readTimeseriesQuery,
  'transactions-query': pf.readTransactionsQuery,
  fills: pf.readFillsResponse,
  transactions: pf.readTransactionsResponse,
  liquidations: pf.readLiquidationsResponse,
  'funding-transactions': pf.readFundingTransactionsResponse,
  'sandbox-transfer-request': pf.readSandboxTransferRequest,
  'sandbox-transfer-response': pf.readSandboxTransferResponse,
  instruments: mkt.readInstrumentsResponse,
  instrument: readInstrument,
  'symbol-query': mkt.readSymbolQuery,
  'book-query': mkt.readBookQuery,
  book: mkt.readBookResponse,
  ticker: mkt.readTickerResponse,
  'tickers-query': mkt.readTickersQuery,
  tickers: mkt.readTickersResponse,
  'trades-query': mkt.readTradesQuery,
  trades: mkt.readTradesResponse,
  'candles-query': mkt.readCandlesQuery,
  candles: mkt.readCandlesResponse,
  'candle-query': mkt.readCandleQuery,
  candle: mkt.readCandleResponse,
  'funding-rates-query': mkt.readFundingRatesQuery,
  'funding-rates': mkt.readFundingRatesResponse,
  'funding-slots-query': mkt.readFundingSlotsQuery,
  'funding-slots': readFundingSlotsReport,
  'estimated-funding': readEstimatedFunding,
  'underlying-prices-query': mkt.readUnderlyingPricesQuery,
  'underlying-prices': mkt.readUnderlyingPricesResponse,
  'preview-request': mkt.readPreviewRequest,
  'preview-response': mkt.readPreviewResponse,
  'reward-accruals-query': rw.readRewardAccrualsQuery,
  'reward-accruals': rw.readRewardAccrualsResponse,
} as const satisfies Record<string, Decoder<unknown>>;

/** A message type name accepted by `decodeAs` and `mmbot wire check --as`. */
export type WireMessageType = keyof typeof WIRE_MESSAGE_DECODERS;

/** All message type names, sorted. */
export const WIRE_MESSAGE_TYPES: readonly WireMessageType[] = (Object.keys(WIRE_MESSAGE_DECODERS) as WireMessageType[]).sort();

/** True when `name` is a known message type. */
export const isWireMessageType = (name: string): name is WireMessageType => Object.hasOwn(WIRE_MESSAGE_DECODERS, name);

/** Decodes `value` as the named message type. Never throws. */
export const decodeAs = (type: WireMessageType, value: unknown): Result<unknown, DecodeError> =>
  runDecoder(WIRE_MESSAGE_DECODERS[type] as Decoder<unknown>, value);

const MD_ONLY_EVENTS: ReadonlySet<string> = new Set(['1', '2', '3', 's', 't', 'bc']);

const has = (v: Rec, ...keys: string[]): boolean => keys.every((k) => v[k] !== undefined);

/** Infers a message type from a value's shape, or undefined when nothing matches. */
export function inferWireMessageType(v: unknown): WireMessageType | undefined {
  if (!isRec(v)) return undefined;
  if (typeof v.t === 'string') {
    if (v.rid !== undefined) return 'order-request';
    if (MD_ONLY_EVENTS.has(v.t)) return 'md-event';
    if (v.t === 'c' && v.symbol !== undefined) return 'md-event';
    return 'order-event';
  }
  if (v.rid !== undefined) {
    if (typeof v.type === 'string') return 'md-request';
    if (v.result !== undefined || v.error !== undefined) return 'md-reply';
    if (isRec(v.res) && v.res.li !== undefined) return 'login-reply';
    return 'order-reply';
  }
  return inferRest(v);
}

const BY_KEY: readonly (readonly [string, WireMessageType])[] = [
  ['instruments', 'instruments'],
  ['tickers', 'tickers'],
  ['ticker', 'ticker'],
  ['trades', 'trades'],
  ['candles', 'candles'],
  ['candle', 'candle'],
  ['funding_rates', 'funding-rates'],
  ['underlying_prices', 'underlying-prices'],
  ['index_prices', 'underlying-prices'],
  ['book', 'book'],
  ['balances', 'balances'],
  ['positions', 'positions'],
  ['risk_snapshot', 'risk-snapshot'],
  ['transactions', 'transactions'],
  ['liquidations', 'liquidations'],
  ['funding_transactions', 'funding-transactions'],
  ['accruals', 'reward-accruals'],
  ['im_pct', 'initial-margin'],
  ['token', 'authenticate-response'],
  ['cxl_rx', 'cancel-order-response'],
  ['slots', 'funding-slots'],
  ['accounts', 'whoami'],
  ['limit_price', 'preview-response'],
  ['error', 'error-body'],
];

function inferRest(v: Rec): WireMessageType | undefined {
  if (v.fills !== undefined) return 'fills';
  if (v.orders !== undefined) return v.offset !== undefined ? 'open-orders' : 'order-history';
  if (isRec(v.status)) return 'order-status-response';
  if (typeof v.status === 'string' && has(v, 'symbol', 'timestamp')) return 'estimated-funding';
  if (has(v, 'symbol', 'tick_size')) return 'instrument';
  if (has(v, 'oid', 'xq')) return 'order';
  if (has(v, 'api_key', 'api_secret')) return v.expiration_seconds !== undefined ? 'authenticate-request' : 'create-api-key-response';
  for (const [key, type] of BY_KEY) if (v[key] !== undefined) return type;
  if (has(v, 's', 'd', 'q', 'p', 'tif')) return 'place-order-request';
  if (v.oid !== undefined && Object.keys(v).length === 1) return 'order-id-response';
  return undefined;
}
