import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { FundingEstimate, FundingSettlement } from '../domain/funding.ts';
import type { Instrument, InstrumentCatalog } from '../domain/instrument.ts';
import { instrumentCatalog } from '../domain/instrument.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { Order, OrderStatus } from '../domain/order.ts';
import type * as W from '../wire/index.ts';
import type { BackoffPolicy } from './backoff.ts';
import { cancelBody, orderRef, placeBody, replaceBody } from './intent-wire.ts';
import { relabelOrderError } from './order-errors.ts';
import { resolvePlaceOutcome, resolveReplaceOutcome } from './order-outcome.ts';
import { collect, cursorPaged, offsetPaged } from './paging.ts';
import { RestCore, type BodyDecodeError, type QueryValue, type RestStats } from './rest-core.ts';
import { undiciTransport, type HttpTransport } from './http-transport.ts';
import { TokenManager } from './token-manager.ts';
import { dec, encodeBody, mapFill, mapFundingEstimate, mapFundingRate, mapInstrument, mapOrder, mapOrderStatus, unwrap, type FillWithFee } from './wire-port.ts';
import type { Result } from '../core/result.ts';

/** API credentials (from the environment or the local venue's default key). */
export interface ApiCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

/** Options of the REST client. */
export interface RestClientOptions {
  /** `http://host:port` of the venue gateway. */
  readonly baseUrl: string;
  readonly clock: Clock;
  /** Without credentials only public endpoints (instruments, health) work. */
  readonly credentials?: ApiCredentials;
  /** Token lifetime requested, s (default 3600); refreshed at `refreshAtFraction` (default 0.6). */
  readonly tokenLifetimeS?: number;
  readonly refreshAtFraction?: number;
  /** Instruments for tick ⇄ price conversion; `loadInstruments()` fills it from the venue when absent. */
  readonly instruments?: InstrumentCatalog;
  /** Account the order endpoints act on (default: the user's default account). */
  readonly accountId?: string;
  readonly retry?: BackoffPolicy;
  readonly maxRetries?: number;
  readonly requestTimeoutMs?: number;
  /** Largest response body read, bytes (default 16 MiB); a larger one fails with RESPONSE_TOO_LARGE. Ignored with `transport`. */
  readonly maxResponseBytes?: number;
  readonly transport?: HttpTransport;
  readonly random?: () => number;
}

type Query = Readonly<Record<string, QueryValue>>;
/** A wire query object whose every member is something a query string can carry (checked per member). */
type QueryOf<Q> = { readonly [K in keyof Q]: QueryValue };
type Decode<T> = (v: unknown) => Result<T, BodyDecodeError>;

/**
 * Typed REST client for every documented endpoint (`/api/...`, `/orders/...`): keep-alive pool,
 * bearer-token lifecycle, catalog errors, safe-only retries, paging iterators. Order methods speak
 * domain intents and return domain types; reads without a domain type return wire types.
 */
export class RestClient {
  readonly tokens: TokenManager | undefined;
  readonly #core: RestCore;
  readonly #transport: HttpTransport;
  readonly #o: RestClientOptions;
  #catalog: InstrumentCatalog | undefined;

