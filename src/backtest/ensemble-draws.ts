import { seededRandomU32, type RandomU32 } from '../core/ulid.ts';
import { MmError } from '../core/errors.ts';
import { reactionSchema, type EnsembleSection, type LatencyDist } from '../domain/backtest-section.ts';
import type { BacktestSettings, ReactionSettings } from './settings.ts';

/**
 * One draw of an ensemble: the perturbation values (null = that perturbation off or not applicable).
 * Plain data, written to ensemble.json as `runs[].draw` (snake_case like the config).
 */
export interface EnsembleDraw {
  readonly index: number;
  /** The run's seed (latency sampling, feed jitter, competitor answers, generated ids). */
  readonly seed: number;
  /** Factor on the configured order-latency medians (entry and response). */
  readonly latency_scale: number | null;
  /** Per-request log-normal sigma of the order latency. */
  readonly latency_sigma: number | null;
  /** Mean of the exponential delay added to every receive time, ms. */
  readonly feed_jitter_ms: number | null;
  /** Minutes the replay starts after the configured (or the recording's) start. */
  readonly start_offset_min: number | null;
  /** The L2 queue model (level data only). */
  readonly queue_model: string | null;
  /** The competitor reaction's answer probability. */
  readonly reaction_probability: number | null;
  /** The competitor reaction's delay median, ms. */
  readonly reaction_delay_ms: number | null;
}

/** What a draw needs to know about the data and the base settings. */
export interface DrawContext {
  /** The first receive time of the recording (ms): start offsets count from here when start_ms is unset. */
  readonly dataStartMs: number;
  /** Minutes of data the base run replays (its window): a start offset takes at most half of it. */
  readonly windowMinutes: number;
  /** An order-level recording: its exact FIFO is kept (no queue-model perturbation). */
  readonly orderLevel: boolean;
  /** The recording holds round trips the base settings replay (`order_latency` recorded): no latency perturbation. */
  readonly recordedLatency: boolean;
  /** The base `backtest.reaction` (its size and sigma; defaults when off). */
  readonly reaction: ReactionSettings;
}

/** What `drawContextOf` needs to know about the data (cheap to carry: no recording). */
export interface DataFacts {
  /** First and last receive time of the recording, ms. */
  readonly startMs: number;
  readonly endMs: number;
  readonly orderLevel: boolean;
  /** The recording holds a daemon's measured round trips (`q` lines). */
  readonly hasRoundTrips: boolean;
}

/** The draw context of a run with settings `s` on data described by `d` (its window: s.startMs/endMs, else the data's). */
export function drawContextOf(s: BacktestSettings, d: DataFacts): DrawContext {
  const source = s.orderLatency.source;
  const first = s.startMs ?? d.startMs;
  const last = s.endMs ?? d.endMs;
  const r = reactionSchema.parse({});
  return {
    dataStartMs: d.startMs,
    windowMinutes: Math.max(0, last - first) / 60_000,
    orderLevel: d.orderLevel,
    recordedLatency: (source === 'recorded' || source === 'auto') && d.hasRoundTrips,
    reaction: s.reaction ?? { probability: r.probability, delayMedianMs: r.delay_ms.median_ms, delaySigma: r.delay_ms.sigma, size: r.size },
  };
}

/** A draw's own seed: draw k of seed s is the same whatever the ensemble's size (splitmix-style mix). */
export function drawSeed(seed: number, k: number): number {
  let z = (seed * 0x9e3779b1 + (k + 1) * 0x85ebca77) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x7feb352d) >>> 0;
  z = Math.imul(z ^ (z >>> 15), 0x846ca68b) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** The median a latency leg is perturbed around (null: a feed multiple has none). */
export function latencyMedian(d: LatencyDist): number | null {
  if (typeof d === 'number') return d;
  if ('uniform' in d) return (d.uniform[0] + d.uniform[1]) / 2;
  if ('lognormal' in d) return d.lognormal.median_ms;
  return null;
}

const logUniform = (u: number, [lo, hi]: readonly [number, number]): number => (lo > 0 ? lo * Math.pow(hi / lo, u) : lo + u * (hi - lo));

/**
 * The draws of an ensemble: draw k depends only on (seed, k), so the first 8 draws of 32 are the
 * draws of 8. Each perturbation that is enabled and applies to this data gets a value; the others
 * are null, and a draw with every perturbation off is the base run (same seed, same settings). A
 * start offset is at most half the base run's window, so a short recording keeps most of its replay.
 */
