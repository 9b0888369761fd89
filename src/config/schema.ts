import { z } from 'zod';
import { backtestSectionSchema } from '../domain/backtest-section.ts';
import { overlayConfigSchema } from '../strategy/overlays/config.ts';

/**
 * The bot's config file, as a strict zod schema. Keys are snake_case as written in YAML; every
 * section but `venue` and `bot` is optional. Unknown keys are errors (a typo must not silently fall
 * back to a default). Strategy `params` are checked later against the
 * strategy's own schema (see strategy-params.ts), so here they are an open record.
 */

const port = z.number().int().min(0).max(65535);
const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();
const durationMs = z.number().int().nonnegative();
const host = z.string().min(1);

const simSchema = z
  .strictObject({
    host: host.default('127.0.0.1').describe('Interface the embedded venue listens on (keep it loopback).'),
    port: port.default(0).describe('Port of the embedded venue; 0 = any free port.'),
    seed: nonNegativeInt.optional().describe('Seed of the synthetic market flow (same seed, same market; venue default 1).'),
    clock_speed: z.number().positive().max(1000).optional().describe('Venue clock speed multiplier (venue default 1 = real time).'),
    synthetic_market: z
      .boolean()
      .optional()
      .describe('Run the synthetic traders that move the market and fill our quotes (venue default true; flow only on the configured symbols unless the knobs say otherwise).'),
    config: z.string().min(1).optional().describe('Optional venue YAML (the local venue\'s knobs); relative to this config file.'),
    knobs: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Venue knobs inline (same schema as the venue YAML, checked by the venue), merged over `config`.'),
  })
  .describe('The local venue started in-process on loopback (embedded-sim mode).');

const embeddedVenue = z
  .strictObject({
    mode: z.literal('embedded-sim'),
    sim: simSchema.prefault({}),
    account_id: z.string().min(1).optional().describe('Account to trade; defaults to the venue\'s default account.'),
  })
  .describe('Start the local venue in-process and trade against it over real sockets.');

const remoteVenue = z
  .strictObject({
    mode: z.literal('remote'),
    base_url: z.url({ protocol: /^https?$/ }).describe('REST base URL, e.g. https://gateway.sandbox.example (no /api suffix).'),
    ws_url: z.url({ protocol: /^wss?$/ }).optional().describe('WebSocket base URL; defaults to base_url with the ws/wss scheme.'),
    api_key: z.string().min(1).describe('API key; use ${ENV_VAR}.'),
    api_secret: z.string().min(1).describe('API secret; use ${ENV_VAR}, never a literal.'),
    account_id: z.string().min(1).optional().describe('Account to trade; defaults to the key\'s only account.'),
    token_ttl_s: positiveInt.max(86_400).default(3600).describe('Session token lifetime requested at login (seconds).'),
    request_timeout_ms: positiveInt.default(5000).describe('Deadline of one REST or WS request.'),
    max_response_bytes: positiveInt
      .default(16 * 1024 * 1024)
      .describe('Largest REST response body read (bytes, default 16 MiB); a larger one fails that request with RESPONSE_TOO_LARGE instead of filling memory.'),
  })
  .describe('Trade against a venue over the network (the real sandbox, or a local venue started elsewhere).');

const strategyEntry = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_.:-]+$/, 'expected letters, digits, _ . : -').optional().describe('Unique id (defaults to "<strategy>:<symbol>").'),
  symbol: z.string().min(1).optional().describe('Instrument symbol, e.g. EURUSD-PERP (or `symbols` for a multi-symbol strategy; exactly one of the two).'),
  symbols: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('Every symbol a multi-symbol strategy quotes or hedges on, primary first, e.g. [XAU-PERP, XAU-2026-DEC]; each symbol belongs to at most one strategy.'),
  strategy: z.string().min(1).describe('A built-in strategy name (e.g. fixed-spread) or a path to a strategy module, relative to this config file.'),
  params: z.record(z.string(), z.unknown()).default({}).describe('Parameters, checked against the strategy\'s own schema.'),
  overlays: z
    .array(overlayConfigSchema)
    .default([])
    .describe('Quote overlays applied in order to the strategy\'s quotes on its primary symbol: funding-carry, reward-aware, volatility, toxicity (see `mmbot strategies`).'),
});

