import { LiveClock, type Clock } from '../core/clock.ts';
import { Decimal } from '../core/decimal.ts';
import { seededRandomU32 } from '../core/ulid.ts';
import type { InstrumentState } from '../domain/enums.ts';
import { instrumentCatalog, type InstrumentCatalog } from '../domain/instrument.ts';
import type { Account } from './accounts/account.ts';
import { AccountRegistry, type NewAccountOptions, type User } from './accounts/registry.ts';
import { riskSnapshot, type RiskContext, type RiskSnapshot } from './accounts/risk.ts';
import { AuthService, type ApiKeyRecord } from './auth/auth-service.ts';
import { OrderBook } from './book/order-book.ts';
import { defaultCatalog, defaultRawInstruments, INITIAL_PRICES, type RawInstrument } from './catalog/default-catalog.ts';
import { ScaledClock } from './clock/scaled-clock.ts';
import { defaultVenueConfig, type VenueConfig } from './config/venue-config.ts';
import { VenueIds } from './ids.ts';
import { OrderEngine, type Actor, type OrderRef, type Processed, type Reject, type RequestOutcome } from './orders/order-engine.ts';
import { markPrice, newInstrumentMarket, settle, type InstrumentMarket } from './prices.ts';
import type { PlaceSpec, ReplaceSpec, SimOrder, TradeEvent, VenueOrderEvent } from './types.ts';
import { VenueKnobs } from './knobs.ts';

/** Options for building a Venue in-process (startVenue adds the servers). */
export interface VenueInit {
  readonly config?: VenueConfig;
  /** Base clock; the clock-speed knob scales it. Default LiveClock. */
  readonly clock?: Clock;
  /**
   * The clock already runs at venue speed (a virtual clock a driver steps): used as is, not scaled
   * by `clock_speed`, which still shapes the flow (batching) as it would at that speed.
   */
  readonly prescaled?: boolean;
  readonly seed?: number;
}

/** Estimated-funding answer for the `ef` request / REST (sim-market fills this hook). */
export type FundingEstimateProvider = (symbol: string) => Record<string, unknown> | null;

/** The default user's credentials, printed by `mmbot sim`. */
export interface DefaultCredentials {
  readonly api_key: string;
  readonly api_secret: string;
  readonly account_id: string;
}

type Listener<T> = (v: T) => void;

/**
 * The in-process venue: clock, catalog, one book per instrument, instrument state and prices,
 * accounts and ledger, auth, the order engine, knobs and event listeners. Servers (HTTP, WS) and
 * plugins (market data, funding, rewards, synthetic flow) sit on top of this handle.
 */
export class Venue {
  readonly config: VenueConfig;
  /** Venue time (scaled by `clock_speed`). */
  readonly clock: Clock;
  readonly ids: VenueIds;
  readonly catalog: InstrumentCatalog;
  /** Raw catalog records served by `/api/instruments` (wire shape, captured key order). */
  readonly rawInstruments: readonly RawInstrument[];
  readonly markets = new Map<string, InstrumentMarket>();
  readonly books = new Map<string, OrderBook>();
  readonly accounts: AccountRegistry;
  readonly auth: AuthService;
  readonly engine: OrderEngine;
  readonly knobs: VenueKnobs;
  readonly defaultUser: User;
  readonly defaultKey: ApiKeyRecord;
  /** Hook: estimated funding for the `ef` request; null answer = 404 "not available". */
  fundingEstimate: FundingEstimateProvider = () => null;

  readonly #orderListeners = new Map<string, Set<Listener<VenueOrderEvent>>>();
  readonly #allOrderListeners = new Set<(accountId: string, e: VenueOrderEvent) => void>();
  readonly #tradeListeners = new Set<Listener<TradeEvent>>();
  readonly #bookListeners = new Set<Listener<string>>();
  readonly #stateListeners = new Set<(symbol: string, state: InstrumentState) => void>();
  readonly #stopHooks: (() => void)[] = [];
  #internalUser: User | null = null;