export function ensembleDraws(cfg: EnsembleSection, seed: number, n: number, ctx: DrawContext, base: BacktestSettings): EnsembleDraw[] {
  if (!Number.isInteger(n) || n < 1) throw new MmError('USAGE', `--ensemble takes a number of draws >= 1, got ${n}`);
  const latencyOn = cfg.order_latency.enabled && !ctx.recordedLatency && latencyMedian(base.orderLatency.entry) !== null && latencyMedian(base.orderLatency.response) !== null;
  const anyOn = latencyOn || cfg.feed_jitter.enabled || cfg.start_offset.enabled || (cfg.queue_model.enabled && !ctx.orderLevel) || cfg.reaction.enabled;
  const draws: EnsembleDraw[] = [];
  for (let k = 0; k < n; k++) {
    const s = drawSeed(seed, k);
    const rand: RandomU32 = seededRandomU32(s);
    // Every perturbation takes its uniforms in a fixed order, switched on or not: switching one off
    // leaves the others' values unchanged.
    const u = (): number => rand() / 4294967296;
    const [uLat, uJit, uStart, uQueue, uProb, uDelay] = [u(), u(), u(), u(), u(), u()];
    const kinds = cfg.queue_model.kinds;
    const maxOffsetMin = Math.min(cfg.start_offset.max_minutes, ctx.windowMinutes / 2);
    draws.push({
      index: k,
      seed: anyOn ? s : base.seed,
      latency_scale: latencyOn ? logUniform(uLat, cfg.order_latency.scale) : null,
      latency_sigma: latencyOn ? cfg.order_latency.sigma : null,
      feed_jitter_ms: cfg.feed_jitter.enabled ? uJit * cfg.feed_jitter.max_mean_ms : null,
      start_offset_min: cfg.start_offset.enabled ? uStart * maxOffsetMin : null,
      queue_model: cfg.queue_model.enabled && !ctx.orderLevel ? kinds[Math.min(kinds.length - 1, Math.floor(uQueue * kinds.length))]! : null,
      reaction_probability: cfg.reaction.enabled ? cfg.reaction.probability[0] + uProb * (cfg.reaction.probability[1] - cfg.reaction.probability[0]) : null,
      reaction_delay_ms: cfg.reaction.enabled ? ctx.reaction.delayMedianMs * logUniform(uDelay, cfg.reaction.delay_scale) : null,
    });
  }
  return draws;
}

/** A perturbed copy of a leg for a draw (null: the leg is left as configured). */
function scaledLeg(d: LatencyDist, scale: number, sigma: number): LatencyDist {
  const m = latencyMedian(d)!;
  return { lognormal: { median_ms: m * scale, sigma } };
}

/**
 * The base settings with a draw applied. Every null field leaves its setting as configured, so a
 * draw with every perturbation off returns settings equal to the base.
 * @throws MmError CONFIG_INVALID when the start offset leaves nothing of the window.
 */
export function applyDraw(base: BacktestSettings, draw: EnsembleDraw, ctx: DrawContext): BacktestSettings {
  let s: BacktestSettings = { ...base, seed: draw.seed };
  if (draw.latency_scale !== null && draw.latency_sigma !== null) {
    const ol = base.orderLatency;
    s = { ...s, orderLatency: { ...ol, source: 'model', entry: scaledLeg(ol.entry, draw.latency_scale, draw.latency_sigma), response: scaledLeg(ol.response, draw.latency_scale, draw.latency_sigma) } };
  }
  if (draw.feed_jitter_ms !== null && draw.feed_jitter_ms > 0) s = { ...s, feedJitterMs: draw.feed_jitter_ms };
  if (draw.start_offset_min !== null && draw.start_offset_min > 0) {
    const startMs = Math.round((base.startMs ?? ctx.dataStartMs) + draw.start_offset_min * 60_000);
    if (base.endMs !== null && startMs >= base.endMs)
      throw new MmError('CONFIG_INVALID', `backtest.ensemble.start_offset.max_minutes: draw ${draw.index} starts at ${new Date(startMs).toISOString()}, after backtest.end_ms`, { path: 'backtest.ensemble.start_offset.max_minutes' });
    s = { ...s, startMs };
  }
  if (draw.queue_model !== null) s = { ...s, queueModel: { kind: draw.queue_model as BacktestSettings['queueModel']['kind'], n: base.queueModel.n } };
  if (draw.reaction_probability !== null && draw.reaction_delay_ms !== null)
    s = { ...s, reaction: { ...ctx.reaction, probability: draw.reaction_probability, delayMedianMs: draw.reaction_delay_ms } };
  return s;
}
