import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LiveClock, type Clock } from '../core/clock.ts';

/** The names of the streams a bot holds open, as metric label values. */
export type StreamName = 'orders' | 'market-data' | (string & {});

/** The PnL components the engine reports; `total` is their sum as the engine computes it. */
export const PNL_COMPONENTS = ['spread_capture', 'inventory', 'fees', 'funding', 'rewards', 'total'] as const;
/** One PnL component label value. */
export type PnlComponent = (typeof PNL_COMPONENTS)[number];

/** Order operations timed from request to venue answer. */
export type OrderOp = 'place' | 'replace' | 'cancel' | 'cancel_all';

/** Latency buckets (seconds) for the in-process tick-to-intent path: 10 µs .. 250 ms. */
export const TICK_TO_INTENT_BUCKETS_S = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];
/** Latency buckets (seconds) for a network round trip to the venue: 0.5 ms .. 10 s. */
export const ROUND_TRIP_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Markout buckets (bps of the mid, positive = the mid moved our way): ±0.25 .. ±50 bps around 0. */
export const MARKOUT_BUCKETS_BPS = [-50, -20, -10, -5, -2, -1, -0.5, -0.25, 0, 0.25, 0.5, 1, 2, 5, 10, 20, 50];

/** Metric name prefix: every bot metric starts with it. */
export const METRIC_PREFIX = 'mmbot_';

/**
 * The bot's metrics with narrow update functions taking plain values (no engine or client types),
 * so any adapter (daemon, backtest, test) can feed them. One instance per Registry.
 */
