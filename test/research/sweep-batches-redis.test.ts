import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { batchId, planBatches, type BatchReply } from '../../src/research/batch.ts';
import { decodeJson, encodeJson } from '../../src/research/canonical.ts';
import { dataFingerprint } from '../../src/research/fingerprint.ts';
import { executeJob, RecordingCache } from '../../src/research/job-exec.ts';
import { makeJob, type JobResult, type ResearchJob } from '../../src/research/job.ts';
import { JOB_NAME, redisRunner } from '../../src/research/redis-runner.ts';
import { startResearchWorker, type ResearchWorker } from '../../src/research/worker.ts';
import { dataSpan, splitWindows } from '../../src/research/windows.ts';
import { needs } from '../setup/system-deps.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-batches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 6 points × 3 windows of the sample: 18 jobs. */
async function sampleJobs(): Promise<ResearchJob[]> {
  const fp = await dataFingerprint(SAMPLE, dir);
  const windows = splitWindows(await dataSpan([SAMPLE]), 3);
  const out: ResearchJob[] = [];
  for (const [h, levels] of [[1, 1], [1, 2], [2, 1], [2, 2], [3, 1], [3, 2]] as const) {
    const point = [['bot.strategies.0.params.halfSpreadTicks', h], ['bot.strategies.0.params.levels', levels]] as const;
    const setup = await loadBacktestSetup(join(ROOT, 'config/backtest.yaml'), point);
    for (const window of windows) out.push(makeJob({ index: out.length / 3, point, window, data: [SAMPLE], fingerprints: [fp], spec: setup.spec, baseDir: setup.config.source.dir }));
  }
  return out;
}

/** Runs `jobs` on a fresh queue served by `n` workers (one thread each) in this process; every result and the run's accounting. */
async function sweepWith(url: string, n: number, jobs: readonly ResearchJob[]): Promise<{ results: Map<string, JobResult>; perWorker: number[]; batches: number; slots: number; events: string[] }> {
  const queueName = `batches-${n}`;
  const workers: ResearchWorker[] = [];
  const events: string[] = []; // the first worker's job starts and ends
  for (let k = 0; k < n; k++)
    workers.push(
      await startResearchWorker({ url, queueName, concurrency: 1, cacheDir: join(dir, `cache-${n}-${k}`), ...(k === 0 ? { onEvent: (e) => (e.kind === 'start' || e.kind === 'done' ? events.push(`${e.kind} ${e.job.id}`) : undefined) } : {}) }),
    );
  const runner = await redisRunner({ url, queueName });
  try {
    const results = await runner.run(jobs);
    const acc = runner.accounting()!;
    return { results, perWorker: [...acc.workers.values()].map((w) => w.jobs).sort((a, b) => a - b), batches: acc.queuedBatches, slots: acc.slots, events };
  } finally {
    await runner.close();
    for (const w of workers) await w.close();
  }
}

describe.skipIf(!needs('redis'))('distributed sweeps in batches (real redis-server)', () => {
  let redis: TestRedis;
  let jobs: ResearchJob[];
  beforeAll(async () => {
    redis = await startRedis();
    jobs = await sampleJobs();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('1 and 2 workers give identical results, equal to each job run alone; batches are cut for the threads serving the queue', async () => {
    const one = await sweepWith(redis.url, 1, jobs);
    const two = await sweepWith(redis.url, 2, jobs);
    expect([one.slots, one.batches, two.slots, two.batches]).toEqual([1, planBatches(jobs, 1).length, 2, planBatches(jobs, 2).length]);
    expect([one.batches, two.batches]).toEqual([8, 12]);
    expect(one.perWorker).toEqual([18]);
    // The thread says only when a job ends; the worker still reports each start, in order, when the job before it ended.
    expect(one.events).toEqual(planBatches(jobs, 1).flat().flatMap((j) => [`start ${j.id}`, `done ${j.id}`]));
    expect(two.perWorker.reduce((a, b) => a + b, 0)).toBe(18);
    expect(two.results).toEqual(one.results);
    const local = new RecordingCache(1, null);
    for (const j of jobs) expect(one.results.get(j.id)).toEqual(await executeJob(j, [SAMPLE], local));
    expect(jobs.map((j) => one.results.get(j.id)!.row.fills)).toEqual([312, 306, 303, 430, 437, 418, 313, 252, 301, 222, 190, 216, 83, 87, 113, 34, 16, 7]);
  }, 180_000);

  it('a batch run again (its worker died after storing some results) runs only the jobs without a stored result', async () => {
    const queueName = 'batches-rerun';
    const worker = await startResearchWorker({ url: redis.url, queueName, concurrency: 1, cacheDir: join(dir, 'cache-rerun') });
    const queue = new Queue(queueName, { connection: { url: redis.url } });
    const events = new QueueEvents(queueName, { connection: { url: redis.url } });
    try {
      await events.waitUntilReady();
      const replies: BatchReply[] = [];
      let arrived: () => void = () => undefined;
      events.on('completed', ({ returnvalue }) => {
        replies.push(decodeJson<BatchReply>(returnvalue as unknown as string));
        arrived();
      });
      const done = (k: number): Promise<void> => new Promise((ok) => (arrived = () => (replies.length === k ? ok() : undefined)));
      const batch = jobs.slice(0, 3);
      // The first two jobs' results are stored (as by a worker that died in the batch), the third is not.
      const first = done(1);
      await queue.add(JOB_NAME, { jobs: encodeJson(batch.slice(0, 2)), resultsTtlS: 600 }, { jobId: batchId(batch.slice(0, 2)) });
      await first;
      const second = done(2);
      await queue.add(JOB_NAME, { jobs: encodeJson(batch), resultsTtlS: 600 }, { jobId: batchId(batch) });
      await second;
      expect(replies.map((r) => [r.ran, r.results.length])).toEqual([
        [2, 2],
        [1, 3],
      ]);
      expect(replies[1]!.results.slice(0, 2)).toEqual(replies[0]!.results);
      const local = new RecordingCache(1, null);
      for (const [k, j] of batch.entries()) expect(replies[1]!.results[k]).toEqual(await executeJob(j, [SAMPLE], local));
    } finally {
      await events.close();
      await queue.close();
      await worker.close();
    }
  }, 120_000);
});
