import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { MmError } from '../../core/errors.ts';
import { codeVersion } from '../../research/code-version.ts';
import { embeddedRunner } from '../../research/embedded-runner.ts';
import type { JobResult } from '../../research/job.ts';
import { Journal, readPlan, runJournaled, writePlan } from '../../research/journal.ts';
import { writeLeaderboard } from '../../research/leaderboard-files.ts';
import type { Leaderboard } from '../../research/leaderboard.ts';
import { parseObjective } from '../../research/objective.ts';
import { DEFAULT_QUEUE, parseBackend, redactUrl } from '../../research/redis-backend.ts';
import { redisRunner } from '../../research/redis-runner.ts';
import type { JobRunner } from '../../research/runner.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import { candidatePoints, loadSearchFile } from '../../research/search-file.ts';
import type { Command } from '../main.ts';
import { formatDuration, progressBar } from '../progress.ts';
import { planSweep, runsCsv, sweepLeaderboard, type SweepMeta } from '../sweep-plan.ts';
import { replayCacheDir } from './backtest.ts';

function printTable(lb: Leaderboard, limit: number): string {
  const axes = lb.axes.map((p) => p.split('.').at(-1)!);
  const head = ['#', ...axes, lb.objective, 'net', 'maxDD', 'fills', 'sharpe', 'windows'];
  const body = lb.entries.slice(0, limit).map((e) => [
    String(e.rank),
    ...e.point.map(([, v]) => (typeof v === 'string' ? v : JSON.stringify(v))),
    ...(e.windows === 0 && e.error ? [`error: ${e.error.slice(0, 60)}`] : [Number.isFinite(e.objective) ? e.objective.toFixed(3) : '—', e.metrics.net.toFixed(2), e.metrics.maxDrawdown.toFixed(2), String(e.metrics.fills), e.metrics.sharpe.toFixed(2), `${e.windows}${e.failed > 0 ? ` (${e.failed} failed: ${(e.error ?? '').slice(0, 40)})` : ''}`]),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (c: string[]): string => c.map((x, i) => x.padStart(widths[i] ?? 0)).join('  ');
  return [`ranked by ${lb.objective} over ${lb.windows.length} window(s):`, line(head), ...body.map(line)].join('\n');
}

const usage = `usage: mmbot sweep --config <file> --grid <grid.yaml> [--data <path|url>]... [--windows <n>] [--backend embedded|redis://host:port] [--workers <n>] [--out <dir>] [--top <n>] [--objective <o>]
       mmbot sweep --resume <out dir> [--backend …] [--workers <n>]

Runs the backtest for every point of a parameter grid on every data window, ranks the points and
writes, to --out (default: a new folder under backtest.out_dir):
  leaderboard.csv / .json / .html   points ranked by the objective over all windows (heat map in the page)
  sweep.csv                         every run (point × window) with its figures
  sweep.json, results.jsonl         the plan and the results journal (for --resume)
  --data      recordings: paths, file:// or http(s):// URLs (downloaded once into the cache); default backtest.data
  --windows   split the data's time span into n equal consecutive windows (default 1)
  --backend   embedded (default): worker threads on this machine (--workers, default cores - 1);
              redis://host:port: enqueue the jobs on Redis for \`mmbot worker --backend …\` processes on
              any machine that can read the data (--queue <name>, default ${DEFAULT_QUEUE})
  --resume    continue a sweep whose coordinator stopped: runs only the jobs its journal (and Redis) lack
  --objective pnl_over_drawdown (default) | net | net_with_rewards | sharpe | max_drawdown | fills | uptime | markout_60s
              (default: the grid's rank_by)
Jobs are content-addressed (config, parameters, window, data and code version): a job already done
is never run again, a job retried after a worker died is counted once.
  grid.yaml:  grid: { bot.strategies.0.params.halfSpreadTicks: [1, 2, 3], backtest.queue_model.kind: [risk-averse, power2] }
              objective: pnl_over_drawdown
              (search: random with samples: n and distributions draws n points instead: see src/research/README.md)`;

/** `mmbot sweep`. */
export const command: Command = {
  summary: 'run a parameter grid over data windows (worker threads or Redis workers) and rank it',
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'grid', 'workers', 'out', 'top', 'backend', 'windows', 'resume', 'queue', 'objective'], repeated: ['data'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const resumeDir = flagString(p, 'resume');
    const cacheDir = replayCacheDir();
    let meta: SweepMeta;
    let jobs;
    let out: string;
    if (resumeDir) {
      for (const f of ['config', 'grid', 'data', 'windows', 'out']) if (p.flags.has(f) || p.lists.has(f)) throw new MmError('USAGE', `--resume takes the plan from ${resumeDir}/sweep.json: drop --${f}`);
      out = resolve(resumeDir);
      const plan = readPlan(out);
      if (plan.codeVersion !== codeVersion())
        throw new MmError('JOB_REFUSED', `${out}/sweep.json was planned by mmbot code ${plan.codeVersion}; this is ${codeVersion()}: results of different code must not mix (start a new sweep)`);
      meta = plan.meta as unknown as SweepMeta;
      jobs = [...plan.jobs];
      const backendFlag = flagString(p, 'backend');
      if (backendFlag !== undefined) meta = { ...meta, backend: backendFlag };
      const objective = flagString(p, 'objective');
      if (objective !== undefined) meta = { ...meta, objective: parseObjective(objective, '--objective', 'USAGE') };
    } else {
      const file = flagString(p, 'config');
      const gridFile = flagString(p, 'grid');
      if (!file || !gridFile) throw new MmError('USAGE', '--config and --grid are required (or --resume <dir>)');
      const backend = flagString(p, 'backend') ?? 'embedded';
      parseBackend(backend); // a bad URL fails before any planning
      const search = loadSearchFile(gridFile);
      if (search.search === 'halving') throw new MmError('USAGE', `${gridFile}: search: halving picks its own windows: mmbot sweep runs search: grid or random`);
      const objective = flagString(p, 'objective');
      const grid = { points: candidatePoints(search), axes: search.axes.map((a) => a.path), objective: objective === undefined ? search.objective : parseObjective(objective, '--objective', 'USAGE') };
      const planned = await planSweep(file, gridFile, grid, p.lists.get('data') ?? [], flagInt(p, 'windows', 1, 10_000) ?? 1, cacheDir);
      meta = { ...planned.meta, backend };
      jobs = planned.jobs;
      const outFlag = flagString(p, 'out');
      out = outFlag ? resolve(outFlag) : join(planned.outDirParent, `sweep-${Date.now()}`);
      mkdirSync(out, { recursive: true });
      writePlan(out, { format: 'mmbot-sweep', version: 1, codeVersion: codeVersion(), meta: meta as unknown as Record<string, unknown>, jobs });
    }
    const backend = parseBackend(meta.backend);
    const workers = flagInt(p, 'workers', 1, 256) ?? Math.max(1, availableParallelism() - 1);
    const queue = flagString(p, 'queue') ?? DEFAULT_QUEUE;
    const runner: JobRunner =
      backend.kind === 'embedded'
        ? embeddedRunner({ workers, cacheDir })
        : await redisRunner({ url: backend.url, queueName: queue, onError: (e) => process.stderr.write(`\nsweep: backend ${redactUrl(backend.url)}: ${e.message} (reconnecting)\n`) });
    const journal = new Journal(out);
    const where = backend.kind === 'embedded' ? `${Math.min(workers, jobs.length)} worker thread(s)` : `${redactUrl(backend.url)} (queue ${queue})`;
    const already = jobs.filter((j) => journal.done.has(j.id)).length;
    process.stderr.write(`sweep: ${meta.points.length} points × ${meta.windows.length} window(s) = ${jobs.length} jobs on ${where}${already > 0 ? `; ${already} done already (journal)` : ''}\n`);
    const bar = progressBar('sweep', process.stderr, already);
    const tty = process.stderr.isTTY === true;
    const startMs = Date.now();
    let nextNote = 0.1;
    let failed = 0;
    let results: Map<string, JobResult>;
    try {
      results = await runJournaled(runner, jobs, journal, (r, done, total) => {
        if (r.row.error !== null) failed++;
        bar.update(done, total, failed > 0 ? `${failed} failed` : '');
        if (r.row.error !== null) process.stderr.write(`${tty ? '\n' : ''}  point ${r.row.index + 1} ${r.windowId} failed: ${r.row.error}\n`);
        if (!tty && (done / total >= nextNote || done === total)) {
          // Without a terminal: a line per tenth, with the ETA from this session's pace.
          while (done / total >= nextNote) nextNote += 0.1;
          const fresh = done - already;
          const etaS = fresh > 0 ? ((Date.now() - startMs) / 1000 / fresh) * (total - done) : NaN;
          process.stderr.write(`  ${done}/${total}${Number.isFinite(etaS) && done < total ? ` ETA ${formatDuration(etaS)}` : ''}\n`);
        }
      });
    } finally {
      bar.end();
      await runner.close();
    }
    const lb = sweepLeaderboard(meta, jobs, results);
    const files = writeLeaderboard(out, lb, { title: 'mmbot sweep', heatmap: lb.axes.length === 0 ? null : [lb.axes[0]!, lb.axes[1] ?? null], notes: [`config ${meta.config}; grid ${meta.grid}; data ${meta.data.join(', ')}`] });
    writeFileSync(join(out, 'sweep.csv'), runsCsv(meta, jobs, results));
    const wallS = (Date.now() - startMs) / 1000;
    process.stdout.write(`${printTable(lb, flagInt(p, 'top', 1, 100_000) ?? 20)}\n${jobs.length - already} jobs in ${wallS.toFixed(1)} s; wrote ${files.html}, ${files.csv}, ${join(out, 'sweep.csv')}\n`);
    return [...results.values()].every((r) => r.row.error === null) ? 0 : 1;
  },
};