export interface BotMetrics {
  readonly registry: Registry;
  /** Connection up/down for one stream; a down → up transition after the first connect counts a reconnect. */
  connection(stream: StreamName, connected: boolean): void;
  /** Counts `n` inbound frames on a stream. */
  frames(stream: StreamName, n?: number): void;
  /** Counts one frame that failed to decode on a stream. */
  decodeError(stream: StreamName): void;
  /** Records a market-data update for `symbol` received at `tsRecvMs` (epoch ms) for the staleness gauge. */
  marketData(symbol: string, tsRecvMs: number): void;
  /** Observes one tick-to-intent latency sample in seconds. */
  tickToIntent(seconds: number): void;
  /** Observes one order round-trip (request → venue answer) in seconds. */
  orderRoundTrip(op: OrderOp, seconds: number): void;
  /** Counts one intent sent, by kind (place, replace, cancel, cancel_all). */
  intent(kind: string, symbol: string): void;
  /** Counts one reject, by reason and source (`venue`, `risk` or `gateway`). */
  reject(reason: string, source: 'venue' | 'risk' | 'gateway'): void;
  /**
   * Sets one rate budget's remaining tokens, learned burst (requests) and learned sustained rate
   * (requests/s, AIMD from the venue's 429s), from the engine snapshot.
   */
  rateLimiterBudget(budget: string, remaining: number, capacity: number, ratePerSec?: number): void;
  /** Counts `n` requests delayed or dropped by our rate limiter. */
  throttled(n?: number): void;
  /** Sets the execution adapter's queue: requests waiting, awaiting replies, and whether it slowed down after 429/503. */
  execution(queued: number, inFlight: number, slowedDown: boolean): void;
  /** Counts one of our fills by symbol and liquidity (maker/taker). */
  fill(symbol: string, liquidity: 'maker' | 'taker', qtyContracts: number): void;
  /** Observes one fill's markout at a horizon label (`1s`, `10s`, `60s`), bps, positive = good for us. */
  fillMarkout(symbol: string, horizon: string, bps: number): void;
  /** Sets the rolling mean of the recent markouts of a symbol at a horizon (bps). */
  fillMarkoutRecent(symbol: string, horizon: string, bps: number): void;
  /** Sets the count of acknowledged resting orders (the venue holds them) for a symbol and side. */
  openOrders(symbol: string, side: 'buy' | 'sell', count: number): void;
  /** Sets the count of our orders not (yet) resting: `queued` (not sent), `in_flight` (sent, no ack), `unknown` (outcome being resolved). */
  pendingOrders(symbol: string, state: 'queued' | 'in_flight' | 'unknown', count: number): void;
  /** Counts one planned session rollover (new connection with a fresh token replaced the old one) on a stream. */
  sessionRollover(stream: StreamName): void;
  /** Sets the signed position (contracts) and absolute notional (USD) of a symbol. */
  position(symbol: string, qtyContracts: number, notionalUsd: number): void;
  /** Sets one PnL component of a symbol in USD. */
  pnl(symbol: string, component: PnlComponent, usd: number): void;
  /** Sets the venue's estimated funding rate for a symbol, as a fraction (0.0001 = 1 bp). */
  fundingRate(symbol: string, ratio: number): void;
  /** Sets a symbol's position cap (contracts, the risk limit `max_position`): alerts compare |position| with it. */
  positionLimit(symbol: string, maxContracts: number): void;
  /** Counts one disagreement of the periodic position check (our position vs the venue's) for a symbol. */
  positionMismatch(symbol: string): void;
  /** Counts one fill on the order stream that was not ours (`unknown-order`, `other-account`): not booked. */
  unknownFill(kind: 'unknown-order' | 'other-account'): void;
  /**
   * Sets whether a symbol should have working orders now (1: ready, trading state ACTIVE, the strategy
   * wants quotes after the risk gate; 0 otherwise): `MmbotNotQuoting` fires when it is 1 with none open.
   */
  quoteExpected(symbol: string, expected: boolean): void;
  /** Seconds the symbol should have quoted (ACTIVE, two-sided market) with none of our orders at the venue; 0 otherwise. */
  noQuotes(symbol: string, seconds: number): void;
  /** Counts one throttling answer from the venue (`RATE_LIMITED` = 429, `VENUE_UNAVAILABLE` = 503...) on any request. */
  venueBackoff(code: string): void;
  /** Sets the orders (places + replaces) counted in a budget window (`minute`: last 60 s, `day`: UTC day) and its budget (0 = none). */
  orderBudget(window: 'minute' | 'day', counted: number, limit: number): void;
  /**
   * Sets whether a symbol's market data is suspect now (`kind`: why, e.g. `crossed-book`; null =
   * sane): its quotes are pulled while it is.
   */
  marketDataSuspect(symbol: string, kind: string | null): void;
  /** Counts one episode of suspect market data on a symbol, by kind (`bad-price`, `crossed-book`, `mid-jump`). */
  marketDataSuspectEpisode(symbol: string, kind: string): void;
  /** Sets the kill-switch state (engaged = trading halted). */
  killSwitch(engaged: boolean): void;
  /** Counts one kill-switch trip by reason. */
  killSwitchTrip(reason: string): void;
  /** Sets readiness (1 ready, 0 not), mirrors /readyz. */
  ready(isReady: boolean): void;
}

/** Options of `createBotMetrics`. */
export interface BotMetricsOptions {
  /** Clock for the staleness gauge (defaults to the wall clock). */
  readonly clock?: Clock;
}

/**
 * Registers the bot's metrics on `registry` (never the global default) and returns the update
 * functions. Calling it twice on one registry throws (prom-client refuses duplicate names).
 */
