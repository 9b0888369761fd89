import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { MmError } from '../../core/errors.ts';
import { codeVersion } from '../../research/code-version.ts';
import { DEFAULT_QUEUE, parseBackend, redactUrl } from '../../research/redis-backend.ts';
import { startResearchWorker, type WorkerEvent } from '../../research/worker.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { backendErrorLog } from '../research-runner.ts';
import { replayCacheDir } from './backtest.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const usage = `usage: mmbot worker --backend redis://host:port [--concurrency <n>] [--queue <name>] [--cache-dir <dir>]
                    [--lock-ms <ms>] [--stalled-ms <ms>] [--max-stalled <n>] [--quiet]

Serves the research jobs \`mmbot sweep --backend redis://…\` enqueues (in batches over one data set),
on this machine: a batch's jobs run back to back on a worker thread (--concurrency at once; default
cores - 1), its data (paths, file:// or
http(s):// URLs) resolved here (URLs downloaded once into --cache-dir, default the replay cache),
its result written back to Redis (kept for the coordinator's --results-ttl, default 30 days). Start as many workers, on as many machines, as you like; they must
run the same mmbot checkout as the coordinator (jobs planned by other code are refused) and see the
same data (checked by content fingerprint).
  --lock-ms      a job whose worker stops renewing its lock for this long is run again elsewhere (default 30000)
  --stalled-ms   how often this worker looks for such jobs (default 30000)
  --max-stalled  times a job may be lost that way before it fails (default 3)
Ctrl-C / SIGTERM: stop taking jobs, finish the running ones, exit; a second one exits at once
(the running jobs go back to the queue when their locks expire).`;

const short = (id: string): string => id.slice(0, 12);

/** `mmbot worker`. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.worker,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['backend', 'concurrency', 'queue', 'cache-dir', 'lock-ms', 'stalled-ms', 'max-stalled'], boolean: ['quiet'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const spec = flagString(p, 'backend');
    if (!spec) throw new MmError('USAGE', '--backend redis://host:port is required');
    const backend = parseBackend(spec);
    if (backend.kind !== 'redis') throw new MmError('USAGE', '--backend: a worker serves a Redis queue (redis://host:port); the embedded backend needs no worker');
    const concurrency = flagInt(p, 'concurrency', 1, 256) ?? Math.max(1, availableParallelism() - 1);
    const queueName = flagString(p, 'queue') ?? DEFAULT_QUEUE;
    const quiet = p.flags.has('quiet');
    const say = (line: string): void => void process.stderr.write(`${line}\n`);
    const lockMs = flagInt(p, 'lock-ms', 200, 3_600_000);
    const stalledMs = flagInt(p, 'stalled-ms', 100, 3_600_000);
    const maxStalled = flagInt(p, 'max-stalled', 0, 1000);
    const startedMs = new Map<string, number>();
    let jobsDone = 0;
    const summary = (): string => {
      const c = process.cpuUsage(); // main thread and job threads together
      return `${jobsDone} job(s) done, ${((c.user + c.system) / 1e6).toFixed(2)} s of CPU`;
    };
    const onEvent = (e: WorkerEvent): void => {
      if (e.kind === 'start') startedMs.set(e.job.id, Date.now());
      const tookMs = e.kind === 'done' ? Date.now() - (startedMs.get(e.job.id) ?? Date.now()) : 0;
      if (e.kind === 'done') {
        startedMs.delete(e.job.id);
        jobsDone++;
      }
      if (e.kind === 'refused') say(`worker: refused ${short(e.jobId)}: ${e.reason}`); // the test greps this line
      else if (e.kind === 'retry') say(`worker: job ${short(e.jobId)} failed, will be retried: ${e.reason}`);
      else if (quiet) return;
      else if (e.kind === 'start') say(`worker: start ${short(e.job.id)} point ${e.job.index + 1} ${e.job.window.id}`);
      else say(`worker: done ${short(e.job.id)} point ${e.job.index + 1} ${e.job.window.id} in ${tookMs} ms${e.error ? ` (backtest error: ${e.error})` : ''}`);
    };
    const worker = await startResearchWorker({
      url: backend.url,
      queueName,
      concurrency,
      cacheDir: resolve(flagString(p, 'cache-dir') ?? replayCacheDir()),
      ...(lockMs === undefined ? {} : { lockDurationMs: lockMs }),
      ...(stalledMs === undefined ? {} : { stalledIntervalMs: stalledMs }),
      ...(maxStalled === undefined ? {} : { maxStalledCount: maxStalled }),
      onEvent,
      onError: backendErrorLog((line) => say(`worker: backend ${redactUrl(backend.url)}: ${line}`)),
    });
    say(`worker: serving queue ${queueName} on ${redactUrl(backend.url)} with ${concurrency} thread(s), code ${codeVersion()} (pid ${process.pid})`);
    return new Promise<number>((done) => {
      let stopping = false;
      const stop = (signal: string): void => {
        if (stopping) {
          say(`worker: ${signal} again: leaving the running jobs to other workers`);
          void worker.close(true).then(
            () => {
              say(`worker: stopped (${summary()})`);
              done(0);
            },
            () => done(1),
          );
          return;
        }
        stopping = true;
        say(`worker: ${signal}: finishing the running jobs (again to abandon them)`);
        void worker.close(false).then(
          () => {
            say(`worker: stopped (${summary()})`);
            done(0);
          },
          (e: unknown) => {
            say(`worker: close failed: ${e instanceof Error ? e.message : String(e)}`);
            done(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
    });
  },
};
