import { resolve } from 'node:path';
import { MmError } from '../core/errors.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import type { RungPlan } from '../research/halving.ts';
import type { JobResult, ResearchJob } from '../research/job.ts';
import type { JobRunner } from '../research/runner.ts';
import type { Objective } from '../research/objective.ts';
import type { JobFactory } from '../research/pair-runner.ts';
import { candidatePoints, loadSearchFile, type SearchFile } from '../research/search-file.ts';
import { searchPlan, type SearchRunInput } from '../research/search-run.ts';
import { explicitWindows, splitWindows, type DataSpan, type DataWindow } from '../research/windows.ts';
import type { BacktestSetup } from './commands/backtest.ts';
import { prepareSearch } from './commands/walk-forward.ts';

/** What `mmbot sweep` keeps in sweep.json's meta: enough to plan the same sweep again (--resume). */
export interface SweepMeta {
  readonly config: string;
  readonly grid: string;
  /** Data references (absolute paths or URLs); empty = the config's backtest.data. */
  readonly data: readonly string[];
  /** --windows (grid and random searches). */
  readonly windowCount: number;
  /** --window from/to, as given (explicit windows instead of --windows; absent in older plans). */
  readonly explicit?: readonly string[];
  /** --objective, when it overrides the grid file's. */
  readonly objective: Objective | null;
  readonly backend: string;
  readonly queue: string;
  /** --drawdown-floor (USD), when it overrides the grid file's drawdown_floor_usd. */
  readonly drawdownFloorUsd?: number;
  /** --results-ttl in seconds (null: never; absent in older plans: the default). */
  readonly resultsTtlS?: number | null;
}

/** A planned sweep: candidates, their specs, the data and the windows, and how to make each job. */
export interface PreparedSweep {
  readonly search: SearchFile;
  readonly points: readonly GridPoint[];
  readonly axes: readonly string[];
  readonly objective: Objective;
  /** pnl_over_drawdown's drawdown floor, USD (--drawdown-floor, else the grid file's). */
  readonly drawdownFloorUsd: number;
  readonly setups: readonly BacktestSetup[];
  readonly data: readonly string[];
  readonly span: DataSpan;
  readonly windows: readonly DataWindow[];
  /** Successive halving's rungs (null for grid and random). */
  readonly rungs: readonly RungPlan[] | null;
  readonly make: JobFactory;
  /** The runner the sweep runs on (with `ensemble:` in the grid file, each job scored by its draws). */
  readonly scoring: (inner: JobRunner) => JobRunner;
  /** The first batch's jobs (grid and random: every job; halving: the first rung's). */
  readonly firstJobs: readonly ResearchJob[];
  /** Jobs the whole sweep expects to run (halving: when no candidate fails). */
  readonly expectedJobs: number;
  readonly outDirParent: string;
}

/** The input of runSearch for a prepared sweep. */
export const searchInput = (s: PreparedSweep): SearchRunInput => ({ search: s.search, points: s.points, windows: s.windows, span: s.span, objective: s.objective, drawdownFloorUsd: s.drawdownFloorUsd });

/**
 * Plans a sweep: the grid file read (grid, random or halving), every candidate validated through
 * the config loader (a bad value fails here with the config's own error, naming the point), the
 * data resolved (URLs downloaded into the cache), fingerprinted and spanned, the windows cut.
 * @throws MmError from the config and grid loaders, FILE_NOT_FOUND, NETWORK_ERROR, USAGE.
 */
