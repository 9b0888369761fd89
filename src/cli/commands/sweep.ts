import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { MmError } from '../../core/errors.ts';
import { expandGrid, rankRows, RANK_KEYS, runSweep, sweepCsv, type GridAxis, type RankKey, type SweepJob, type SweepRow } from '../../backtest/sweep.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { loadBacktestSetup, replayCacheDir } from './backtest.ts';
import { loadColumnar } from '../../record/columnar.ts';

/** A parsed grid file. */
export interface GridFile {
  readonly axes: readonly GridAxis[];
  readonly rankBy: RankKey;
}

/**
 * Reads a grid file: `grid:` maps dotted config paths to lists of values; `rank_by:` one of
 * RANK_KEYS (default net_with_rewards).
 * @throws MmError FILE_NOT_FOUND or CONFIG_INVALID naming the file and key.
 */
export function loadGrid(file: string): GridFile {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new MmError('FILE_NOT_FOUND', `cannot read grid ${file}: ${code}`, { file });
    throw new MmError('CONFIG_INVALID', `${file}: not YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { file });
  }
  const o = (raw ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'grid' && k !== 'rank_by') throw new MmError('CONFIG_INVALID', `${file}: unknown key "${k}" (expected grid, rank_by)`, { file, path: k });
  const grid = o['grid'];
  if (typeof grid !== 'object' || grid === null || Array.isArray(grid) || Object.keys(grid).length === 0)
    throw new MmError('CONFIG_INVALID', `${file}: grid: expected a mapping of config paths to lists of values`, { file, path: 'grid' });
  const axes = Object.entries(grid as Record<string, unknown>).map(([path, values]) => {
    if (!Array.isArray(values) || values.length === 0) throw new MmError('CONFIG_INVALID', `${file}: grid.${path}: expected a non-empty list of values`, { file, path: `grid.${path}` });
    if (!/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(path)) throw new MmError('CONFIG_INVALID', `${file}: grid.${path}: expected a dotted path like bot.strategies.0.params.size`, { file });
    return { path, values };
  });
  const rankBy = (o['rank_by'] ?? 'net_with_rewards') as RankKey;
  if (!RANK_KEYS.includes(rankBy)) throw new MmError('CONFIG_INVALID', `${file}: rank_by: expected one of ${RANK_KEYS.join(', ')}, got ${JSON.stringify(o['rank_by'])}`, { file, path: 'rank_by' });
  return { axes, rankBy };
}

function printTable(rows: readonly SweepRow[], rankBy: RankKey, limit: number): string {
  const axes = rows[0]?.point.map(([p]) => p.split('.').at(-1)!) ?? [];
  const head = ['#', ...axes, 'net', 'net+rew', 'sharpe', 'maxDD', 'fills', 'maker', 'uptime2', 'mk60bps'];
  const body = rows.slice(0, limit).map((r, k) => [
    String(k + 1),
    ...r.point.map(([, v]) => (typeof v === 'string' ? v : JSON.stringify(v))),
    ...(r.error ? [`error: ${r.error.slice(0, 60)}`] : [r.net.toFixed(2), r.netWithRewards.toFixed(2), r.sharpe.toFixed(2), r.maxDrawdown.toFixed(2), String(r.fills), r.makerShare.toFixed(2), r.uptimeTwoSided.toFixed(2), Number.isNaN(r.markout60sBps) ? '—' : r.markout60sBps.toFixed(3)]),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (c: string[]): string => c.map((x, i) => x.padStart(widths[i] ?? 0)).join('  ');
  return [`ranked by ${rankBy}:`, line(head), ...body.map(line)].join('\n');
}

const usage = `usage: mmbot sweep --config <file> --grid <grid.yaml> [--data <file>]... [--workers <n>] [--out <dir>] [--top <n>]

Runs the backtest once per point of a parameter grid, across worker threads, and writes a ranked
table (sweep.csv) to --out (default: a new folder under backtest.out_dir) and prints the top rows.
  grid.yaml:  grid: { bot.strategies.0.params.halfSpreadTicks: [1, 2, 3], backtest.queue_model.kind: [risk-averse, power2] }
              rank_by: net_with_rewards | net | sharpe | max_drawdown | fills | uptime | markout_60s`;

/** `mmbot sweep`. */
export const command: Command = {
  summary: 'run a backtest parameter grid across worker threads and rank the results',
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'grid', 'workers', 'out', 'top'], repeated: ['data'] });
    const data = p.lists.get('data') ?? [];
    const file = flagString(p, 'config');
    const gridFile = flagString(p, 'grid');
    if (!file || !gridFile) throw new MmError('USAGE', '--config and --grid are required');
    const grid = loadGrid(gridFile);
    const points = expandGrid(grid.axes);
    // Every point is validated here first, so a bad value fails fast with the config's own error.
    const jobs: SweepJob[] = [];
    let base: Awaited<ReturnType<typeof loadBacktestSetup>> | undefined;
    for (const [index, point] of points.entries()) {
      let setup;
      try {
        setup = await loadBacktestSetup(file, point);
      } catch (e) {
        const where = point.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
        if (e instanceof MmError) throw new MmError(e.code, `grid point ${index + 1} (${where}): ${e.message}`, { ...e.details });
        throw e;
      }
      base ??= setup;
      jobs.push({ index, point, spec: setup.spec });
    }
    const paths = data.length > 0 ? data.map((d) => resolve(d)) : base!.dataPaths;
    if (paths.length === 0) throw new MmError('USAGE', `no recording: pass --data or set backtest.data in ${file}`);
    const workers = flagInt(p, 'workers', 1, 256) ?? Math.max(1, availableParallelism() - 1);
    // Decode once here (and leave the binary sidecar), so workers load columns instead of JSON.
    const cacheDir = replayCacheDir();
    await loadColumnar(paths, { cacheDir });
    process.stderr.write(`sweep: ${jobs.length} runs on ${Math.min(workers, jobs.length)} worker(s)\n`);
    const rows = await runSweep(jobs, paths, workers, base!.config.source.dir, cacheDir, (row, done) => {
      process.stderr.write(`  ${done}/${jobs.length}${row.error ? ` (point ${row.index + 1} failed: ${row.error})` : ''}\n`);
    });
    const ranked = rankRows(rows, grid.rankBy);
    const outFlag = flagString(p, 'out');
    const out = outFlag ? resolve(outFlag) : join(resolve(base!.section.out_dir), `sweep-${Date.now()}`);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'sweep.csv'), sweepCsv(ranked));
    process.stdout.write(`${printTable(ranked, grid.rankBy, flagInt(p, 'top', 1, 100_000) ?? 20)}\nwrote ${join(out, 'sweep.csv')}\n`);
    return ranked.every((r) => r.error === null) ? 0 : 1;
  },
};