  constructor(opts: RestClientOptions) {
    this.#o = opts;
    this.#catalog = opts.instruments;
    this.#transport = opts.transport ?? undiciTransport(opts.baseUrl, { clock: opts.clock, ...(opts.maxResponseBytes !== undefined ? { maxResponseBytes: opts.maxResponseBytes } : {}) });
    const creds = opts.credentials;
    this.tokens = creds
      ? new TokenManager({
          clock: opts.clock,
          lifetimeS: opts.tokenLifetimeS ?? 3600,
          ...(opts.refreshAtFraction !== undefined ? { refreshAtFraction: opts.refreshAtFraction } : {}),
          authenticate: (lifetimeS) => this.authenticate(creds, lifetimeS).then((r) => r.token),
        })
      : undefined;
    this.#core = new RestCore({
      transport: this.#transport,
      clock: opts.clock,
      ...(this.tokens ? { tokens: this.tokens } : {}),
      ...(opts.retry ? { retry: opts.retry } : {}),
      ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
      ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
      ...(opts.random ? { random: opts.random } : {}),
    });
  }

  /** Request, retry and auth counters. */
  get stats(): RestStats {
    return this.#core.stats;
  }

  /** The instrument catalog in use. @throws MmError CONFIG_INVALID before `loadInstruments()`. */
  get instruments(): InstrumentCatalog {
    if (!this.#catalog) throw new MmError('CONFIG_INVALID', 'no instrument catalog: call loadInstruments() first');
    return this.#catalog;
  }

  /** Stops the token refresh timer and closes pooled connections. */
  async close(): Promise<void> {
    this.tokens?.close();
    await this.#transport.close();
  }

  // ------------------------------------------------------------------ auth and keys

  /** POST /api/authenticate (no token): a session token valid `expirationS` seconds. */
  authenticate(creds: ApiCredentials, expirationS: number): Promise<W.WireAuthenticateResponse> {
    const body: W.WireAuthenticateRequest = { api_key: creds.apiKey, api_secret: creds.apiSecret, expiration_seconds: expirationS };
    return this.#core.call({ method: 'POST', path: '/api/authenticate', body, auth: false, safe: true, decode: dec.authenticate });
  }
  /** POST /api/api-keys: a new key (restricted to `account_ids`/permissions when given). */
  createApiKey(req: W.WireCreateApiKeyRequest = {}): Promise<W.WireCreateApiKeyResponse> {
    return this.#post('/api/api-keys', req, false, dec.createApiKey);
  }
  /** DELETE /api/api-keys: revokes a key and every token made from it. */
  revokeApiKey(req: W.WireRevokeApiKeyRequest): Promise<unknown> {
    return this.#core.call({ method: 'DELETE', path: '/api/api-keys', body: req, auth: true, safe: true, decode: dec.undocumented });
  }
  /** PATCH /api/api-keys/allowed-ips: replaces a key's IP allowlist. */
  updateAllowedIps(req: W.WireUpdateAllowedIpsRequest): Promise<unknown> {
    return this.#core.call({ method: 'PATCH', path: '/api/api-keys/allowed-ips', body: req, auth: true, safe: true, decode: dec.undocumented });
  }
  /** POST /api/logout: revokes the current token. */
  logout(): Promise<unknown> {
    return this.#post('/api/logout', {}, true, dec.undocumented);
  }
  /** GET /api/health (no token). */
  health(): Promise<W.WireHealthResponse> {
    return this.#get('/api/health', undefined, dec.health, false);
  }
  /** GET /orders/health (no token). */
  ordersHealth(): Promise<W.WireHealthResponse> {
    return this.#get('/orders/health', undefined, dec.health, false);
  }

  // ------------------------------------------------------------------ reference and market data

  /** GET /api/instruments (no token), as wire records. */
  instrumentsRaw(): Promise<W.WireInstrumentsResponse> {
    return this.#get('/api/instruments', undefined, dec.instruments, false);
  }
  /** Fetches the instruments, maps them to domain, and makes them this client's catalog. */
  async loadInstruments(): Promise<InstrumentCatalog> {
    const raw = await this.instrumentsRaw();
    const list: Instrument[] = raw.instruments.map((w) => unwrap(mapInstrument(w)));
    this.#catalog = instrumentCatalog(list);
    return this.#catalog;
  }
  /** GET /api/instrument?symbol=. */
  async instrument(symbol: string): Promise<Instrument> {
    return unwrap(mapInstrument(await this.#get('/api/instrument', { symbol }, dec.instrument, false)));
  }
  /** GET /api/book (level 2 aggregated, 3 per order). */
  book(symbol: string, level: 2 | 3 = 2): Promise<W.WireBookResponse> {
    return this.#get('/api/book', { symbol, level }, dec.book);
  }
  /** GET /api/ticker. */
  ticker(symbol: string): Promise<W.WireTickerResponse> {
    return this.#get('/api/ticker', { symbol }, dec.ticker);
  }
  /** GET /api/tickers (one page). */
  tickers(q: W.WireTickersQuery = {}): Promise<W.WireTickersResponse> {
    return this.#get('/api/tickers', q, dec.tickers);
  }
  /** Every ticker, paging by offset. */
  allTickers(pageSize = 100): AsyncGenerator<W.WireTicker> {
    return offsetPaged(async (offset, limit) => {
      const r = await this.tickers({ offset, limit });
      return { items: r.tickers, totalCount: r.total_count };
    }, pageSize);
  }
  /** GET /api/trades (newest first, limit ≤ 100). */
  trades(q: W.WireTradesQuery): Promise<W.WireTradesResponse> {
    return this.#get('/api/trades', q, dec.trades);
  }
  /** GET /api/candles (ascending). */
  candles(q: W.WireCandlesQuery): Promise<W.WireCandlesResponse> {
    return this.#get('/api/candles', q, dec.candles);
  }
  /** GET /api/candles/current (the in-progress bucket). */
  currentCandle(q: W.WireCandleQuery): Promise<W.WireCandleResponse> {
    return this.#get('/api/candles/current', q, dec.candle);
  }
  /** GET /api/candles/last (the last completed bucket). */
  lastCandle(q: W.WireCandleQuery): Promise<W.WireCandleResponse> {
    return this.#get('/api/candles/last', q, dec.candle);
  }
  /** GET /api/funding-rates (one page). */
  fundingRates(q: W.WireFundingRatesQuery): Promise<W.WireFundingRatesResponse> {
    return this.#get('/api/funding-rates', q, dec.fundingRates);
  }
  /** Every funding settlement of `q.symbol`, following cursors, as domain settlements. */
  allFundingRates(q: W.WireFundingRatesQuery): AsyncGenerator<FundingSettlement> {
    return cursorPaged(async (cursor) => {
      const r = await this.fundingRates({ ...q, ...(cursor !== undefined ? { cursor } : {}) });
      return { items: r.funding_rates.map((w) => unwrap(mapFundingRate(w))), nextCursor: r.next_cursor };
    });
  }
  /** GET /api/estimated-funding-rate as a domain estimate. */
  async estimatedFundingRate(symbol: string): Promise<FundingEstimate> {
    return unwrap(mapFundingEstimate(await this.#get('/api/estimated-funding-rate', { symbol }, dec.estimatedFunding)));
  }
  /** GET /api/funding-slots (the day's slot report). */
  fundingSlots(q: W.WireFundingSlotsQuery): Promise<W.WireFundingSlotsReport> {
    return this.#get('/api/funding-slots', q, dec.fundingSlots);
  }
  /** GET /api/underlying-prices (one page). */
  underlyingPrices(q: W.WireUnderlyingPricesQuery): Promise<W.WireUnderlyingPricesResponse> {
    return this.#get('/api/underlying-prices', q, dec.underlyingPrices);
  }
  /** Every underlying price in `q`'s range, following cursors. */
  allUnderlyingPrices(q: W.WireUnderlyingPricesQuery): AsyncGenerator<W.WireUnderlyingPrice> {
    return cursorPaged(async (cursor) => {
      const r = await this.underlyingPrices({ ...q, ...(cursor !== undefined ? { cursor } : {}) });
      return { items: r.underlying_prices, nextCursor: r.next_cursor };
    });
  }
  /** GET /api/index-prices (deprecated alias; rows under `index_prices`). */
  indexPrices(q: W.WireUnderlyingPricesQuery): Promise<W.WireUnderlyingPricesResponse> {
    return this.#get('/api/index-prices', q, dec.indexPrices);
  }
  /** POST /api/preview-aggressive-limit-order: the limit price that would fill `quantity` now. */
  previewAggressiveLimitOrder(req: W.WirePreviewAggressiveLimitOrderRequest): Promise<W.WirePreviewAggressiveLimitOrderResponse> {
    return this.#post('/api/preview-aggressive-limit-order', req, true, dec.previewAggressive);
  }

  // ------------------------------------------------------------------ portfolio

  /** GET /api/whoami. */
  whoami(): Promise<W.WireWhoAmI> {
    return this.#get('/api/whoami', undefined, dec.whoami);
  }
  /** GET /api/balances. */
  balances(accountId?: string): Promise<W.WireBalancesResponse> {
    return this.#get('/api/balances', { account_id: accountId }, dec.balances);
  }
  /** GET /api/positions. */
  positions(accountId?: string): Promise<W.WirePositionsResponse> {
    return this.#get('/api/positions', { account_id: accountId }, dec.positions);
  }
  /** GET /api/risk-snapshot. */
  riskSnapshot(accountId?: string): Promise<W.WireRiskSnapshotResponse> {
    return this.#get('/api/risk-snapshot', { account_id: accountId }, dec.riskSnapshot);
  }
  /** GET /api/fills (one page; time range required, ≤ 7 days). */
  fills(q: W.WireFillsQuery): Promise<W.WireFillsResponse> {
    return this.#get('/api/fills', q, dec.fills);
  }
  /** Every fill in `q`'s range with its fee, following cursors, as domain fills. */
  allFills(q: W.WireFillsQuery): AsyncGenerator<FillWithFee> {
    return cursorPaged(async (cursor) => {
      const r = await this.fills({ ...q, ...(cursor !== undefined ? { cursor } : {}) });
      return { items: r.fills.map((w) => unwrap(mapFill(w, this.instruments))), nextCursor: r.next_cursor };
    });
  }
  /** GET /api/transactions (one page). */
  transactions(q: W.WireTransactionsQuery): Promise<W.WireTransactionsResponse> {
    return this.#get('/api/transactions', q, dec.transactions);
  }
  /** Every ledger transaction in `q`'s range, following cursors. */
  allTransactions(q: W.WireTransactionsQuery): AsyncGenerator<W.WireTransaction> {
    return cursorPaged(async (cursor) => {
      const r = await this.transactions({ ...q, ...(cursor !== undefined ? { cursor } : {}) });
      return { items: r.transactions, nextCursor: r.next_cursor };
    });
  }
  /** GET /api/liquidations (one page). */
  liquidations(q: W.WireLiquidationsQuery): Promise<W.WireLiquidationsResponse> {
    return this.#get('/api/liquidations', q, dec.liquidations);
  }
  /** GET /api/funding-transactions (one page). */
  fundingTransactions(q: W.WireFundingTransactionsQuery = {}): Promise<W.WireFundingTransactionsResponse> {
    return this.#get('/api/funding-transactions', q, dec.fundingTransactions);
  }
  /** Every funding posting in `q`'s range, following cursors. */
  allFundingTransactions(q: W.WireFundingTransactionsQuery = {}): AsyncGenerator<W.WireFundingTransaction> {
    return cursorPaged(async (cursor) => {
      const r = await this.fundingTransactions({ ...q, ...(cursor !== undefined ? { cursor } : {}) });
      return { items: r.funding_transactions, nextCursor: r.next_cursor };
    });
  }
  /** POST /api/sandbox/withdraw (sandbox only). */
  sandboxWithdraw(req: W.WireSandboxTransferRequest): Promise<W.WireSandboxTransferResponse> {
    return this.#post('/api/sandbox/withdraw', req, false, dec.sandboxTransfer);
  }
  /** POST /api/sandbox/deposit (sandbox only). */
  sandboxDeposit(req: W.WireSandboxTransferRequest): Promise<W.WireSandboxTransferResponse> {
    return this.#post('/api/sandbox/deposit', req, false, dec.sandboxTransfer);
  }
  /** GET /api/mmlp/v2/reward-accruals (one page). */
  rewardAccruals(q: W.WireRewardAccrualsQuery = {}): Promise<W.WireRewardAccrualsResponse> {
    return this.#get('/api/mmlp/v2/reward-accruals', q, dec.rewardAccruals);
  }
  /** Every reward accrual matching `q`, paging by offset. */
  allRewardAccruals(q: Omit<W.WireRewardAccrualsQuery, 'offset' | 'limit'> = {}, pageSize = 100): AsyncGenerator<W.WireRewardAccrual> {
    return offsetPaged(async (offset, limit) => {
      const r = await this.rewardAccruals({ ...q, offset, limit });
      return { items: r.accruals, totalCount: r.total_count };
    }, pageSize);
  }

  // ------------------------------------------------------------------ orders

  /**
   * POST /orders/place-order. Never retried blind: on an unknown outcome (timeout, 5xx, dropped
   * connection) the order is looked up by its cid; found → resolved, not found → the original
   * retryable error with `details.outcome = 'not-placed'`.
   * @throws MmError ORDER_REJECTED (final), RATE_LIMITED, TIMEOUT with outcome 'unknown'...
   */
  async placeOrder(intent: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    const bodyText = encodeBody(placeBody(intent, this.instruments, this.#o.accountId));
    const attempt = (): Promise<W.WireOrderIdResponse> =>
      this.#core.call({ method: 'POST', path: '/orders/place-order', bodyText, auth: true, safe: false, decode: dec.orderId });
    return resolvePlaceOutcome(attempt, intent.clientOrderId, (cid) => this.orderStatus({ clientOrderId: cid })).catch((e: unknown) => {
      throw relabelOrderError('place', e);
    });
  }

  /** POST /orders/replace-order; an unknown outcome is resolved from the original's status. */
  async replaceOrder(intent: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }> {
    const bodyText = encodeBody(replaceBody(intent, this.instruments, this.#o.accountId));
    const attempt = (): Promise<W.WireOrderIdResponse> =>
      this.#core.call({ method: 'POST', path: '/orders/replace-order', bodyText, auth: true, safe: false, decode: dec.orderId });
    return resolveReplaceOutcome(attempt, intent, (ref) => this.orderStatus(ref)).catch((e: unknown) => {
      throw relabelOrderError('replace', e);
    });
  }

  /** POST /orders/cancel-order (safe to repeat); `accepted` is the venue's `cxl_rx`. */
  async cancelOrder(intent: Pick<CancelOrder, 'orderId' | 'clientOrderId'>): Promise<{ readonly accepted: boolean }> {
    const bodyText = encodeBody(cancelBody(intent, this.#o.accountId));
    const r = await this.#core
      .call({ method: 'POST', path: '/orders/cancel-order', bodyText, auth: true, safe: true, decode: dec.cancel })
      .catch((e: unknown) => {
        throw relabelOrderError('cancel', e);
      });
    return { accepted: r.cxl_rx };
  }

  /** POST /orders/cancel-all-orders (safe to repeat), for one symbol or all. */
  async cancelAllOrders(symbol: Symbol | null = null): Promise<void> {
    const body: W.WireCancelAllOrdersRequest = { ...(this.#o.accountId !== undefined ? { account_id: this.#o.accountId } : {}), ...(symbol !== null ? { symbol } : {}) };
    await this.#post('/orders/cancel-all-orders', body, true, dec.empty);
  }

  /** GET /orders/order-status by venue or client id; null when the venue does not know it (404). */
  async orderStatus(ref: { readonly orderId?: VenueOrderId | undefined; readonly clientOrderId?: ClientOrderId | undefined }): Promise<OrderStatus | null> {
    const q: Query = { ...orderRef(ref.orderId, ref.clientOrderId), account_id: this.#o.accountId };
    try {
      const r = await this.#get('/orders/order-status', q, dec.orderStatus);
      return unwrap(mapOrderStatus(r.status));
    } catch (e) {
      if (e instanceof MmError && e.code === 'NOT_FOUND') return null;
      throw e;
    }
  }

  /** GET /orders/open-orders (one page, wire records). */
  openOrdersPage(q: W.WireOpenOrdersQuery = {}): Promise<W.WireOpenOrdersResponse> {
    return this.#get('/orders/open-orders', { account_id: this.#o.accountId, ...q }, dec.openOrders);
  }
  /** Every open order (newest first), paging by offset, as domain orders. */
  allOpenOrders(pageSize = 100): AsyncGenerator<Order> {
    return offsetPaged(async (offset, limit) => {
      const r = await this.openOrdersPage({ offset, limit });
      return { items: r.orders.map((w) => unwrap(mapOrder(w, this.instruments))), totalCount: r.total_count };
    }, pageSize);
  }
  /** All open orders as one array. */
  openOrders(): Promise<Order[]> {
    return collect(this.allOpenOrders());
  }
  /** GET /orders/orders (history, one page). */
  orderHistory(q: W.WireOrderHistoryQuery): Promise<W.WireOrderHistoryResponse> {
    return this.#get('/orders/orders', { account_id: this.#o.accountId, ...q }, dec.orderHistory);
  }
  /** Every historical order matching `q`, following cursors, as domain orders. */
  allOrderHistory(q: W.WireOrderHistoryQuery): AsyncGenerator<Order> {
    return cursorPaged(async (cursor) => {
      const r = await this.orderHistory({ ...q, ...(cursor !== undefined ? { cursor } : {}) });
      return { items: r.orders.map((w) => unwrap(mapOrder(w, this.instruments))), nextCursor: r.next_cursor };
    });
  }
  /** GET /orders/order-fills for one order, as domain fills with fees. */
  async orderFills(orderId: VenueOrderId): Promise<FillWithFee[]> {
    const r = await this.#get('/orders/order-fills', { oid: orderId, account_id: this.#o.accountId }, dec.orderFills);
    return r.fills.map((w) => unwrap(mapFill(w, this.instruments)));
  }
  /** POST /orders/initial-margin-requirement for a would-be order (a read: safe to repeat). */
  initialMarginRequirement(intent: PlaceOrder): Promise<W.WireInitialMarginResponse> {
    const bodyText = encodeBody(placeBody(intent, this.instruments, this.#o.accountId));
    return this.#core.call({ method: 'POST', path: '/orders/initial-margin-requirement', bodyText, auth: true, safe: true, decode: dec.initialMargin });
  }

  // ------------------------------------------------------------------ helpers

  #get<T, Q extends QueryOf<Q>>(path: string, query: Q | undefined, decode: Decode<T>, auth = true): Promise<T> {
    // Wire queries are interfaces (no index signature); QueryOf has checked every member already.
    return this.#core.call({ method: 'GET', path, ...(query ? { query: query as Query } : {}), auth, safe: true, decode });
  }

  #post<T>(path: string, body: object, safe: boolean, decode: Decode<T>): Promise<T> {
    return this.#core.call({ method: 'POST', path, bodyText: encodeBody(body), auth: true, safe, decode });
  }
}
