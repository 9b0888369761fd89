import { describe, expect, it } from 'vitest';
import { applyDraw, drawSeed, ensembleDraws, type DrawContext } from '../../src/backtest/ensemble-draws.ts';
import { dist, ensembleSummary, pairedSummary, sensitivity, type DrawFigures } from '../../src/backtest/ensemble-stats.ts';
import { replayTimeline } from '../../src/backtest/replay-timeline.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { ensembleSchema } from '../../src/domain/backtest-section.ts';
import { recordingHeader, toColumnar } from '../../src/record/index.ts';
import { testInstrument } from '../record/fixtures.ts';

const ctx: DrawContext = { dataStartMs: 1_000_000, windowMinutes: 60, orderLevel: false, recordedLatency: false, reaction: { probability: 0.79, delayMedianMs: 30, delaySigma: 3.5, size: 100 } };
const base = defaultSettings();
const cfg = ensembleSchema.parse({});
const off = ensembleSchema.parse({ order_latency: { enabled: false }, feed_jitter: { enabled: false }, start_offset: { enabled: false }, queue_model: { enabled: false }, reaction: { enabled: false } });

describe('ensemble draws', () => {
  it('are a function of (seed, k): 8 draws are the first 8 of 32, the same seed the same draws', () => {
    const a = ensembleDraws(cfg, 1, 32, ctx, base);
    expect(ensembleDraws(cfg, 1, 8, ctx, base)).toEqual(a.slice(0, 8));
    expect(ensembleDraws(cfg, 1, 32, ctx, base)).toEqual(a);
    expect(ensembleDraws(cfg, 2, 8, ctx, base)).not.toEqual(a.slice(0, 8));
    expect(new Set(a.map((d) => d.seed)).size).toBe(32);
    expect(drawSeed(1, 0)).not.toBe(drawSeed(1, 1));
  });

  it('stay inside their configured ranges (defaults: latency ×0.5–2, jitter ≤ 2 ms, start ≤ 15 min, p 0.55–0.9, delay 15–60 ms)', () => {
    for (const d of ensembleDraws(cfg, 3, 64, ctx, base)) {
      expect(d.latency_scale).toBeGreaterThanOrEqual(0.5);
      expect(d.latency_scale).toBeLessThanOrEqual(2);
      expect(d.feed_jitter_ms).toBeLessThanOrEqual(2);
      expect(d.start_offset_min).toBeLessThanOrEqual(15);
      expect(['risk-averse', 'power', 'power2', 'power3', 'log', 'log2']).toContain(d.queue_model);
      expect(d.reaction_probability).toBeGreaterThanOrEqual(0.55);
      expect(d.reaction_probability).toBeLessThanOrEqual(0.9);
      expect(d.reaction_delay_ms).toBeGreaterThanOrEqual(15);
      expect(d.reaction_delay_ms).toBeLessThanOrEqual(60);
    }
  });

  it('a start offset takes at most half the window (a 10-minute recording: ≤ 5 min)', () => {
    for (const d of ensembleDraws(cfg, 1, 32, { ...ctx, windowMinutes: 10 }, base)) expect(d.start_offset_min).toBeLessThanOrEqual(5);
  });

  it('order-level data keeps its FIFO; recorded round trips keep their latency', () => {
    const [d] = ensembleDraws(cfg, 1, 1, { ...ctx, orderLevel: true, recordedLatency: true }, base);
    expect(d!.queue_model).toBeNull();
    expect(d!.latency_scale).toBeNull();
    expect(applyDraw(base, d!, ctx).queueModel).toEqual(base.queueModel);
  });

  it('a draw with every perturbation off leaves the settings as configured (same seed)', () => {
    const [d] = ensembleDraws(off, 9, 1, ctx, base);
    expect(applyDraw(base, d!, ctx)).toEqual(base);
  });

  it('applies each value: latency medians scaled (5 ms × 1.5, σ 0.3), jitter, start, queue, reaction', () => {
    const d = { index: 0, seed: 42, latency_scale: 1.5, latency_sigma: 0.3, feed_jitter_ms: 0.7, start_offset_min: 2, queue_model: 'log', reaction_probability: 0.6, reaction_delay_ms: 20 };
    const s = applyDraw(base, d, ctx);
    expect(s.orderLatency.entry).toEqual({ lognormal: { median_ms: 7.5, sigma: 0.3 } });
    expect(s.orderLatency.source).toBe('model');
    expect(s.feedJitterMs).toBe(0.7);
    expect(s.startMs).toBe(1_000_000 + 120_000);
    expect(s.queueModel.kind).toBe('log');
    expect(s.reaction).toEqual({ probability: 0.6, delayMedianMs: 20, delaySigma: 3.5, size: 100 });
    expect(s.seed).toBe(42);
  });
});

