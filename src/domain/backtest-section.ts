import { z } from 'zod';
import { DEFAULT_REWARD_SCORE_PARAMS } from './reward-score.ts';

/*
 * The `backtest:` section of a bot config file lives here, in domain, because two layers need it:
 * src/config (the daemon's strict schema accepts and validates the section, so `mmbot config check`
 * and editors know it) and src/backtest (which maps it onto runner settings). Neither may import the
 * other (docs/architecture.md), and both may import domain. `mmbot run` accepts and ignores it.
 */

/** An order-latency leg in ms: a constant, uniform [min, max], log-normal, or a multiple of the recorded feed latency. */
export const latencyDistSchema = z.union([
  z.number().nonnegative(),
  z.strictObject({ uniform: z.tuple([z.number().nonnegative(), z.number().nonnegative()]).refine(([a, b]) => a <= b, 'expected [min, max] with min <= max') }),
  z.strictObject({ lognormal: z.strictObject({ median_ms: z.number().positive(), sigma: z.number().nonnegative().max(5) }) }),
  z.strictObject({ feed_multiple: z.strictObject({ multiplier: z.number().nonnegative().max(1000), offset_ms: z.number().default(0) }) }),
]);

/**
 * Queue-model kinds accepted in `backtest.queue_model.kind`: `auto` (the exact FIFO on order-level
 * recordings, risk-averse on L2 ones), the L2 models, `l3-fifo` (an order-level recording required)
 * and `module` (a user's own, from `queue_model.module`).
 */
export const QUEUE_MODEL_KINDS = ['auto', 'risk-averse', 'power', 'power2', 'power3', 'log', 'log2', 'l3-fifo', 'module'] as const;

/** A closed range [lo, hi] of a perturbation (lo ≤ hi). */
const rangeSchema = (min: number, max: number) =>
  z.tuple([z.number().min(min).max(max), z.number().min(min).max(max)]).refine(([a, b]) => a <= b, 'expected [lo, hi] with lo <= hi');

/** The L2 queue models an ensemble draws from on level data (order-level data keeps its exact FIFO). */
export const L2_QUEUE_KINDS = ['risk-averse', 'power', 'power2', 'power3', 'log', 'log2'] as const;

/**
 * The competitor reaction model (src/backtest/competitor-reaction.ts). Defaults measured on the
 * AMZN 2012-06-21 LOBSTER day (`npm run bench:reaction`; src/backtest/README.md, "Competitor reaction").
 */
export const reactionSchema = z
  .strictObject({
    enabled: z.boolean().default(false).describe('Off by default in a single backtest (the exact replay the fidelity and parity checks compare against); ensembles draw it on (backtest.ensemble.reaction).'),
    probability: z.number().min(0).max(1).default(0.79).describe('Chance a competitor answers an order of ours that improves the touch (measured: 0.79 of improvers still resting after 5 s had been answered).'),
    delay_ms: z
      .strictObject({ median_ms: z.number().positive().default(30), sigma: z.number().nonnegative().max(5).default(3.5) })
      .prefault({})
      .describe('Log-normal delay before the competitor appears (fitted to the measured answer times).'),
    size: z.number().positive().default(100).describe('The competitor order size (the median answering order: 100 shares).'),
  })
  .prefault({});

/** `backtest.ensemble`: the perturbations `mmbot backtest --ensemble` draws, each with its reason in src/backtest/README.md. */
export const ensembleSchema = z
  .strictObject({
    seed: z.number().int().nonnegative().default(1).describe('Seed of the draws (--seed overrides).'),
    order_latency: z
      .strictObject({ enabled: z.boolean().default(true), sigma: z.number().nonnegative().max(5).default(0.3), scale: rangeSchema(0.01, 100).default([0.5, 2]) })
      .prefault({})
      .describe('Each draw scales the configured entry and response medians by a log-uniform factor in `scale`, each request log-normal with `sigma`.'),
    feed_jitter: z
      .strictObject({ enabled: z.boolean().default(true), max_mean_ms: z.number().nonnegative().max(10_000).default(2) })
      .prefault({})
      .describe('Each draw adds exponential delays of a mean uniform in [0, max_mean_ms] to every receive time (feed.jitter_ms).'),
    start_offset: z
      .strictObject({ enabled: z.boolean().default(true), max_minutes: z.number().nonnegative().max(1440).default(15) })
      .prefault({})
      .describe('Each draw starts the replay a uniform [0, max_minutes] later (the window before it warms the books).'),
    queue_model: z
      .strictObject({ enabled: z.boolean().default(true), kinds: z.array(z.enum(L2_QUEUE_KINDS)).min(1).default([...L2_QUEUE_KINDS]) })
      .prefault({})
      .describe('Level data only: each draw takes one of `kinds` (uniformly); order-level data keeps the exact FIFO.'),
    reaction: z
      .strictObject({ enabled: z.boolean().default(true), probability: rangeSchema(0, 1).default([0.55, 0.9]), delay_scale: rangeSchema(0.01, 100).default([0.5, 2]) })
      .prefault({})
      .describe('Each draw switches the competitor reaction on with a probability uniform in `probability` and the delay median scaled log-uniformly by `delay_scale`.'),
  })
  .prefault({});