const botSchema = z.strictObject({
  strategies: z.array(strategyEntry).min(1).describe('One entry per strategy to run, each on its symbol (or symbols).'),
  unknown_orders: z
    .enum(['cancel', 'adopt', 'ignore'])
    .default('cancel')
    .describe('What reconciliation does with open orders on the account the bot did not place: cancel them, adopt and manage them, or leave them alone.'),
  tick_interval_ms: positiveInt.optional().describe('Clock tick re-evaluating strategies when the market is quiet (engine default 250).'),
  index_poll_ms: durationMs.default(5000).describe('Poll the venue\'s index (underlying) price of each traded symbol this often (ms; strategies read ctx.indexTicks, recordings keep it); 0 = never.'),
  status_interval_ms: durationMs.default(5000).describe('One-line status print interval; 0 = off.'),
  funding_poll_ms: durationMs
    .default(60_000)
    .describe('How often the daemon reads the venue\'s funding transactions on the account to book funding in PnL (metrics, status line, kill switch); 0 = off.'),
  fee_rates: z
    .strictObject({
      maker: z.number().min(-0.01).max(0.01).describe('Fraction of notional, e.g. 0.0002 = 2 bps; negative = rebate.'),
      taker: z.number().min(-0.01).max(0.01),
    })
    .optional()
    .describe('Fee rates for estimating fees until the venue\'s fills arrive (engine default: the venue\'s tier-1 schedule).'),
});

/*
 * risk, execution and order_manager mirror the engine's RiskConfig, ExecutionConfig and
 * OrderManagerConfig in snake_case. Every field is optional: an absent field takes the engine's
 * default (src/risk/config.ts, src/execution/config.ts, src/engine/config.ts), so the defaults live
 * in one place.
 */

const symbolRisk = z.strictObject({
  max_position: nonNegativeInt.optional().describe('Max |position| in contracts, counting working and in-flight orders (engine default 100).'),
  max_order_qty: positiveInt.optional().describe('Max contracts in one order (engine default 50).'),
  max_order_notional_usd: z.number().positive().optional().describe('Max USD notional of one order (engine default 250000).'),
  max_open_orders: positiveInt.max(100).optional().describe('Max working orders on the symbol, both sides (engine default 20; the venue allows 100).'),
  band_margin_ticks: nonNegativeInt.optional().describe('Extra inward margin from the venue\'s price band, in ticks (engine default 0).'),
  max_quote_deviation_bps: z
    .number()
    .nonnegative()
    .optional()
    .describe('Fat-finger guard: no quote further than this many bps from the reference price (the venue\'s mark, else its index, else the last sane mid); 0 = off (engine default 500).'),
});

const marketData = z.strictObject({
  crossed_book_ms: durationMs
    .optional()
    .describe('A crossed or locked book (best bid >= best ask) that lasts this long makes the symbol\'s data suspect: quotes pulled, state HALTED with the reason; 0 = off (engine default 1000).'),
  max_mid_deviation_bps: z
    .number()
    .nonnegative()
    .optional()
    .describe('A mid further than this many bps from the venue\'s mark (else index, else the last sane mid) makes the data suspect at once; 0 = off (engine default 300).'),
});

