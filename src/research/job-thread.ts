/**
 * A research worker thread: runs the batches it is sent, their jobs one after the other, on local
 * recordings, keeping the last few decoded data sets in memory; reports each job's result as it
 * finishes and where the batch's time went (one message a job: the pool infers starts from the
 * order). Started by `JobPool` through a bootstrap that registers tsx.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { executeJob, RecordingCache } from './job-exec.ts';
import type { BatchTiming, ThreadReply, ThreadTask } from './job-pool.ts';

const { cacheDir, recordings } = workerData as { cacheDir: string | null; recordings: number };
const cache = new RecordingCache(recordings, cacheDir);
const port = parentPort!;
const clock = (): number => performance.now();

/** This thread's CPU time so far, ms (Linux: /proc/thread-self/schedstat, in ns), or null elsewhere. */
function threadCpuMs(): number | null {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

port.postMessage({ seq: 0, ready: true }); // modules loaded: JobPool.warm() waits for this

/** Runs one batch, reporting as it goes. */
async function runBatch(task: ThreadTask): Promise<void> {
  const cpu0 = threadCpuMs();
  const timing: BatchTiming = { loadMs: 0, setupMs: 0, replayMs: 0, reportMs: 0, cpuMs: null };
  for (const [k, item] of task.items.entries()) {
    const result = await executeJob(item.job, item.paths, cache, timing, clock);
    port.postMessage({ seq: task.seq, kind: 'result', k, result } satisfies ThreadReply);
  }
  const cpu1 = threadCpuMs();
  timing.cpuMs = cpu0 === null || cpu1 === null ? null : cpu1 - cpu0;
  port.postMessage({ seq: task.seq, kind: 'done', timing } satisfies ThreadReply);
}

// A batch sent while another runs waits for it: batches run one at a time, in the order sent.
let last: Promise<void> = Promise.resolve();
port.on('message', (task: ThreadTask) => {
  last = last.then(() => runBatch(task));
});
