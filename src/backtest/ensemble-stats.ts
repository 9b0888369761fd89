import type { SweepRow } from './sweep.ts';
import type { EnsembleDraw } from './ensemble-draws.ts';

/** A figure over an ensemble's draws: mean, sample sd, and the 5th / 50th / 95th percentiles. */
export interface Dist {
  readonly mean: number;
  readonly sd: number;
  readonly p5: number;
  readonly p50: number;
  readonly p95: number;
}

/** One draw's figures (ensemble.json `runs[]`). */
export interface DrawFigures {
  readonly net_usd: number;
  /** net / traded notional × 10⁴ (0 when nothing traded). */
  readonly edge_bps: number;
  readonly max_drawdown_usd: number;
  readonly fills: number;
  /** Mean 10 s markout, bps; null when no fill matured. */
  readonly markout_10s_bps: number | null;
  readonly notional_usd: number;
  /** Share of the window quoted on both sides. */
  readonly uptime_two_sided: number;
  readonly error: string | null;
}

/** ensemble.json `summary` of one config. */
export interface EnsembleSummary {
  readonly runs: number;
  /** Draws that failed (their figures are left out of the distributions). */
  readonly failed: number;
  readonly net_usd: Dist;
  readonly edge_bps: Dist;
  readonly max_drawdown_usd: Dist;
  readonly fills: Dist;
  /** Over the draws with a matured fill. */
  readonly markout_10s_bps: Dist;
  /** Share of the window quoted on both sides. */
  readonly uptime_two_sided: Dist;
  /** Share of (successful) draws with net > 0. */
  readonly p_net_positive: number;
}

/** Linear-interpolated quantile of a sorted list (the definition R and NumPy use by default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Mean, sample sd (n − 1; 0 for one value) and percentiles; NaN everywhere for no values. */
export function dist(xs: readonly number[]): Dist {
  const n = xs.length;
  if (n === 0) return { mean: NaN, sd: NaN, p5: NaN, p50: NaN, p95: NaN };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  const s = [...xs].sort((a, b) => a - b);
  return { mean, sd, p5: quantile(s, 0.05), p50: quantile(s, 0.5), p95: quantile(s, 0.95) };
}

/** A sweep row's figures as an ensemble draw's. */
export function drawFigures(r: SweepRow): DrawFigures {
  const notional = r.notionalUsd ?? 0;
  const m10 = r.markout10sBps ?? NaN;
  return {
    net_usd: r.net,
    edge_bps: notional > 0 ? (r.net / notional) * 1e4 : 0,
    max_drawdown_usd: r.maxDrawdown,
    fills: r.fills,
    markout_10s_bps: Number.isNaN(m10) ? null : m10,
    notional_usd: notional,
    uptime_two_sided: r.uptimeTwoSided ?? 0,
    error: r.error,
  };
}

/** The summary of one config's draws. */
export function ensembleSummary(runs: readonly DrawFigures[]): EnsembleSummary {
  const ok = runs.filter((r) => r.error === null);
  const col = (f: (r: DrawFigures) => number | null): number[] => ok.map(f).filter((v): v is number => v !== null);
  return {
    runs: runs.length,
    failed: runs.length - ok.length,
    net_usd: dist(col((r) => r.net_usd)),
    edge_bps: dist(col((r) => r.edge_bps)),
    max_drawdown_usd: dist(col((r) => r.max_drawdown_usd)),
    fills: dist(col((r) => r.fills)),
    markout_10s_bps: dist(col((r) => r.markout_10s_bps)),
    uptime_two_sided: dist(col((r) => r.uptime_two_sided)),
    p_net_positive: ok.length > 0 ? ok.filter((r) => r.net_usd > 0).length / ok.length : NaN,
  };
}

/** ensemble.json `paired`: the first config against the second on the same draws. */
export interface PairedSummary {
  /** Draws where both ran. */
  readonly draws: number;
  /** Share of those where the first config nets more. */
  readonly p_better: number;
  /** net(first) − net(second) per draw. */
  readonly diff_net_usd: Dist;
}

/** The paired comparison of two configs' figures on the same draws (index k = draw k in both). */
export function pairedSummary(a: readonly DrawFigures[], b: readonly DrawFigures[]): PairedSummary {
  const diffs: number[] = [];
  for (let k = 0; k < Math.min(a.length, b.length); k++) if (a[k]!.error === null && b[k]!.error === null) diffs.push(a[k]!.net_usd - b[k]!.net_usd);
  return { draws: diffs.length, p_better: diffs.length > 0 ? diffs.filter((d) => d > 0).length / diffs.length : NaN, diff_net_usd: dist(diffs) };
}

/** How much of the net's variance across draws one perturbation explains. */
export interface Sensitivity {
  readonly perturbation: string;
  /** Numeric perturbations: the squared Pearson correlation with net; the queue model: η² (between-kind share of variance). */
  readonly share_of_variance: number;
}

const NUMERIC = ['latency_scale', 'feed_jitter_ms', 'start_offset_min', 'reaction_probability', 'reaction_delay_ms'] as const;

/**
 * Which perturbation moves net most: per perturbation that varied, the share of net's variance it
 * explains on its own (r² or η²), largest first. One-at-a-time and linear: a guide, not a decomposition.
 */
export function sensitivity(draws: readonly EnsembleDraw[], runs: readonly DrawFigures[]): Sensitivity[] {
  const ok = draws.map((d, k) => [d, runs[k]!] as const).filter(([, r]) => r.error === null);
  const net = ok.map(([, r]) => r.net_usd);
  const out: Sensitivity[] = [];
  if (ok.length < 3) return out;
  const mean = net.reduce((a, b) => a + b, 0) / net.length;
  const ssTot = net.reduce((a, b) => a + (b - mean) ** 2, 0);
  if (ssTot === 0) return out;
  for (const key of NUMERIC) {
    const xs = ok.map(([d]) => d[key]);
    if (xs.some((x) => x === null)) continue;
    const x = xs as number[];
    const mx = x.reduce((a, b) => a + b, 0) / x.length;
    const sxx = x.reduce((a, b) => a + (b - mx) ** 2, 0);
    if (sxx === 0) continue;
    const sxy = x.reduce((a, b, k) => a + (b - mx) * (net[k]! - mean), 0);
    out.push({ perturbation: key, share_of_variance: (sxy * sxy) / (sxx * ssTot) });
  }
  if (ok.every(([d]) => d.queue_model !== null)) {
    const groups = new Map<string, number[]>();
    ok.forEach(([d], k) => {
      const g = groups.get(d.queue_model!) ?? [];
      g.push(net[k]!);
      groups.set(d.queue_model!, g);
    });
    if (groups.size > 1) {
      const ssB = [...groups.values()].reduce((a, g) => a + g.length * (g.reduce((x, y) => x + y, 0) / g.length - mean) ** 2, 0);
      out.push({ perturbation: 'queue_model', share_of_variance: ssB / ssTot });
    }
  }
  return out.sort((a, b) => b.share_of_variance - a.share_of_variance || (a.perturbation < b.perturbation ? -1 : 1));
}
