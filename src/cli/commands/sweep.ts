import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { MmError } from '../../core/errors.ts';
import { codeVersion } from '../../research/code-version.ts';
import { isUrlRef } from '../../research/data-ref.ts';
import { halvingHtml, halvingJson, halvingTable } from '../../research/halving-report.ts';
import { heatAxes } from '../../research/heatmap.ts';
import { Journal, readPlan, writePlan } from '../../research/journal.ts';
import { writeLeaderboard } from '../../research/leaderboard-files.ts';
import type { Leaderboard } from '../../research/leaderboard.ts';
import { sharpeCell } from '../../research/leaderboard-html.ts';
import { parseDrawdownFloor, parseObjective } from '../../research/objective.ts';
import { claimOutDir } from '../../research/out-dir.ts';
import { DEFAULT_RESULTS_TTL_S, parseResultsTtl, ttlText } from '../../research/result-store.ts';
import { clearSweep } from '../sweep-clear.ts';
import { onStopSignal, signalExitCode } from '../stop-signal.ts';
import { pairRunner } from '../../research/pair-runner.ts';
import { startPool } from '../../research/embedded-runner.ts';
import { DEFAULT_QUEUE, parseBackend } from '../../research/redis-backend.ts';
import { accountingLines } from '../../research/run-accounting.ts';
import { runSearch } from '../../research/search-run.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { progressBar, tenthsLog } from '../progress.ts';
import { overfittingLine } from '../../research/selection-overfitting.ts';
import { journaledRunner, openRunner } from '../research-runner.ts';
import { prepareSweep, runsCsv, searchInput, type PreparedSweep, type SweepMeta } from '../sweep-plan.ts';
import { replayCacheDir } from './backtest.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

