import type { JobResult, ResearchJob } from './job.ts';

/** Called once per job as its result arrives, with the count of distinct jobs done so far. */
export type ResultCallback = (result: JobResult, done: number, total: number) => void;

/**
 * Runs research jobs somewhere (worker threads here, worker processes behind Redis) and collects
 * one result per distinct job id: a job reported twice (a retried job whose first run also
 * finished) counts once.
 */
export interface JobRunner {
  /** Runs `jobs` (duplicate ids run once) and resolves with every result by job id. */
  run(jobs: readonly ResearchJob[], onResult?: ResultCallback): Promise<Map<string, JobResult>>;
  /** Releases threads and connections. */
  close(): Promise<void>;
}

/** The distinct jobs of a list, first occurrence kept. */
export function distinctJobs(jobs: readonly ResearchJob[]): ResearchJob[] {
  const seen = new Set<string>();
  return jobs.filter((j) => (seen.has(j.id) ? false : (seen.add(j.id), true)));
}
