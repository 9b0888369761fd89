import type { ColumnarRecording } from '../record/columnar.ts';
import { executeJob, recordingKey, RecordingCache } from './job-exec.ts';
import { relabel, type JobResult } from './job.ts';
import { distinctJobs, type JobRunner } from './runner.ts';

/**
 * Runs jobs one after the other on this thread, on local paths (no URLs): `--jobs 1`, where a
 * worker thread would only add its start-up. `preloaded`: a recording the caller already decoded
 * for these paths (used as is, so the data is decoded once).
 */
export function inProcessRunner(cacheDir: string | null, preloaded?: { readonly paths: readonly string[]; readonly data: ColumnarRecording }): JobRunner {
  const cache = new RecordingCache(2, cacheDir);
  const key = preloaded ? recordingKey(preloaded.paths) : null;
  const view = { get: (paths: readonly string[]) => (preloaded && recordingKey(paths) === key ? Promise.resolve(preloaded.data) : cache.get(paths)) } as RecordingCache;
  return {
    async run(jobs, onResult) {
      const todo = distinctJobs(jobs);
      const results = new Map<string, JobResult>();
      for (const job of todo) {
        results.set(job.id, relabel(job, await executeJob(job, job.data, view)));
        onResult?.(results.get(job.id)!, results.size, todo.length);
      }
      return results;
    },
    close: async () => undefined,
  };
}