export function createBotMetrics(registry: Registry, options: BotMetricsOptions = {}): BotMetrics {
  const clock = options.clock ?? new LiveClock();
  const registers = [registry];
  const p = METRIC_PREFIX;

  const connectionUp = new Gauge({ name: `${p}connection_up`, help: 'Venue stream connected (1) or not (0)', labelNames: ['stream'], registers });
  const reconnects = new Counter({ name: `${p}connection_reconnects_total`, help: 'Reconnections per stream after the first connect', labelNames: ['stream'], registers });
  const framesTotal = new Counter({ name: `${p}ws_frames_total`, help: 'Inbound frames per stream', labelNames: ['stream'], registers });
  const decodeErrors = new Counter({ name: `${p}ws_decode_errors_total`, help: 'Inbound frames that failed to decode, per stream', labelNames: ['stream'], registers });
  const lastMarketDataMs = new Map<string, number>();
  new Gauge({
    name: `${p}market_data_staleness_seconds`,
    help: 'Seconds since the last market-data update per symbol',
    labelNames: ['symbol'],
    registers,
    collect() {
      const now = clock.nowMs();
      for (const [symbol, ts] of lastMarketDataMs) this.set({ symbol }, Math.max(0, (now - ts) / 1000));
    },
  });
  const tickToIntent = new Histogram({ name: `${p}tick_to_intent_latency_seconds`, help: 'Time from a market event received to the intents it caused', buckets: TICK_TO_INTENT_BUCKETS_S, registers });
  const roundTrip = new Histogram({ name: `${p}order_round_trip_latency_seconds`, help: 'Time from an order request to the venue answer', labelNames: ['op'], buckets: ROUND_TRIP_BUCKETS_S, registers });
  const intents = new Counter({ name: `${p}intents_total`, help: 'Order intents sent, by kind', labelNames: ['kind', 'symbol'], registers });
  const rejects = new Counter({ name: `${p}rejects_total`, help: 'Rejected intents, by reason and source (venue or risk)', labelNames: ['reason', 'source'], registers });
  const budget = new Gauge({ name: `${p}rate_limiter_budget_requests`, help: 'Requests each rate budget may still send now', labelNames: ['budget'], registers });
  const capacity = new Gauge({ name: `${p}rate_limiter_capacity_requests`, help: 'Burst capacity of each rate budget', labelNames: ['budget'], registers });
  const learnedRate = new Gauge({ name: `${p}rate_limiter_rate_per_second`, help: 'Learned sustained rate of each rate budget (AIMD from the venue 429s), requests per second', labelNames: ['budget'], registers });
  const throttled = new Counter({ name: `${p}rate_limiter_throttled_total`, help: 'Requests delayed or dropped by our rate limiter', registers });
  const queued = new Gauge({ name: `${p}execution_queued_requests`, help: 'Requests waiting in the execution adapter', registers });
  const inFlight = new Gauge({ name: `${p}execution_in_flight_requests`, help: 'Requests sent and awaiting the venue answer', registers });
  const slowed = new Gauge({ name: `${p}execution_slowed_down`, help: 'Execution adapter slowed down after a throttling answer (1) or not (0)', registers });
  const fills = new Counter({ name: `${p}fills_total`, help: 'Our fills by symbol and liquidity', labelNames: ['symbol', 'liquidity'], registers });
  const filledQty = new Counter({ name: `${p}filled_contracts_total`, help: 'Contracts filled by symbol and liquidity', labelNames: ['symbol', 'liquidity'], registers });
  const markout = new Histogram({
    name: `${p}fill_markout_bps`,
    help: 'Mid move after each of our fills at a horizon, bps of the mid at the fill, signed so that positive is good for us',
    labelNames: ['symbol', 'horizon'],
    buckets: MARKOUT_BUCKETS_BPS,
    registers,
  });
  const markoutRecent = new Gauge({ name: `${p}fill_markout_recent_mean_bps`, help: 'Mean markout of the last 50 fills per symbol and horizon (bps, positive = good)', labelNames: ['symbol', 'horizon'], registers });
  const openOrders = new Gauge({ name: `${p}open_orders`, help: 'Acknowledged resting orders per symbol and side', labelNames: ['symbol', 'side'], registers });
  const pendingOrders = new Gauge({ name: `${p}orders_pending`, help: 'Our orders not resting yet: queued (unsent), in_flight (no ack) or unknown (being resolved)', labelNames: ['symbol', 'state'], registers });
  const rollovers = new Counter({ name: `${p}session_rollovers_total`, help: 'Planned make-before-break session rollovers (fresh token, new connection) per stream', labelNames: ['stream'], registers });
  const position = new Gauge({ name: `${p}position_contracts`, help: 'Signed position per symbol (contracts, negative = short)', labelNames: ['symbol'], registers });
  const notional = new Gauge({ name: `${p}notional_usd`, help: 'Absolute position notional per symbol', labelNames: ['symbol'], registers });
  const pnl = new Gauge({ name: `${p}pnl_usd`, help: 'PnL per symbol by component', labelNames: ['symbol', 'component'], registers });
  const funding = new Gauge({ name: `${p}funding_rate_estimated_ratio`, help: 'Venue estimated funding rate (positive: longs pay)', labelNames: ['symbol'], registers });
  const positionLimit = new Gauge({ name: `${p}position_limit_contracts`, help: 'Position cap per symbol (risk max_position, contracts)', labelNames: ['symbol'], registers });
  const mismatches = new Counter({ name: `${p}position_mismatches_total`, help: 'Periodic position checks that found our position different from the venue\'s, per symbol', labelNames: ['symbol'], registers });
  const unknownFills = new Counter({ name: `${p}unknown_fills_total`, help: 'Fills on the order stream for an order we never placed (unknown-order) or another account (other-account): not booked', labelNames: ['kind'], registers });
  // Both series exist from the start, so increase() sees the first one.
  unknownFills.inc({ kind: 'unknown-order' }, 0);
  unknownFills.inc({ kind: 'other-account' }, 0);
  const quoteExpected = new Gauge({ name: `${p}quote_expected`, help: 'Symbol should have working orders now (1: ready, ACTIVE, the strategy wants quotes) or not (0)', labelNames: ['symbol'], registers });
  const noQuotes = new Gauge({
    name: `${p}no_quotes_seconds`,
    help: 'Seconds the symbol should have quoted (running, ACTIVE, two-sided market, strategy not isolated) with none of our orders resting at the venue, whatever the strategy wants; 0 otherwise',
    labelNames: ['symbol'],
    registers,
  });
  const backoffs = new Counter({ name: `${p}venue_backoffs_total`, help: 'Throttling answers from the venue (RATE_LIMITED = 429, VENUE_UNAVAILABLE = 503, GATEWAY_TIMEOUT = 504), any request', labelNames: ['code'], registers });
  backoffs.inc({ code: 'RATE_LIMITED' }, 0); // the 429 series exists from the start: increase() sees the first one
  const ordersCounted = new Gauge({ name: `${p}orders_counted`, help: 'Orders (places + replaces) sent in the budget window: minute = last 60 s, day = UTC day', labelNames: ['window'], registers });
  const orderBudget = new Gauge({ name: `${p}order_budget_limit`, help: 'Order-count budget of the window (risk max_orders_per_minute / _per_day; 0 = none)', labelNames: ['window'], registers });
  const mdSuspect = new Gauge({ name: `${p}md_suspect`, help: 'Market data of the symbol suspect now (1: non-positive price, persisting crossed book or mid far from the mark; quotes pulled) or sane (0)', labelNames: ['symbol'], registers });
  const mdEpisodes = new Counter({ name: `${p}md_suspect_episodes_total`, help: 'Episodes of suspect market data per symbol and kind (bad-price, crossed-book, mid-jump)', labelNames: ['symbol', 'kind'], registers });
  const kill = new Gauge({ name: `${p}kill_switch_engaged`, help: 'Kill switch engaged (1) or not (0)', registers });
  const trips = new Counter({ name: `${p}kill_switch_trips_total`, help: 'Kill-switch trips by reason', labelNames: ['reason'], registers });
  const readyGauge = new Gauge({ name: `${p}ready`, help: 'Bot ready (1) as /readyz reports it', registers });
  kill.set(0);
  readyGauge.set(0);

  const everConnected = new Set<string>();
  const upNow = new Map<string, boolean>();

  return {
    registry,
    connection(stream, connected) {
      const was = upNow.get(stream) ?? false;
      if (connected && !was) {
        if (everConnected.has(stream)) reconnects.inc({ stream });
        else reconnects.inc({ stream }, 0); // export the series at 0 from the first connect
        everConnected.add(stream);
      }
      upNow.set(stream, connected);
      connectionUp.set({ stream }, connected ? 1 : 0);
    },
    frames: (stream, n = 1) => framesTotal.inc({ stream }, n),
    decodeError: (stream) => decodeErrors.inc({ stream }),
    marketData: (symbol, tsRecvMs) => void lastMarketDataMs.set(symbol, tsRecvMs),
    tickToIntent: (seconds) => tickToIntent.observe(Math.max(0, seconds)),
    orderRoundTrip: (op, seconds) => roundTrip.observe({ op }, Math.max(0, seconds)),
    intent: (kind, symbol) => intents.inc({ kind, symbol }),
    reject: (reason, source) => rejects.inc({ reason: reason === '' ? 'unknown' : reason, source }),
    rateLimiterBudget(name, remaining, cap, ratePerSec) {
      budget.set({ budget: name }, remaining);
      capacity.set({ budget: name }, cap);
      if (ratePerSec !== undefined) learnedRate.set({ budget: name }, ratePerSec);
    },
    throttled: (n = 1) => throttled.inc(n),
    execution(q, f, slow) {
      queued.set(q);
      inFlight.set(f);
      slowed.set(slow ? 1 : 0);
    },
    fill(symbol, liquidity, qty) {
      fills.inc({ symbol, liquidity });
      filledQty.inc({ symbol, liquidity }, Math.abs(qty));
    },
    fillMarkout: (symbol, horizon, bps) => markout.observe({ symbol, horizon }, bps),
    fillMarkoutRecent: (symbol, horizon, bps) => markoutRecent.set({ symbol, horizon }, bps),
    openOrders: (symbol, side, count) => openOrders.set({ symbol, side }, count),
    pendingOrders: (symbol, state, count) => pendingOrders.set({ symbol, state }, count),
    sessionRollover: (stream) => rollovers.inc({ stream }),
    position(symbol, qty, notionalUsd) {
      position.set({ symbol }, qty);
      notional.set({ symbol }, Math.abs(notionalUsd));
    },
    pnl: (symbol, component, usd) => pnl.set({ symbol, component }, usd),
    fundingRate: (symbol, ratio) => funding.set({ symbol }, ratio),
    positionLimit(symbol, maxContracts) {
      positionLimit.set({ symbol }, maxContracts);
      mismatches.inc({ symbol }, 0); // export the symbol's series at 0, so increase() sees the first mismatch
    },
    positionMismatch: (symbol) => mismatches.inc({ symbol }),
    unknownFill: (kind) => unknownFills.inc({ kind }),
    quoteExpected: (symbol, expected) => quoteExpected.set({ symbol }, expected ? 1 : 0),
    noQuotes: (symbol, seconds) => noQuotes.set({ symbol }, seconds),
    venueBackoff: (code) => backoffs.inc({ code }),
    orderBudget(window, counted, limit) {
      ordersCounted.set({ window }, counted);
      orderBudget.set({ window }, limit);
    },
    marketDataSuspect: (symbol, kind) => mdSuspect.set({ symbol }, kind === null ? 0 : 1),
    marketDataSuspectEpisode: (symbol, kind) => mdEpisodes.inc({ symbol, kind }),
    killSwitch: (engaged) => kill.set(engaged ? 1 : 0),
    killSwitchTrip: (reason) => trips.inc({ reason }),
    ready: (isReady) => readyGauge.set(isReady ? 1 : 0),
  };
}