/** The ranking as a terminal table: axes, the objective, then the figures (the objective's own column once, not twice). */
export function printTable(lb: Leaderboard, limit: number, halving = false): string {
  const axes = lb.axes.map((p) => p.split('.').at(-1)!);
  type Fig = readonly [objective: string, head: string, cell: (e: Leaderboard['entries'][number]) => string];
  const figures: readonly Fig[] = [
    ['net', 'net', (e) => e.metrics.net.toFixed(2)],
    ['max_drawdown', 'maxDD', (e) => e.metrics.maxDrawdown.toFixed(2)],
    ['fills', 'fills', (e) => String(e.metrics.fills)],
    ['sharpe', 'sharpe', (e) => sharpeCell(e)],
  ];
  const shown = figures.filter(([o]) => o !== lb.objective);
  const head = ['#', ...axes, ...(halving ? ['rung'] : []), lb.objective, ...shown.map(([, h]) => h), 'windows'];
  const body = lb.entries.slice(0, limit).map((e) => [
    String(e.rank),
    ...e.point.map(([, v]) => (typeof v === 'string' ? v : JSON.stringify(v))),
    ...(halving ? [String(e.rung ?? '—')] : []),
    ...(e.windows === 0 && e.error ? [`error: ${e.error.slice(0, 60)}`] : [Number.isFinite(e.objective) ? e.objective.toFixed(3) : '—', ...shown.map(([, , cell]) => cell(e)), `${e.windows}${e.failed > 0 ? ` (${e.failed} failed: ${(e.error ?? '').slice(0, 40)})` : ''}`]),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (c: string[]): string => c.map((x, i) => x.padStart(widths[i] ?? 0)).join('  ');
  // Halving's "windows" are its nested rungs: the ranking is by the last rung each point reached.
  const title = halving ? `ranked by ${lb.objective}: points that reached a later rung first, then by their last rung's ${lb.objective} (figures of that rung; compare values only within a rung):` : `ranked by ${lb.objective} over ${lb.windows.length} window(s):`;
  return [title, line(head), ...body.map(line)].join('\n');
}

const usage = `usage: mmbot sweep --config <file> --grid <grid.yaml> [--data <path|url>]... [--windows <n> | --window from/to ...] [--backend embedded|redis://host:port]
                   [--workers <n>] [--queue <name>] [--out <dir> [--force]] [--top <n>] [--objective <o>] [--drawdown-floor <usd>] [--heatmap x,y]
                   [--results-ttl <dur>|never]
       mmbot sweep --resume <out dir> [--backend …] [--workers <n>] [--results-ttl <dur>|never]
       mmbot sweep --clear <out dir>|all [--backend redis://host:port] [--queue <name>]

Runs the backtest for every candidate of a grid file on every data window, ranks the candidates and
writes, to --out (default: a new folder under backtest.out_dir):
  leaderboard.csv / .json / .html   candidates ranked by the objective over all windows (heat map in the page)
  sweep.csv                         every run (point × window) with its figures
  halving.json                      successive halving: every rung (search: halving)
  sweep.json, results.jsonl         the plan and the results journal (for --resume)
  --data      recordings: paths, file:// or http(s):// URLs (downloaded once into the cache); default backtest.data
  --windows   split the data's time span into n equal consecutive windows (default 1; grid and random searches)
  --window    [name=]from/to: an explicit window instead (repeatable; epoch ms or ISO times, an empty side = the data's start or end)
  --backend   embedded (default): worker threads on this machine (--workers, default cores - 1);
              redis://host:port: enqueue the jobs on Redis for \`mmbot worker --backend …\` processes on
              any machine that can read the data (--queue <name>, default ${DEFAULT_QUEUE})
  --workers   embedded backend: worker threads (default cores - 1)
  --results-ttl  redis backend: how long results stay in Redis (default ${ttlText(DEFAULT_RESULTS_TTL_S)}: results only
              serve sweeps of the same code; the journal keeps this sweep's anyway), e.g. 12h, 90d, or
              never; results this sweep finds stored are renewed to it
  --clear     delete a finished sweep's results from its Redis backend (backend and queue from its
              sweep.json unless given) and take its waiting jobs off the queue; the folder is kept.
              --clear all --backend redis://…: every stored result of the queue
  --queue     redis backend: the BullMQ queue (default ${DEFAULT_QUEUE}; workers must serve the same one)
  --out       output folder (default: a new sweep-<time> folder under backtest.out_dir); the same
              sweep's folder again reuses its results.jsonl; a folder holding another sweep (other
              jobs) or a walk-forward is refused (exit 2, OUTPUT_IN_USE) unless --force
  --force     replace the other run an --out folder holds (its plan, journal and reports are deleted)
  --resume    continue a sweep whose coordinator stopped: runs only the jobs its journal (and Redis) lack
              (takes everything from the folder's sweep.json; --backend, --queue, --workers, --objective,
              --top and --heatmap may be given again)
  --objective pnl_over_drawdown (default) | net | net_with_rewards | sharpe | max_drawdown | fills | uptime | markout_60s
              (default: the grid file's objective / rank_by)
  --drawdown-floor  USD: pnl_over_drawdown divides by max(drawdown, this) (default: the grid file's
              drawdown_floor_usd, else 0.01): raise it when short windows' cent-sized drawdowns make
              the ratio swing (a flat run then scores net / floor instead of net × 100)
  --top       rows of the ranking printed (default 20; the files hold every point)
  --heatmap   x,y: the two grid axes of the page's heat map (default the first two; an axis's last
              segment is enough, e.g. halfSpreadTicks,levels)
Jobs are content-addressed (config, parameters, window, data and code version): a job already done
is never run again, a job retried after a worker died is counted once. Ctrl-C (or SIGTERM) stops,
keeping every result so far in results.jsonl, and prints the --resume command; exit codes: 0 all
runs ok, 1 a run failed (the ranking names it) or the backend/data was unreachable, 2 bad input
(flags, grid, config), 130 interrupted.
  grid.yaml:  grid: { bot.strategies.0.params.halfSpreadTicks: [1, 2, 3], backtest.queue_model.kind: [risk-averse, power2] }
              objective: pnl_over_drawdown
              (search: random | halving: see src/research/README.md)`;

/** `mmbot sweep`. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.sweep,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'grid', 'workers', 'out', 'top', 'backend', 'windows', 'resume', 'queue', 'objective', 'heatmap', 'results-ttl', 'clear', 'drawdown-floor'], boolean: ['force'], repeated: ['data', 'window'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const clear = flagString(p, 'clear');
    if (clear !== undefined) {
      for (const f of p.flags.keys()) if (!['clear', 'backend', 'queue'].includes(f)) throw new MmError('USAGE', `--clear takes only --backend and --queue: drop --${f}`);
      if (p.lists.size > 0) throw new MmError('USAGE', `--clear takes only --backend and --queue: drop --${[...p.lists.keys()][0]}`);
      process.stdout.write(`${await clearSweep({ target: clear, backend: flagString(p, 'backend'), queue: flagString(p, 'queue') })}\n`);
      return 0;
    }
    const resumeDir = flagString(p, 'resume');
    const cacheDir = replayCacheDir();
    let meta: SweepMeta;
    let out: string;
    let plannedIds: ReadonlySet<string> | null = null;
    const objectiveFlag = flagString(p, 'objective');
    // Every flag is checked before anything is planned, written or run.
    const workers = flagInt(p, 'workers', 1, 256) ?? Math.max(1, availableParallelism() - 1);
    const top = flagInt(p, 'top', 1, 100_000) ?? 20;
    const ttlFlag = flagString(p, 'results-ttl');
    const resultsTtlS = ttlFlag === undefined ? undefined : parseResultsTtl(ttlFlag);
    const floorFlag = flagString(p, 'drawdown-floor');
    const drawdownFloorUsd = floorFlag === undefined ? undefined : parseDrawdownFloor(floorFlag, '--drawdown-floor', 'USAGE');
    if (resumeDir) {
      for (const f of ['config', 'grid', 'data', 'windows', 'window', 'out', 'force']) if (p.flags.has(f) || p.lists.has(f)) throw new MmError('USAGE', `--resume takes the plan from ${resumeDir}/sweep.json: drop --${f}`);
      out = resolve(resumeDir);
      const plan = readPlan(out);
      if (plan.codeVersion !== codeVersion())
        throw new MmError('JOB_REFUSED', `${out}/sweep.json was planned by mmbot code ${plan.codeVersion}; this is ${codeVersion()}: results of different code must not mix (start a new sweep)`);
      meta = plan.meta as unknown as SweepMeta;
      plannedIds = new Set(plan.jobs.map((j) => j.id));
      const b = flagString(p, 'backend');
      const q = flagString(p, 'queue');
      meta = { ...meta, ...(resultsTtlS === undefined ? {} : { resultsTtlS }), ...(drawdownFloorUsd === undefined ? {} : { drawdownFloorUsd }), ...(b === undefined ? {} : { backend: b }), ...(q === undefined ? {} : { queue: q }), ...(objectiveFlag === undefined ? {} : { objective: parseObjective(objectiveFlag, '--objective', 'USAGE') }) };
    } else {
      const config = flagString(p, 'config');
      const grid = flagString(p, 'grid');
      if (!config || !grid) throw new MmError('USAGE', '--config and --grid are required (or --resume <dir>)');
      meta = {
        config: resolve(config),
        grid: resolve(grid),
        data: (p.lists.get('data') ?? []).map((d) => (isUrlRef(d) ? d : resolve(d))),
        windowCount: flagInt(p, 'windows', 1, 10_000) ?? 1,
        explicit: p.lists.get('window') ?? [],
        objective: objectiveFlag === undefined ? null : parseObjective(objectiveFlag, '--objective', 'USAGE'),
        backend: flagString(p, 'backend') ?? 'embedded',
        queue: flagString(p, 'queue') ?? DEFAULT_QUEUE,
        ...(resultsTtlS === undefined ? {} : { resultsTtlS }),
        ...(drawdownFloorUsd === undefined ? {} : { drawdownFloorUsd }),
      };
      out = ''; // set once planned (the default folder is under the config's out_dir)
    }
    parseBackend(meta.backend); // a bad URL fails before any planning
    // Embedded: the threads start (loading their modules) while the sweep is planned, not after it.
    const pool = meta.backend === 'embedded' ? startPool(workers, cacheDir) : null;
    let prep: PreparedSweep;
    let heat: ReturnType<typeof heatAxes>;
    try {
      prep = await prepareSweep(meta, cacheDir);
      if (plannedIds !== null && (prep.firstJobs.length !== plannedIds.size || prep.firstJobs.some((j) => !plannedIds.has(j.id))))
        throw new MmError('CONFIG_INVALID', `cannot resume ${out}: the config, grid file or data changed since the sweep was planned (its jobs differ); start a new sweep`);
      heat = heatAxes(prep.axes, flagString(p, 'heatmap'));
      if (!resumeDir) {
        const outFlag = flagString(p, 'out');
        out = outFlag ? resolve(outFlag) : join(prep.outDirParent, `sweep-${Date.now()}`);
        mkdirSync(out, { recursive: true });
        // Another sweep's folder (or a walk-forward's) is refused: its journal must not mix with ours.
        const replaced = claimOutDir(out, new Set(prep.firstJobs.map((j) => j.id)), p.flags.has('force'), 'this sweep');
        if (replaced !== null) process.stderr.write(`sweep: --force: replaced ${replaced} in ${out}\n`);
        writePlan(out, { format: 'mmbot-sweep', version: 1, codeVersion: codeVersion(), meta: meta as unknown as Record<string, unknown>, jobs: prep.firstJobs });
      }
    } catch (e) {
      await pool?.close(); // its threads would keep the process alive
      throw e;
    }
    const { runner: inner, where, accounting } = await openRunner(meta.backend, { workers, cacheDir, queue: meta.queue, label: 'sweep', pool, ...(meta.resultsTtlS === undefined ? {} : { resultsTtlS: meta.resultsTtlS }) });
    const journal = new Journal(out);
    const runner = journaledRunner(prep.scoring(inner), journal);
    const already = journal.done.size;
    const shape = prep.rungs === null ? `${prep.points.length} points × ${prep.windows.length} window(s) = ${prep.expectedJobs} jobs` : `successive halving: ${prep.points.length} candidates over ${prep.rungs.length} rungs, ≤ ${prep.expectedJobs} jobs`;
    process.stderr.write(`sweep: ${shape} on ${where}${already > 0 ? `; ${already} done already (journal)` : ''}\nsweep: writing to ${out} (if this stops: mmbot sweep --resume ${out})\n`);
    const total = prep.expectedJobs;
    const bar = progressBar('sweep', process.stderr, Math.min(already, total));
    const tty = process.stderr.isTTY === true;
    const startMs = Date.now();
    const cpuAtStart = process.cpuUsage();
    let seen = 0; // jobs of earlier batches (halving rungs)
    let batchTotal = 0;
    let phaseNow = '';
    let fresh = 0;
    const log = tenthsLog(total, already, startMs);
    let failed = 0;
    let outcome;
    // Ctrl-C / SIGTERM: every result so far is in the journal (appended synchronously as it
    // arrives); say how to continue and stop. A second signal kills as usual.
    const offSignal = onStopSignal((signal) => {
      bar.end();
      const redis = meta.backend !== 'embedded' ? ' (jobs already queued stay on the backend; its workers keep running them)' : '';
      process.stderr.write(`${tty ? '\n' : ''}sweep: ${signal}: stopped with ${journal.done.size} of ${total} results in ${journal.file}${redis}\nsweep: continue with: mmbot sweep --resume ${out}\n`);
      process.exit(signalExitCode(signal));
    });
    try {
      const run = pairRunner(runner, prep.points, prep.make, (phase, r, done, n) => {
        if (phase !== phaseNow) {
          seen += batchTotal;
          phaseNow = phase;
        }
        batchTotal = n;
        fresh++;
        const all = Math.min(total, seen + done);
        if (r.row.error !== null) failed++;
        bar.update(all, total, `${phase === 'all' ? '' : `rung ${phase} `}${failed > 0 ? `${failed} failed` : ''}`);
        if (r.row.error !== null) process.stderr.write(`${tty ? '\n' : ''}  point ${r.row.index + 1} ${r.windowId} failed: ${r.row.error}\n`);
        // Without a terminal: a line per tenth, with the ETA from this session's pace.
        const note = tty ? null : log(all, fresh, Date.now());
        if (note !== null) process.stderr.write(`${note}\n`);
      });
      outcome = await runSearch(searchInput(prep), run);
    } finally {
      offSignal();
      bar.end();
      await runner.close();
    }
    const lb = outcome.leaderboard;
    const notes = [`config ${meta.config}; grid ${meta.grid}; data ${prep.data.join(', ')}`];
    const files = writeLeaderboard(out, lb, { title: 'mmbot sweep', heatmap: heat, notes, ...(outcome.rungs ? { sections: [halvingHtml(outcome.rungs, lb.objective)] } : {}) });
    writeFileSync(join(out, 'sweep.csv'), runsCsv(prep.axes, runner.jobs, runner.results));
    if (outcome.rungs) writeFileSync(join(out, 'halving.json'), halvingJson(outcome.rungs));
    const wallS = (Date.now() - startMs) / 1000;
    // Where a distributed sweep's time went (the bench reads these lines): the coordinator's CPU since
    // the plan was made (queueing, collecting, the reports) and the workers' own accounting.
    const acc = accounting?.();
    if (acc) {
      const cpu = process.cpuUsage(cpuAtStart);
      const total = process.cpuUsage();
      process.stderr.write(`sweep: time: coordinator CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s since planned (${((total.user + total.system) / 1e6).toFixed(2)} s in all), ${wallS.toFixed(2)} s of wall\n`);
      for (const line of accountingLines(acc)) process.stderr.write(`sweep: time: ${line}\n`);
    }
    process.stdout.write(
      `${outcome.rungs ? `${halvingTable(outcome.rungs)}\n` : ''}${printTable(lb, top, outcome.rungs !== undefined && outcome.rungs !== null)}\n${overfittingLine(lb)}\n${fresh} new result(s) in ${wallS.toFixed(1)} s, ${runner.jobs.length} jobs in the sweep; wrote ${files.html}, ${files.csv}, ${join(out, 'sweep.csv')}\n`,
    );
    return [...runner.results.values()].every((r) => r.row.error === null) ? 0 : 1;
  },
};
