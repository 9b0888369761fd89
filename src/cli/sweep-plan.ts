import { resolve } from 'node:path';
import { MmError } from '../core/errors.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import { normalizeDataRef, resolveDataRef } from '../research/data-ref.ts';
import { dataFingerprint } from '../research/fingerprint.ts';
import { makeJob, type JobResult, type ResearchJob } from '../research/job.ts';
import { buildLeaderboard, type Leaderboard } from '../research/leaderboard.ts';
import type { Objective } from '../research/objective.ts';
import { dataSpan, splitWindows, type DataWindow } from '../research/windows.ts';
import { loadBacktestSetup } from './commands/backtest.ts';

/** What `mmbot sweep` keeps in sweep.json's meta, to resume and to write the same outputs. */
export interface SweepMeta {
  readonly config: string;
  readonly grid: string;
  readonly objective: Objective;
  readonly axes: readonly string[];
  readonly points: readonly GridPoint[];
  readonly data: readonly string[];
  readonly windows: readonly DataWindow[];
  readonly backend: string;
}

/**
 * Plans a sweep: every candidate point validated through the config loader (a bad value fails here with
 * the config's own error), the data resolved (URLs downloaded), fingerprinted and split into
 * windows, one job per point × window.
 * @throws MmError from the config loader (naming the grid point), FILE_NOT_FOUND, USAGE.
 */
export async function planSweep(
  configFile: string,
  gridFile: string,
  grid: { readonly points: readonly GridPoint[]; readonly axes: readonly string[]; readonly objective: Objective },
  dataFlags: readonly string[],
  windowCount: number,
  cacheDir: string,
): Promise<{ jobs: ResearchJob[]; meta: Omit<SweepMeta, 'backend'>; outDirParent: string }> {
  const points = grid.points;
  const setups = [];
  for (const [index, point] of points.entries()) {
    try {
      setups.push(await loadBacktestSetup(configFile, point));
    } catch (e) {
      const where = point.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
      if (e instanceof MmError) throw new MmError(e.code, `grid point ${index + 1} (${where}): ${e.message}`, { ...e.details });
      throw e;
    }
  }
  const base = setups[0]!;
  const data = (dataFlags.length > 0 ? dataFlags : base.dataPaths).map(normalizeDataRef);
  if (data.length === 0) throw new MmError('USAGE', `no recording: pass --data or set backtest.data in ${configFile}`);
  const local = await Promise.all(data.map((ref) => resolveDataRef(ref, cacheDir)));
  const fingerprints = await Promise.all(local.map((p) => dataFingerprint(p, cacheDir)));
  const span = await dataSpan(local, cacheDir);
  // The config's own backtest.start_ms / end_ms narrow the span the windows split.
  const s = base.spec.settings;
  const windows = splitWindows({ startMs: Math.max(span.startMs, s.startMs ?? -Infinity), endMs: Math.min(span.endMs, s.endMs ?? Infinity) }, windowCount);
  const jobs = setups.flatMap((setup, index) =>
    windows.map((window) => makeJob({ index, point: points[index]!, window, data, fingerprints, spec: setup.spec, baseDir: setup.config.source.dir })),
  );
  return {
    jobs,
    meta: { config: resolve(configFile), grid: resolve(gridFile), objective: grid.objective, axes: grid.axes, points, data, windows },
    outDirParent: resolve(base.section.out_dir),
  };
}

/** The leaderboard of a sweep's results (aggregation over windows is the leaderboard's). */
export function sweepLeaderboard(meta: SweepMeta, jobs: readonly ResearchJob[], results: ReadonlyMap<string, JobResult>): Leaderboard {
  const observations = jobs.flatMap((j) => {
    const r = results.get(j.id);
    return r ? [{ point: j.point, windowId: j.window.id, metrics: r.row }] : [];
  });
  return buildLeaderboard(meta.points, observations, meta.objective);
}

const cell = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Every run (point × window) in plan order: the raw figures under the leaderboard. */
export function runsCsv(meta: SweepMeta, jobs: readonly ResearchJob[], results: ReadonlyMap<string, JobResult>): string {
  const head = ['point', ...meta.axes, 'window', 'job_id', 'net_usd', 'net_with_rewards_usd', 'sharpe', 'max_drawdown_usd', 'fills', 'maker_share', 'uptime_two_sided', 'inside_reward_spread', 'markout_60s_bps', 'duration_s', 'error'];
  const lines = [head.join(',')];
  for (const j of jobs) {
    const r = results.get(j.id);
    const m = r?.row;
    const fig = m && m.error === null
      ? [m.net.toFixed(6), m.netWithRewards.toFixed(6), m.sharpe.toFixed(4), m.maxDrawdown.toFixed(6), m.fills, m.makerShare.toFixed(4), m.uptimeTwoSided.toFixed(4), m.insideRewardSpread.toFixed(4), Number.isNaN(m.markout60sBps) ? '' : m.markout60sBps.toFixed(4), r!.durationS]
      : ['', '', '', '', '', '', '', '', '', ''];
    lines.push([j.index + 1, ...j.point.map(([, v]) => cell(v)), j.window.id, j.id.slice(0, 16), ...fig, cell(r ? (m!.error ?? '') : 'not run')].join(','));
  }
  return `${lines.join('\n')}\n`;
}