const killSwitch = z.strictObject({
  max_drawdown_usd: z.number().nonnegative().optional().describe('Trip when PnL falls this far below its peak; 0 = off (engine default 1000).'),
  max_daily_loss_usd: z.number().nonnegative().optional().describe('Trip when the UTC day\'s PnL is below minus this; 0 = off (engine default 1000).'),
  reject_storm_count: nonNegativeInt.optional().describe('Trip after this many rejects within reject_storm_window_ms; 0 = off (engine default 20).'),
  reject_storm_window_ms: positiveInt.optional(),
  stale_market_data_ms: durationMs.optional().describe('Trip when a quoted symbol has no market data this long; 0 = off (engine default 30000).'),
  lost_connection_ms: durationMs.optional().describe('Trip when a venue stream is down this long; 0 = off (engine default 10000).'),
  auto_clear: z.boolean().optional().describe('Stale data and lost connection un-trip by themselves when they clear (engine default true).'),
  triggers: z
    .partialRecord(
      z.enum(['drawdown', 'daily_loss', 'reject_storm', 'stale_market_data', 'lost_connection', 'order_budget']),
      z.strictObject({
        action: z.enum(['stop', 'pause']).optional().describe('pause: pull quotes, keep the process and the position, resume on `mmbot ctl resume`; stop: pull quotes and stop the daemon (exit 3). Default pause.'),
        auto_resume: z.boolean().optional().describe('A pause lifts by itself once the condition has cleared (default: true for stale_market_data and lost_connection (auto_clear) and order_budget, false otherwise).'),
      }),
    )
    .optional()
    .describe('What each trigger does when it trips.'),
});

const riskSchema = symbolRisk.extend({
  max_orders_per_minute: nonNegativeInt
    .optional()
    .describe('Order-count budget: at most this many places + replaces in any 60 s; the one over is not sent and the kill switch trips (order_budget); 0 = off (engine default).'),
  max_orders_per_day: nonNegativeInt.optional().describe('At most this many places + replaces per UTC day (as max_orders_per_minute); 0 = off (engine default).'),
  symbols: z.record(z.string(), symbolRisk).optional().describe('Per-symbol overrides of the limits above, field by field.'),
  kill_switch: killSwitch.optional(),
  market_data: marketData
    .optional()
    .describe('Market-data sanity per symbol: a non-positive best price, a crossed book that persists or a mid far from the mark pulls the symbol\'s quotes (one WARN per episode) until the data is sane again.'),
});

/** Endpoint names of the execution adapter (test/config checks they match src/execution). */
export const EXECUTION_ENDPOINTS = ['cancel', 'cancel-all', 'replace', 'place', 'status', 'open-orders', 'fills', 'positions', 'funding', 'rewards', 'prices'] as const;

const budget = z.strictObject({
  name: z.string().min(1),
  capacity: positiveInt.describe('Bucket size (requests).'),
  refill_per_sec: z.number().positive().describe('Refill rate (requests per second).'),
  costs: z.partialRecord(z.enum(EXECUTION_ENDPOINTS), z.number().nonnegative()).describe('Tokens each endpoint takes; unlisted endpoints do not use this bucket.'),
});

const executionSchema = z.strictObject({
  budgets: z
    .array(budget)
    .min(1)
    .optional()
    .describe('Token buckets replacing the default (one shared bucket, 20 burst, 8/s: under the venue\'s 100 burst / 10 per s).'),
  max_queue: positiveInt.optional().describe('Bound of the pending-request queue (engine default 256).'),
  max_in_flight: positiveInt.optional().describe('Max requests awaiting a reply (engine default 32).'),
  read_max_wait_ms: durationMs
    .optional()
    .describe('Reads (status, open orders, fills, positions, funding, rewards, prices) wait behind order entry; one waiting this long goes ahead of places (engine default 10000).'),
  adaptive: z
    .strictObject({
      decrease_factor: z.number().gt(0).lt(1).optional().describe('On a 429 the learned rate and burst are multiplied by this (engine default 0.7).'),
      increase_per_s: z.number().positive().optional().describe('Requests/s regained per second of sending without a 429 (engine default 0.5).'),
      burst_increase_ms: positiveInt.optional().describe('One burst token regained per this long without a 429 (engine default 2000).'),
      min_rate_per_s: z.number().positive().optional().describe('Floor of the learned rate (engine default 0.5; raised so a request accrues within max_idle_ms).'),
      max_idle_ms: positiveInt.optional().describe('Queued work never waits longer than this; a longer Retry-After is cut to it (engine default 2000).'),
      unavailable_pause_ms: durationMs.optional().describe('Pause after a 503/504 without Retry-After (engine default 500).'),
      probe_after_ms: durationMs.optional().describe('After a 429, regain only up to 90 % of the rate and one token under the burst that drew it until this long without a 429 (engine default 300000).'),
    })
    .optional()
    .describe('AIMD learning of the venue\'s real limit from 429s (Retry-After honoured up to max_idle_ms).'),
});