describe('ensemble statistics', () => {
  it('dist: mean, sample sd and linear-interpolated percentiles of 1..20', () => {
    const d = dist(Array.from({ length: 20 }, (_, k) => k + 1));
    expect(d.mean).toBe(10.5);
    expect(d.sd).toBeCloseTo(5.91608, 5);
    expect(d.p5).toBeCloseTo(1.95, 10);
    expect(d.p50).toBe(10.5);
    expect(d.p95).toBeCloseTo(19.05, 10);
  });

  const fig = (net: number, notional = 1e6): DrawFigures => ({ net_usd: net, edge_bps: (net / notional) * 1e4, max_drawdown_usd: 10, fills: 5, markout_10s_bps: null, notional_usd: notional, uptime_two_sided: 0.5, error: null });

  it('summary: P(net > 0) over successful draws; failed draws left out', () => {
    const s = ensembleSummary([fig(10), fig(-5), fig(3), { ...fig(0), error: 'boom' }]);
    expect(s.runs).toBe(4);
    expect(s.failed).toBe(1);
    expect(s.p_net_positive).toBeCloseTo(2 / 3, 12);
    expect(s.edge_bps.p50).toBeCloseTo(0.03, 12);
    expect(Number.isNaN(s.markout_10s_bps.mean)).toBe(true);
  });

  it('paired: differences per draw, P(better) the share where the first nets more', () => {
    const p = pairedSummary([fig(10), fig(-5), fig(3)], [fig(4), fig(-1), fig(2)]);
    expect(p.draws).toBe(3);
    expect(p.p_better).toBeCloseTo(2 / 3, 12);
    expect(p.diff_net_usd.p50).toBe(1);
  });

  it('sensitivity: the perturbation net follows ranks first', () => {
    const draws = ensembleDraws(cfg, 1, 16, ctx, base);
    const runs = draws.map((d) => fig(100 * d.start_offset_min! + (d.feed_jitter_ms! > 1 ? 1 : 0)));
    const s = sensitivity(draws, runs);
    expect(s[0]!.perturbation).toBe('start_offset_min');
    expect(s[0]!.share_of_variance).toBeGreaterThan(0.99);
  });
});

describe('feed jitter (feed.jitter_ms)', () => {
  const inst = testInstrument('TEST-PERP', '0.01', 1);
  const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: 0, source: 'test' }), [inst], syntheticMarket({ instrument: inst, seed: 3, events: 2_000, startMs: 0, midTicks: 10_000 }));

  it('0 leaves the recorded times; > 0 delays every receive time by a seeded amount, the feed kept in order', () => {
    const plain = replayTimeline(col, defaultSettings());
    const a = replayTimeline(col, defaultSettings({ feedJitterMs: 2 }));
    const b = replayTimeline(col, defaultSettings({ feedJitterMs: 2 }));
    expect(a.lT).toEqual(b.lT);
    let later = 0;
    let earlier = 0;
    let disordered = 0;
    for (let i = 0; i < col.length; i++) {
      if (a.lT[i]! < plain.lT[i]!) earlier++;
      if (i > 0 && a.lT[i]! < a.lT[i - 1]!) disordered++;
      if (a.lT[i]! > plain.lT[i]!) later++;
    }
    expect([earlier, disordered]).toEqual([0, 0]);
    expect(later).toBeGreaterThan(col.length / 2);
    expect(replayTimeline(col, defaultSettings({ feedJitterMs: 2, seed: 2 })).lT).not.toEqual(a.lT);
  });
});
