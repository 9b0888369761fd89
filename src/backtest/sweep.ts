import { Worker } from 'node:worker_threads';
import { MmError } from '../core/errors.ts';
import type { BacktestReport } from './report.ts';
import type { RunSpec } from './run-spec.ts';

/** One grid axis: a dotted config path and the values to try. */
export interface GridAxis {
  readonly path: string;
  readonly values: readonly unknown[];
}

/** One point of the grid: path → value, in axis order. */
export type GridPoint = ReadonlyArray<readonly [string, unknown]>;

/** The cartesian product of the axes, first axis varying slowest. */
export function expandGrid(axes: readonly GridAxis[], maxPoints = 10_000): GridPoint[] {
  let points: GridPoint[] = [[]];
  for (const a of axes) {
    if (a.values.length === 0) throw new MmError('CONFIG_INVALID', `grid axis ${a.path} has no values`);
    const next: GridPoint[] = [];
    for (const p of points) for (const v of a.values) next.push([...p, [a.path, v]]);
    points = next;
    if (points.length > maxPoints) throw new MmError('CONFIG_INVALID', `the grid has more than ${maxPoints} points`);
  }
  return points;
}

/** The figures a sweep ranks on, taken from one run's report. */
export interface SweepRow {
  readonly index: number;
  readonly point: GridPoint;
  readonly net: number;
  readonly netWithRewards: number;
  readonly sharpe: number;
  readonly maxDrawdown: number;
  readonly fills: number;
  readonly makerShare: number;
  readonly uptimeTwoSided: number;
  readonly insideRewardSpread: number;
  /** Mean 60 s fill markout, bps (positive = good; NaN when no fill matured). */
  readonly markout60sBps: number;
  readonly error: string | null;
}

/** Metrics a sweep can rank by (descending, except max_drawdown which ranks ascending; markout_60s: least adverse selection first). */
export const RANK_KEYS = ['net', 'net_with_rewards', 'sharpe', 'max_drawdown', 'fills', 'uptime', 'markout_60s'] as const;
/** A rank key. */
export type RankKey = (typeof RANK_KEYS)[number];

/** Extracts a sweep row from a report. */
export function sweepRow(index: number, point: GridPoint, r: BacktestReport): SweepRow {
  const t = r.total;
  return {
    index,
    point,
    net: Number(t.pnl.net),
    netWithRewards: Number(t.pnl.net_with_rewards),
    sharpe: t.sharpe,
    maxDrawdown: Number(t.max_drawdown_usd),
    fills: t.fills.count,
    makerShare: t.fills.maker_share,
    uptimeTwoSided: t.quoting.uptime_two_sided,
    insideRewardSpread: t.quoting.two_sided_inside_reward_spread,
    markout60sBps: t.markouts_bps['60s'] ?? NaN,
    error: null,
  };
}

/** Sorts rows best first by `key`; failed runs last; ties keep grid order (deterministic). */
export function rankRows(rows: readonly SweepRow[], key: RankKey): SweepRow[] {
  const v = (r: SweepRow): number => {
    const x = key === 'net' ? r.net : key === 'net_with_rewards' ? r.netWithRewards : key === 'sharpe' ? r.sharpe : key === 'max_drawdown' ? -r.maxDrawdown : key === 'fills' ? r.fills : key === 'uptime' ? r.uptimeTwoSided : r.markout60sBps;
    return Number.isNaN(x) ? -Number.MAX_VALUE : x; // no figure (no fill matured) ranks after every figure
  };
  return [...rows].sort((a, b) => (a.error === null) !== (b.error === null) ? (a.error === null ? -1 : 1) : v(b) - v(a) || a.index - b.index);
}

/** The ranked table as CSV (one column per grid axis, then the metrics). */
export function sweepCsv(rows: readonly SweepRow[]): string {
  const axes = rows[0]?.point.map(([p]) => p) ?? [];
  const head = ['rank', ...axes, 'net_usd', 'net_with_rewards_usd', 'sharpe', 'max_drawdown_usd', 'fills', 'maker_share', 'uptime_two_sided', 'inside_reward_spread', 'markout_60s_bps', 'error'];
  const cell = (v: unknown): string => {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [head.join(',')];
  rows.forEach((r, k) =>
    lines.push(
      [k + 1, ...r.point.map(([, v]) => cell(v)), r.net.toFixed(6), r.netWithRewards.toFixed(6), r.sharpe.toFixed(4), r.maxDrawdown.toFixed(6), r.fills, r.makerShare.toFixed(4), r.uptimeTwoSided.toFixed(4), r.insideRewardSpread.toFixed(4), Number.isNaN(r.markout60sBps) ? '' : r.markout60sBps.toFixed(4), cell(r.error ?? '')].join(','),
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** A job for a sweep worker. */
export interface SweepJob {
  readonly index: number;
  readonly point: GridPoint;
  readonly spec: RunSpec;
}

/** Messages between the sweep and its workers. */
export type WorkerReply = { readonly index: number; readonly row: SweepRow };

/**
 * Runs jobs across `workers` worker threads (each loads the recordings once, from the binary sidecar
 * in `cacheDir` when there is one, then takes jobs one
 * at a time). Workers load the TypeScript sources through tsx's register API. Results come back in grid order.
 */
export async function runSweep(
  jobs: readonly SweepJob[],
  dataPaths: readonly string[],
  workers: number,
  baseDir: string,
  cacheDir: string | null,
  onRow?: (row: SweepRow, done: number) => void,
): Promise<SweepRow[]> {
  const rows: SweepRow[] = new Array<SweepRow>(jobs.length);
  let next = 0;
  let done = 0;
  const n = Math.max(1, Math.min(workers, jobs.length));
  // Workers load the TypeScript sources through tsx's API: a tiny bootstrap registers the loader,
  // then imports the worker module (execArgv --import does not reach worker threads on Node 20).
  const url = new URL('./sweep-worker.ts', import.meta.url);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`;
  await Promise.all(
    Array.from({ length: n }, () => {
      return new Promise<void>((resolve, reject) => {
        const w = new Worker(boot, { eval: true, workerData: { dataPaths, baseDir, cacheDir } });
        const feed = (): void => {
          const job = jobs[next++];
          if (!job) {
            void w.terminate().then(() => resolve());
            return;
          }
          w.postMessage(job);
        };
        w.on('message', (m: WorkerReply) => {
          rows[m.index] = m.row;
          done++;
          onRow?.(m.row, done);
          feed();
        });
        w.on('error', (e) => reject(new MmError('INVARIANT_BROKEN', `sweep worker failed: ${e.message}`, {}, { cause: e })));
        w.on('exit', (code) => (code === 0 || code === 1 ? undefined : reject(new MmError('INVARIANT_BROKEN', `sweep worker exited with code ${code}`))));
        feed();
      });
    }),
  );
  return rows;
}
