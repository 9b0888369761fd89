import { describe, expect, it } from 'vitest';
import { batchId, planBatches, slotsOfWorkerName, workerName } from '../../src/research/batch.ts';
import type { ResearchJob } from '../../src/research/job.ts';
import { account, accountingLines, type RunAccounting } from '../../src/research/run-accounting.ts';
import { parseCoordinatorAccount } from '../bench/sweep-accounting.ts';

/** A job as far as batching looks at it: its id and its data's fingerprints. */
const job = (id: string, data = 'sha256:a'): ResearchJob => ({ id, fingerprints: [data] }) as unknown as ResearchJob;
const jobs = (n: number, data?: string): ResearchJob[] => Array.from({ length: n }, (_, k) => job(`${data ?? 'j'}${k}`, data));

describe('planBatches (guided self-scheduling)', () => {
  it('cuts the 72-job sweep for 2 threads into 22 batches, large first, single jobs last, every job once in order', () => {
    const all = jobs(72);
    const batches = planBatches(all, 2);
    expect(batches.map((b) => b.length)).toEqual([9, 8, 7, 6, 6, 5, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(batches.flat()).toEqual(all);
  });

  it('for 1 thread, 13 batches; for more threads than jobs, single jobs', () => {
    expect(planBatches(jobs(72), 1).map((b) => b.length)).toEqual([18, 14, 10, 8, 6, 4, 3, 3, 2, 1, 1, 1, 1]);
    expect(planBatches(jobs(3), 8).map((b) => b.length)).toEqual([1, 1, 1]);
    expect(planBatches([], 2)).toEqual([]);
    expect(planBatches(jobs(4), 0).map((b) => b.length)).toEqual([1, 1, 1, 1]); // no worker known yet: as for one thread
  });

  it('never mixes data sets in a batch, and keeps each data set\'s jobs in order', () => {
    const a = jobs(5, 'sha256:a');
    const b = jobs(3, 'sha256:b');
    const batches = planBatches([a[0]!, b[0]!, ...a.slice(1), ...b.slice(1)], 1, 2);
    expect(batches.map((x) => x.map((j) => j.id))).toEqual([['sha256:a0', 'sha256:a1', 'sha256:a2'], ['sha256:a3'], ['sha256:a4'], ['sha256:b0', 'sha256:b1'], ['sha256:b2']]);
  });

  it('names a batch by its jobs\' ids in order', () => {
    const [x, y] = jobs(2);
    expect(batchId([x!, y!])).toBe(batchId([job('j0'), job('j1')]));
    expect(batchId([x!, y!])).not.toBe(batchId([y!, x!]));
    expect(batchId([x!])).toMatch(/^b[0-9a-f]{64}$/);
  });

  it('reads the threads a worker announces in its connection name (1 when it says nothing)', () => {
    expect(slotsOfWorkerName(`bull:bW1ib3Q:w:${workerName(3)}`)).toBe(3);
    expect(slotsOfWorkerName('bull:bW1ib3Q')).toBe(1);
    expect(slotsOfWorkerName(undefined)).toBe(1);
  });
});

describe('the run accounting', () => {
  it('adds batch replies by worker, and the bench reads back the lines the coordinator prints', () => {
    const acc: RunAccounting = { queuedJobs: 5, queuedBatches: 3, slots: 2, startMs: 1000, queuedMs: 1030, firstResultMs: 1250, lastResultMs: 2100, workers: new Map() };
    const timing = (cpuMs: number | null) => ({ loadMs: 10, setupMs: 5, replayMs: 300, reportMs: 20, cpuMs });
    account(acc, { worker: 'box:42', results: [], ran: 2, timing: timing(320) });
    account(acc, { worker: 'box:42', results: [], ran: 1, timing: timing(310) });
    account(acc, { worker: 'box:7', results: [], ran: 2, timing: timing(null) });
    const lines = accountingLines(acc);
    expect(lines).toEqual([
      '5 job(s) queued in 3 batch(es) for 2 thread(s) by 0.03 s; first result 0.25 s, last 1.10 s',
      'worker box:42: 3 job(s) in 2 batch(es); thread busy 0.67 s (load 0.02, setup 0.01, replay 0.60, report 0.04), thread CPU 0.63 s',
      'worker box:7: 2 job(s) in 1 batch(es); thread busy 0.34 s (load 0.01, setup 0.01, replay 0.30, report 0.02), thread CPU ?',
    ]);
    const stderr = ['sweep: writing to /x', 'sweep: time: coordinator CPU 0.07 s since planned (3.01 s in all), 1.06 s of wall', ...lines.map((l) => `sweep: time: ${l}`)].join('\n');
    expect(parseCoordinatorAccount(stderr)).toEqual({
      cpuSincePlannedS: 0.07,
      cpuTotalS: 3.01,
      queuedJobs: 5,
      batches: 3,
      slots: 2,
      queuedAtS: 0.03,
      firstResultS: 0.25,
      lastResultS: 1.1,
      workers: [
        { pid: 42, jobs: 3, batches: 2, busyS: 0.67, loadS: 0.02, setupS: 0.01, replayS: 0.6, reportS: 0.04, threadCpuS: 0.63 },
        { pid: 7, jobs: 2, batches: 1, busyS: 0.34, loadS: 0.01, setupS: 0.01, replayS: 0.3, reportS: 0.02, threadCpuS: null },
      ],
    });
    expect(parseCoordinatorAccount('sweep: writing to /x')).toBeNull();
  });
});