  constructor(init: VenueInit = {}) {
    this.config = init.config ?? defaultVenueConfig();
    const base = init.clock ?? new LiveClock();
    this.clock = this.config.clock_speed === 1 || init.prescaled === true ? base : new ScaledClock(base, this.config.clock_speed);
    this.ids = new VenueIds(() => this.clock.nowMs(), seededRandomU32(init.seed ?? this.config.seed));
    const only = this.config.instruments.only;
    this.rawInstruments = defaultRawInstruments().filter((r) => !only || only.includes(r.symbol));
    const list = defaultCatalog().all().filter((i) => !only || only.includes(i.symbol));
    this.catalog = instrumentCatalog(list);
    const now = this.clock.nowMs();
    for (const ins of list) {
      const px = this.config.instruments.prices[ins.symbol] ?? INITIAL_PRICES[ins.symbol] ?? '100';
      const state = this.config.instruments.states[ins.symbol] ?? 'OPEN';
      this.markets.set(ins.symbol, newInstrumentMarket(ins, new Decimal(px), now, state));
      this.books.set(ins.symbol, new OrderBook(ins.symbol));
    }
    this.knobs = new VenueKnobs(this.config);
    const keep = this.config.retention;
    this.accounts = new AccountRegistry(this.ids, () => this.clock.nowNs(), {
      fills: keep.fills_per_account,
      ledger: keep.ledger_per_account,
      liquidations: keep.liquidations_per_account,
    });
    this.auth = new AuthService(this.clock, this.accounts, {
      defaultExpirationSeconds: this.config.tokens.default_expiration_seconds,
      maxExpirationSeconds: this.config.tokens.max_expiration_seconds,
      maxLiveTokensPerKey: this.config.tokens.max_live_per_key,
      logins: { maxFailuresPerWindow: this.config.tokens.login_failures_per_minute, maxAttemptsPerWindow: this.config.tokens.logins_per_minute, windowMs: 60_000 },
    });
    this.engine = new OrderEngine({
      clock: this.clock,
      ids: this.ids,
      accounts: this.accounts,
      markets: this.markets,
      books: this.books,
      ackLatencyMs: () => this.knobs.ackLatencyMs,
      maxOpenOrdersPerSymbol: () => this.knobs.maxOpenOrdersPerSymbol,
      riskContext: () => this.riskContext(),
      takeForcedReject: (s) => this.knobs.takeForcedReject(s),
      emitOrder: (a, build) => this.#emitOrder(a, build),
      listening: (a) => this.#allOrderListeners.size > 0 || this.#orderListeners.has(a),
      tradeListened: () => this.#tradeListeners.size > 0,
      emitTrade: (t) => {
        for (const l of this.#tradeListeners) l(t);
      },
      emitBook: (s) => {
        if (this.#bookListeners.size > 0) for (const l of this.#bookListeners) l(s);
      },
      orderHistoryCap: keep.orders_per_account,
    });
    const du = this.config.default_user;
    this.defaultUser = this.accounts.createUser(
      du.username,
      du.accounts.map((a) => ({ name: a.name, balanceUsd: a.balance_usd, makerFee: a.maker_fee, takerFee: a.taker_fee, isCloseOnly: a.is_close_only })),
    );
    this.defaultKey = this.auth.createKey(this.defaultUser.id, { ...(du.api_key ? { apiKey: du.api_key } : {}), ...(du.api_secret ? { apiSecret: du.api_secret } : {}) });
    this.#armDayEnd();
  }

  /** The default user's API key, secret and primary account. */
  get credentials(): DefaultCredentials {
    return { api_key: this.defaultKey.apiKey, api_secret: this.defaultKey.apiSecret, account_id: this.defaultUser.accountIds[0]! };
  }

  /** Inputs for margin and risk math at the current time. */
  riskContext(): RiskContext {
    return { markets: this.markets, nowMs: this.clock.nowMs(), markStaleMs: this.config.mark_stale_ms };
  }

  /** Creates a user (tests, multi-user setups); returns it with a full-permission API key. */
  createUser(username: string, accounts: readonly NewAccountOptions[]): { user: User; key: ApiKeyRecord } {
    const user = this.accounts.createUser(username, accounts);
    return { user, key: this.auth.createKey(user.id) };
  }

  /**
   * Creates an internal account for synthetic participants (market makers, takers, liquidation):
   * no rate limits, no margin checks, terminal orders not retained.
   */
  createInternalAccount(name: string, balanceUsd = '1000000000'): Account {
    this.#internalUser ??= this.accounts.createUser('synthetic', []);
    return this.accounts.addAccount(this.#internalUser.id, { name, balanceUsd, makerFee: '0', takerFee: '0', internal: true });
  }

  /** Places an order as `actor`, processed at once (no ack latency): for internal flow and benches. */
  placeNow(actor: Actor, spec: PlaceSpec, opts?: { liquidation?: boolean }): SimOrder {
    return this.engine.submit(actor, spec, undefined, true, opts?.liquidation === true);
  }

  /** Places an order through the gateway path (ack latency applies); `done` runs once processed. */
  place(actor: Actor, spec: PlaceSpec, done?: Processed): SimOrder {
    return this.engine.submit(actor, spec, done);
  }

  /** Cancels an order by oid/cid. */
  cancel(actor: Actor, ref: OrderRef, reason = '', text = ''): RequestOutcome {
    return this.engine.cancel(actor, ref, reason, text);
  }

  /** Cancel-replace by oid/cid. */
  replace(actor: Actor, ref: OrderRef, spec: ReplaceSpec, done?: Processed, opts: { immediate?: boolean } = {}): RequestOutcome<SimOrder> {
    return this.engine.replace(actor, ref, spec, done, opts);
  }

  /** Cancels all open orders of an account (optionally one symbol / one WS connection). */
  cancelAll(accountId: string, filter: { symbol?: string; connId?: string } = {}, reason = '', text = ''): number {
    return this.engine.cancelAll(accountId, filter, reason, text);
  }

  /** The order with this oid, if known. */
  order(oid: string): SimOrder | undefined {
    return this.engine.orders.get(oid);
  }

  /** An account's risk snapshot at current marks. */
  risk(accountId: string): RiskSnapshot | undefined {
    const a = this.accounts.account(accountId);
    return a ? riskSnapshot(a, this.riskContext()) : undefined;
  }

  /** The live mark of a symbol. */
  mark(symbol: string): Decimal | undefined {
    const m = this.markets.get(symbol);
    return m ? markPrice(m, this.clock.nowMs(), this.config.mark_stale_ms) : undefined;
  }

  /** Sets (or clears with null) a plugin-provided mark price. */
  setMark(symbol: string, price: Decimal | null): void {
    const m = this.markets.get(symbol);
    if (m) m.markOverride = price;
  }

  /** Records a settlement price (bands reset around it). */
  setSettlement(symbol: string, price: Decimal, atMs = this.clock.nowMs()): void {
    const m = this.markets.get(symbol);
    if (m) settle(m, price, atMs);
  }

  /**
   * Moves an instrument to a new trading state. Entering OPEN from any other state, or leaving a
   * MATCH_AND_CLOSE_AUCTION, runs the single-price auction on the book (docs/venue-rules.md §9).
   */
  setInstrumentState(symbol: string, state: InstrumentState): void {
    const m = this.markets.get(symbol);
    if (!m) throw new RangeError(`unknown symbol ${symbol}`);
    const prev = m.state;
    m.state = state;
    if ((state === 'OPEN' && prev !== 'OPEN') || (prev === 'MATCH_AND_CLOSE_AUCTION' && state !== prev)) this.engine.uncross(symbol);
    for (const l of this.#stateListeners) l(symbol, state);
  }

  /** Ends DAY orders now (DONE_FOR_DAY). */
  endOfDay(): number {
    return this.engine.endOfDay();
  }

  /** Subscribes to one account's order events. */
  onOrderEvent(accountId: string, fn: Listener<VenueOrderEvent>): () => void {
    let set = this.#orderListeners.get(accountId);
    if (!set) this.#orderListeners.set(accountId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.#orderListeners.delete(accountId);
    };
  }

  /** Subscribes to every account's order events (plugins, e.g. reward scoring). */
  onAnyOrderEvent(fn: (accountId: string, e: VenueOrderEvent) => void): () => void {
    this.#allOrderListeners.add(fn);
    return () => this.#allOrderListeners.delete(fn);
  }

  /** Subscribes to trade prints. */
  onTrade(fn: Listener<TradeEvent>): () => void {
    this.#tradeListeners.add(fn);
    return () => this.#tradeListeners.delete(fn);
  }

  /** Subscribes to "this symbol's book changed" notifications (coalesce on your side). */
  onBookChange(fn: Listener<string>): () => void {
    this.#bookListeners.add(fn);
    return () => this.#bookListeners.delete(fn);
  }

  /** Subscribes to instrument state changes. */
  onStateChange(fn: (symbol: string, state: InstrumentState) => void): () => void {
    this.#stateListeners.add(fn);
    return () => this.#stateListeners.delete(fn);
  }

  /** Registers a cleanup run by `stop()` (plugins' timers). */
  onStop(fn: () => void): void {
    this.#stopHooks.push(fn);
  }

  /** Stops timers owned by the venue and its plugins. */
  stop(): void {
    for (const f of this.#stopHooks.splice(0)) f();
  }

  #emitOrder(accountId: string, build: () => VenueOrderEvent): void {
    const set = this.#orderListeners.get(accountId);
    if (!set && this.#allOrderListeners.size === 0) return;
    const ev = build();
    if (set) for (const l of [...set]) l(ev);
    for (const l of this.#allOrderListeners) l(accountId, ev);
  }

  #armDayEnd(): void {
    const [hh, mm] = this.config.day_end_utc.split(':').map(Number) as [number, number];
    const now = this.clock.nowMs();
    const day = 86_400_000;
    const offset = (hh * 60 + mm) * 60_000;
    let next = Math.floor(now / day) * day + offset;
    if (next <= now) next += day;
    const cancel = this.clock.setTimer(next - now, () => {
      this.endOfDay();
      this.#armDayEnd();
    });
    this.#stopHooks.push(cancel);
  }
}

export type { Actor, OrderRef, Reject };