export async function prepareSweep(meta: SweepMeta, cacheDir: string): Promise<PreparedSweep> {
  const search = loadSearchFile(meta.grid);
  const points = candidatePoints(search);
  const { setups, data, span, make, scoring } = await prepareSearch(meta.config, points, meta.data, cacheDir, search.ensemble);
  const base = setups[0]!;
  const explicit = meta.explicit ?? [];
  if (search.search === 'halving' && (meta.windowCount !== 1 || explicit.length > 0)) throw new MmError('USAGE', `--windows/--window: ${meta.grid} runs successive halving, whose rungs are its windows`);
  if (explicit.length > 0 && meta.windowCount !== 1) throw new MmError('USAGE', 'give --windows n or --window from/to, not both');
  const windows = explicit.length > 0 ? explicitWindows(explicit.map(parseWindowFlag)) : splitWindows(span, meta.windowCount);
  for (const [k, w] of explicit.length > 0 ? windows.entries() : []) {
    // A window that misses the data would fail every job of it at run time: say so now, with the span.
    if ((w.startMs ?? -Infinity) > span.endMs || (w.endMs ?? Infinity) <= span.startMs)
      throw new MmError('USAGE', `--window ${explicit[k]}: outside the data, which spans ${new Date(span.startMs).toISOString()} to ${new Date(span.endMs).toISOString()} (${span.startMs}/${span.endMs + 1})`);
  }
  const objective = meta.objective ?? search.objective;
  const prepared = { search, points, axes: search.axes.map((a) => a.path), objective, drawdownFloorUsd: meta.drawdownFloorUsd ?? search.drawdownFloorUsd, setups, data, span, windows, make, scoring, outDirParent: resolve(base.section.out_dir) };
  const rungs = searchPlan({ search, points, windows, span, objective });
  const firstWindows = rungs === null ? windows : [rungs[0]!.window];
  const firstJobs = firstWindows.flatMap((w) => points.map((p, i) => make(p, i, w)));
  const expectedJobs = rungs === null ? points.length * windows.length : rungs.reduce((n, r) => n + r.candidates, 0);
  return { ...prepared, rungs, firstJobs, expectedJobs };
}

/** A time as epoch ms or an ISO-8601 date-time with a zone. */
function parseTime(text: string, flag: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const ms = /(Z|[+-]\d\d:?\d\d)$/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) throw new MmError('USAGE', `--window ${flag}: "${text}" is not epoch ms or an ISO time with a zone (2026-11-18T15:56:00Z)`);
  return ms;
}

/**
 * Parses `--window [id=]from/to` (epoch ms or ISO times; an empty side = the data's own start/end).
 * @throws MmError USAGE naming the value.
 */
export function parseWindowFlag(flag: string): { id?: string; startMs: number | null; endMs: number | null } {
  const m = /^(?:([A-Za-z0-9_-]+)=)?([^/]*)\/([^/]*)$/.exec(flag);
  if (!m) throw new MmError('USAGE', `--window ${flag}: expected [name=]from/to (epoch ms or ISO times, either side may be empty)`);
  const startMs = m[2] === '' ? null : parseTime(m[2]!, flag);
  const endMs = m[3] === '' ? null : parseTime(m[3]!, flag);
  return { ...(m[1] ? { id: m[1] } : {}), startMs, endMs };
}

const cell = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Every run (point × window) in the order run: the raw figures under the leaderboard. */
export function runsCsv(axes: readonly string[], jobs: readonly ResearchJob[], results: ReadonlyMap<string, JobResult>): string {
  const head = ['point', ...axes, 'window', 'job_id', 'net_usd', 'net_with_rewards_usd', 'sharpe', 'max_drawdown_usd', 'fills', 'maker_share', 'uptime_two_sided', 'inside_reward_spread', 'markout_60s_bps', 'duration_s', 'error'];
  const lines = [head.join(',')];
  for (const j of jobs) {
    const r = results.get(j.id);
    const m = r?.row;
    const fig =
      m && m.error === null
        ? [m.net.toFixed(6), m.netWithRewards.toFixed(6), Number.isNaN(m.sharpe) ? '' : m.sharpe.toFixed(4), m.maxDrawdown.toFixed(6), m.fills, m.makerShare.toFixed(4), m.uptimeTwoSided.toFixed(4), m.insideRewardSpread.toFixed(4), Number.isNaN(m.markout60sBps) ? '' : m.markout60sBps.toFixed(4), r!.durationS]
        : ['', '', '', '', '', '', '', '', '', ''];
    lines.push([j.index + 1, ...j.point.map(([, v]) => cell(v)), j.window.id, j.id.slice(0, 16), ...fig, cell(r ? (m!.error ?? '') : 'not run')].join(','));
  }
  return `${lines.join('\n')}\n`;
}