const orderManagerSchema = z.strictObject({
  price_tolerance_ticks: nonNegativeInt.optional().describe('Keep an order whose price is this close to the desired one (engine default 0).'),
  size_tolerance: z.number().min(0).max(1).optional().describe('Keep an order whose size is within this fraction of the desired one (engine default 0.1).'),
  min_order_lifetime_ms: durationMs.optional().describe('Do not requote an order younger than this (engine default 250).'),
  use_replace: z.boolean().optional().describe('Move orders with replace-order rather than cancel + place (engine default true).'),
  post_only: z.boolean().optional().describe('Send quotes post-only (engine default true).'),
  reprice: z.enum(['rej', 'bo', 'tbl']).optional().describe('What the venue does with a post-only order that would cross (engine default bo).'),
  tif: z.enum(['GTC', 'IOC', 'DAY']).optional(),
  self_trade: z.enum(['CancelIncoming', 'CancelResting', 'CancelBoth']).optional(),
  tag: z.string().regex(/^[A-Za-z0-9]{1,10}$/, 'expected 1-10 letters or digits').nullable().optional().describe('Order tag (engine default mmbot).'),
  status_query_delay_ms: durationMs.optional().describe('Ask the venue for an order\'s status this long after its outcome became unknown.'),
  cancel_retry_ms: durationMs.optional().describe('Retry a cancel answered 409 at the ack, or after this at the latest.'),
  fill_poll_ms: durationMs.optional().describe('Poll REST fills for fees and missed fills this often; 0 = never.'),
  fill_recovery_lookback_ms: durationMs.optional(),
  position_check_ms: durationMs
    .optional()
    .describe('Compare positions with the venue this often and correct a disagreement (engine default 30000); 0 = never.'),
  stop_timeout_ms: positiveInt.default(5000).describe('On shutdown, how long to wait for cancel confirmations.'),
});

const controlSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe('Serve the operator console: the web page at / and the control API under /api/v1/ (same server as /metrics).'),
    token: z
      .string()
      .default('')
      .describe('Bearer token that actions (pause, set, flatten, cancel-all, reload...) need; use ${MMBOT_CONTROL_TOKEN:-}, never a literal. Empty = acting disabled (every action answers 401).'),
    reads_require_token: z.boolean().default(false).describe('Reads (state, events, the page\'s data, and /metrics) need the token too; default open on loopback, always required when monitoring.host is not a loopback address.'),
    history_ms: z.number().int().min(60_000).max(86_400_000).default(3_600_000).describe('How far back the page\'s position/PnL chart goes (ms).'),
    max_stream_clients: z.number().int().min(1).max(1000).default(32).describe('Open live-page event streams (/api/v1/events) at most; more are answered 503. With a token configured, streams without it get a quarter of them (the rest is kept for the token). A stream that stops reading is dropped once 1 MiB is unsent.'),
  })
  .describe('The operator console: `mmbot status`, `mmbot ctl` and the live page.');

const monitoringSchema = z.strictObject({
  enabled: z.boolean().default(true),
  host: host.default('127.0.0.1').describe('Interface of the /metrics, /health, control API and console server.'),
  port: port.default(9464).describe('Port of the /metrics and /health server (0 = any).'),
  allowed_hosts: z
    .array(host)
    .default([])
    .describe('Host names the server answers besides loopback names, monitoring.host and IP literals (e.g. the DNS name Prometheus scrapes); other Host headers get 421 (DNS-rebinding guard).'),
  control: controlSchema.prefault({}),
});

