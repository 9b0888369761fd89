/**
 * A research worker thread: runs the jobs it is sent (one at a time) on local recordings, keeping
 * the last few decoded data sets in memory. Started by `JobPool` through a bootstrap that
 * registers tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { executeJob, RecordingCache } from './job-exec.ts';
import type { ThreadReply, ThreadTask } from './job-pool.ts';

const { cacheDir, recordings } = workerData as { cacheDir: string | null; recordings: number };
const cache = new RecordingCache(recordings, cacheDir);
const port = parentPort!;

port.postMessage({ seq: 0, ready: true }); // modules loaded: JobPool.warm() waits for this

port.on('message', (task: ThreadTask) => {
  void executeJob(task.job, task.paths, cache).then((result) => port.postMessage({ seq: task.seq, result } satisfies ThreadReply));
});
