import { embeddedRunner } from '../research/embedded-runner.ts';
import type { JobPool } from '../research/job-pool.ts';
import type { JobResult, ResearchJob } from '../research/job.ts';
import { Journal, runJournaled } from '../research/journal.ts';
import { DEFAULT_QUEUE, parseBackend, redactUrl } from '../research/redis-backend.ts';
import { redisRunner } from '../research/redis-runner.ts';
import { DEFAULT_RESULTS_TTL_S, ttlText } from '../research/result-store.ts';
import type { JobRunner } from '../research/runner.ts';
import type { RunAccounting } from '../research/run-accounting.ts';

/**
 * Reports backend connection errors without flooding the log while Redis is down (the client
 * retries every few hundred ms): the first of a kind at once, repeats at most every 30 s with a count.
 */
export function backendErrorLog(say: (line: string) => void, intervalMs = 30_000): (e: Error) => void {
  let last = '';
  let lastMs = 0;
  let repeats = 0;
  return (e) => {
    const now = Date.now();
    if (e.message === last && now - lastMs < intervalMs) {
      repeats++;
      return;
    }
    if (e.message === last) say(`${e.message} (reconnecting${repeats > 0 ? `; ${repeats} more since the last report` : ''})`);
    else {
      if (repeats > 0) say(`${last} (${repeats} more time(s))`);
      say(`${e.message} (reconnecting)`);
    }
    last = e.message;
    lastMs = now;
    repeats = 0;
  };
}

/**
 * The JobRunner a `--backend` value names: `embedded` (worker threads here) or `redis://…` (jobs
 * for `mmbot worker` processes). Commands share it, so every research command runs on either.
 * @throws MmError USAGE (bad value), BACKEND_UNAVAILABLE (Redis unreachable).
 */
export async function openRunner(
  backend: string,
  opts: { readonly workers: number; readonly cacheDir: string; readonly queue: string; readonly label: string; readonly resultsTtlS?: number | null; readonly pool?: JobPool | null },
): Promise<{ runner: JobRunner; where: string; accounting?: () => RunAccounting | null }> {
  const b = parseBackend(backend);
  if (b.kind === 'embedded') return { runner: embeddedRunner({ workers: opts.workers, cacheDir: opts.cacheDir, ...(opts.pool ? { pool: opts.pool } : {}) }), where: `${opts.workers} worker thread(s)` };
  await opts.pool?.close();
  const ttl = opts.resultsTtlS === undefined ? DEFAULT_RESULTS_TTL_S : opts.resultsTtlS;
  const runner = await redisRunner({ url: b.url, queueName: opts.queue, resultsTtlS: ttl, clock: () => performance.now(), onError: backendErrorLog((line) => process.stderr.write(`\n${opts.label}: backend ${redactUrl(b.url)}: ${line}\n`)) });
  const workers = await runner.workerCount();
  if (workers === 0) process.stderr.write(`${opts.label}: no mmbot worker serves queue ${opts.queue} on ${redactUrl(b.url)} yet: the jobs wait until one starts (mmbot worker --backend ${redactUrl(b.url)}${opts.queue === DEFAULT_QUEUE ? '' : ` --queue ${opts.queue}`})\n`);
  return { runner, where: `${redactUrl(b.url)} (queue ${opts.queue}, ${workers} worker(s) connected, results kept ${ttlText(ttl)})`, accounting: () => runner.accounting() };
}

/**
 * A runner that journals every result in `journal` and skips jobs it already holds (resume), and
 * remembers every job it was given in order with its result (the sweep's run table).
 */
export function journaledRunner(inner: JobRunner, journal: Journal): JobRunner & { readonly jobs: ResearchJob[]; readonly results: Map<string, JobResult> } {
  const jobs: ResearchJob[] = [];
  const results = new Map<string, JobResult>();
  return {
    jobs,
    results,
    async run(batch, onResult) {
      const out = await runJournaled(inner, batch, journal, onResult);
      for (const j of batch) if (!results.has(j.id)) jobs.push(j);
      for (const [id, r] of out) results.set(id, r);
      return out;
    },
    close: () => inner.close(),
  };
}