const loggingSchema = z.strictObject({
  level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  pretty: z.union([z.boolean(), z.literal('auto')]).default('auto').describe('Human-readable logs; auto = when stdout is a TTY.'),
});

const recordingSchema = z.strictObject({
  path: z.string().min(1).describe('Where to write the recording (gzip JSONL); relative to this config file.'),
  funding_poll_ms: z.number().int().min(0).default(30_000).describe('Poll REST funding settlements into the recording this often (ms); 0 = never.'),
});

const referenceFeed = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]+$/, 'expected letters, digits, _ . : -')
    .refine((n) => n !== 'index', '"index" is reserved for the venue\'s index price')
    .describe('The feed\'s name: strategies read it as ctx.references.get(name).'),
  symbol: z.string().min(1).describe('Our symbol the price is for (one a strategy trades); prices are converted into its ticks.'),
  source: z
    .union([
      z.strictObject({
        file: z.string().min(1).describe('A JSON-lines file of {"ts": epoch ms, "price": "decimal"}, followed as it grows; relative to this config file.'),
        poll_ms: positiveInt.default(250).describe('How often to look for new lines (ms).'),
      }),
      z.strictObject({
        ws: z.url({ protocol: /^wss?$/ }).describe('A WebSocket sending {"ts": epoch ms, "price": "decimal"} messages (one or more JSON lines each).'),
        subscribe: z.string().optional().describe('Text sent after each connect (e.g. a subscription request).'),
        reconnect_ms: positiveInt.default(1000).describe('Wait this long before reconnecting a dropped socket (ms).'),
      }),
    ])
    .describe('Where the prices come from: a file (followed) or a WebSocket.'),
});

const rewardsSchema = z.strictObject({
  enabled: z.boolean().default(true).describe('Track the market-maker reward program.'),
  poll_interval_ms: positiveInt.default(60_000).describe('How often to read reward accruals from the venue.'),
});

/** The whole config file. */
export const botConfigSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Path of the JSON Schema, for editors.'),
    venue: z.discriminatedUnion('mode', [embeddedVenue, remoteVenue]),
    bot: botSchema,
    risk: riskSchema.prefault({}),
    execution: executionSchema.prefault({}),
    order_manager: orderManagerSchema.prefault({}),
    monitoring: monitoringSchema.prefault({}),
    logging: loggingSchema.prefault({}),
    recording: recordingSchema.optional().describe('Record the normalized event stream for backtests; absent = off.'),
    rewards: rewardsSchema.prefault({}),
    reference_feeds: z
      .array(referenceFeed)
      .default([])
      .describe('External reference prices (another venue, an index) merged into the market stream: strategies read ctx.references, recordings keep them, backtests replay them.'),
    backtest: backtestSectionSchema
      .optional()
      .describe('Backtest settings for `mmbot backtest` / `mmbot sweep` (recordings, queue, latency, fee and funding models); `mmbot run` ignores them.'),
  })
  .describe('mmbot daemon config (mmbot run --config <file>).');

/** The config after schema defaults, before strategy params are checked. */
export type BotConfigParsed = z.output<typeof botConfigSchema>;
/** The venue section, either mode. */
export type VenueConfigSection = BotConfigParsed['venue'];
/** The embedded-sim venue section. */
export type EmbeddedVenueConfig = Extract<VenueConfigSection, { mode: 'embedded-sim' }>;
/** The remote venue section. */
export type RemoteVenueConfig = Extract<VenueConfigSection, { mode: 'remote' }>;
/** One configured strategy, with its id and symbols resolved (`symbol` = `symbols[0]`, the primary). */
export type StrategyEntryConfig = Omit<z.output<typeof strategyEntry>, 'id' | 'params' | 'symbol' | 'symbols'> & {
  readonly id: string;
  readonly symbol: string;
  readonly symbols: readonly string[];
  readonly params: Readonly<Record<string, unknown>>;
};