/**
 * The strict schema of the `backtest:` section (the daemon's format plus this section, so one file
 * drives both `mmbot run` and `mmbot backtest`). snake_case as written in YAML.
 */
export const backtestSectionSchema = z.strictObject({
  data: z.array(z.string().min(1)).min(1).optional().describe('Recordings to replay (gzip JSONL), relative to the config file; --data overrides.'),
  out_dir: z.string().min(1).default('backtests').describe('Parent folder of report folders when --out is not given (relative to the working directory).'),
  seed: z.number().int().nonnegative().default(1).describe('Seed of latency sampling and generated ids.'),
  queue_model: z
    .strictObject({
      kind: z.enum(QUEUE_MODEL_KINDS).default('auto'),
      n: z.number().positive().max(10).default(2),
      module: z.string().min(1).optional().describe('kind module: the model\'s module path (relative to the config file); its default export is { name, create(params) } (src/backtest/README.md).'),
      params: z.record(z.string(), z.unknown()).optional().describe('kind module: passed to the module\'s create().'),
      infer_hidden: z
        .boolean()
        .default(false)
        .describe('L2 models: read a print without a hidden mark at a price where the book showed no volume on the side it hit (inside the spread, within the recorded depth) as a hidden execution: it fills only our orders priced better than it. For tapes that do not mark hidden executions (src/backtest/README.md).'),
    })
    .refine((q) => (q.kind === 'module') === (q.module !== undefined), { message: 'kind module needs module: <path>, and module is only read with kind module', path: ['module'] })
    .prefault({})
    .describe('Queue position model: auto (default: the exact FIFO on an order-level recording, else risk-averse), risk-averse (conservative), a probabilistic shape (power, power2, power3, log, log2) with exponent n, l3-fifo (order-level recordings only), or module (your own). An L2 model on an order-level recording replays its aggregated levels.'),
  order_latency: z
    .strictObject({
      source: z
        .enum(['auto', 'recorded', 'model'])
        .default('auto')
        .describe("recorded: sample the round trips a daemon's recording holds (`q` lines, per request kind), split entry_share / rest; model: the entry and response distributions; auto: recorded when the recording has round trips and neither entry nor response is set, else model."),
      entry: latencyDistSchema.optional().describe('Request → matching engine, ms (model; default 5).'),
      response: latencyDistSchema.optional().describe('Matching engine → bot (acks, replies, fills), ms (model; default 5).'),
      entry_share: z.number().min(0).max(1).default(0.5).describe('recorded: the fraction of a round trip spent on the way in.'),
    })
    .prefault({})
    .describe('Order latency in ms: request → matching engine (entry) and matching engine → bot (response); status and open-orders queries pay a round trip too.'),
  rate_limit: z
    .strictObject({
      enabled: z.boolean().default(true),
      burst: z.number().int().positive().optional().describe('Bucket size (default: the embedded venue\'s `rate_limit.burst` when this config runs one, else the venue\'s 100).'),
      per_second: z.number().positive().optional().describe('Refill per second (default: the embedded venue\'s, else 10).'),
    })
    .prefault({})
    .describe("The venue's per-user order-entry rate limit (place, replace, cancel, cancel-all) emulated by the replay exchange: over budget the request is answered 429 and the engine's back-off runs as live."),
  feed: z
    .strictObject({
      latency_offset_ms: z.number().default(0).describe('Added to every recorded receive time (model a different site).'),
      depth: z
        .union([z.literal('auto'), z.number().int().positive().max(1000)])
        .default('auto')
        .describe("Book levels per side delivered to the engine; 'auto' = the deepest any strategy declares it reads (its bookDepth), 20 when one does not say."),
      conflate_ms: z
        .number()
        .nonnegative()
        .default(0)
        .describe('0 = the engine sees every book change; > 0 = at most one book (and the last trade) per symbol per window, delivered at the window end. The exchange side always processes every event.'),
      jitter_ms: z.number().nonnegative().max(10_000).default(0).describe('Mean of a seeded exponential delay added to every receive time (0 = the recorded times); ensembles draw it.'),
    })
    .prefault({}),
  venue_time: z
    .strictObject({
      reorder_window_ms: z
        .number()
        .nonnegative()
        .max(60_000)
        .default(50)
        .describe('The exchange side replays rows in venue-time order within this window: a row received after rows stamped later than it (a print behind a book frame) is processed at its own venue time, up to this far behind the latest one seen; 0 = receive order with time clamped forward. Default 50: the BTCUSDT capture\'s prints arrive up to 32 ms behind a later-stamped frame.'),
      netting_window_ms: z
        .number()
        .nonnegative()
        .max(1_000)
        .default(3)
        .describe('A print at a level within this many ms after a book frame that moved our order there up is taken to be that frame\'s volume, not a new trade; 0 = the same instant only (always so on an order-level recording with order ids, one message stream). Default 3: on the BTCUSDT capture depth drops at a print\'s level are stamped 0–3 ms before it about 1.5–2 times as often per ms as at larger gaps (one trade stamped apart by two streams); longer nets real trades against cancels.'),
    })
    .prefault({})
    .describe('How recorded rows are ordered and matched on the exchange side (src/backtest/README.md, venue time).'),
  fees: z
    .strictObject({ maker: z.number().min(-0.01).max(0.01), taker: z.number().min(-0.01).max(0.01) })
    .optional()
    .describe("Fee rates charged by the replay exchange (fraction of notional); default bot.fee_rates, else the recording header's rates for the symbol (`fees`: the trading account's in a daemon's recording, the source's in an import), else the venue's tier-1 schedule (maker 0.0002, taker 0.0025)."),
  funding: z
    .enum(['auto', 'recorded', 'schedule', 'off'])
    .default('auto')
    .describe('recorded: settle the recorded settlements; schedule: settle at the instrument\'s funding schedule with the last recorded funding estimate; auto: recorded when the recording has settlements for the symbol, else schedule; off.'),
  rewards: z
    .strictObject({
      max_spread_bps: z.number().positive().default(DEFAULT_REWARD_SCORE_PARAMS.maxSpreadBps),
      min_notional_usd: z.number().nonnegative().default(DEFAULT_REWARD_SCORE_PARAMS.minNotionalUsd),
      min_rest_ms: z.number().int().nonnegative().default(DEFAULT_REWARD_SCORE_PARAMS.minRestMs),
      curve: z.enum(['quadratic', 'dydx', 'exp']).default(DEFAULT_REWARD_SCORE_PARAMS.curve),
      single_sided_divisor: z.number().positive().default(DEFAULT_REWARD_SCORE_PARAMS.singleSidedDivisor),
      pool_usd_per_day: z.number().nonnegative().default(0).describe('Reward pool per symbol and day used for the estimate (0 = no reward estimate).'),
    })
    .prefault({}),
  own_orders: z
    .enum(['subtract', 'keep'])
    .default('subtract')
    .describe('A recording made while a bot traded holds its own working orders (`o` lines): subtract them from the recorded levels (queue position, fills, crossing, reward competition) so the replayed bot does not queue behind them, or keep the levels as displayed.'),
  reaction: reactionSchema.describe('A competitor that answers our orders improving the touch (src/backtest/README.md, "Competitor reaction").'),
  ensemble: ensembleSchema,
  sample_ms: z.number().int().positive().default(1000).describe('Equity/inventory sampling interval for Sharpe, drawdown and charts.'),
  start_ms: z.number().optional().describe('Replay only events received at or after this epoch ms.'),
  end_ms: z.number().optional().describe('Replay only events received before this epoch ms.'),
});

/** The parsed section (snake_case, defaults applied). */
export type BacktestSection = z.output<typeof backtestSectionSchema>;

/** The parsed `backtest.ensemble`. */
export type EnsembleSection = z.output<typeof ensembleSchema>;

/** An order-latency leg after parsing. */
export type LatencyDist = z.output<typeof latencyDistSchema>;
