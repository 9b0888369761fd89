import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MmError } from '../core/errors.ts';
import { decodeJson, encodeJson } from './canonical.ts';
import { relabel, type JobResult, type ResearchJob } from './job.ts';
import { distinctJobs, type JobRunner, type ResultCallback } from './runner.ts';

/** File names inside a sweep's folder. */
export const PLAN_FILE = 'sweep.json';
export const JOURNAL_FILE = 'results.jsonl';

/** What a sweep set out to do: every job, so a resumed coordinator runs exactly the same ones. */
export interface SweepPlan {
  readonly format: 'mmbot-sweep';
  readonly version: 1;
  readonly codeVersion: string;
  /** The planner's own settings (config and grid files, backend, rank key...), as it wants them back. */
  readonly meta: Readonly<Record<string, unknown>>;
  readonly jobs: readonly ResearchJob[];
}

/** Writes `dir/sweep.json` atomically (creating dir). */
export function writePlan(dir: string, plan: SweepPlan): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, PLAN_FILE);
  writeFileSync(`${file}.tmp`, encodeJson(plan));
  renameSync(`${file}.tmp`, file);
}

/**
 * Reads `dir/sweep.json`.
 * @throws MmError FILE_NOT_FOUND when there is none, CONFIG_INVALID when it is not a sweep plan.
 */
export function readPlan(dir: string): SweepPlan {
  const file = join(dir, PLAN_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MmError('FILE_NOT_FOUND', `cannot resume: ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)} (is ${dir} a sweep's output folder?)`, { file });
  }
  let plan: SweepPlan;
  try {
    plan = decodeJson<SweepPlan>(text);
  } catch {
    throw new MmError('CONFIG_INVALID', `${file}: not JSON`, { file });
  }
  if (plan?.format !== 'mmbot-sweep' || plan.version !== 1 || !Array.isArray(plan.jobs)) throw new MmError('CONFIG_INVALID', `${file}: not an mmbot sweep plan (format mmbot-sweep, version 1)`, { file });
  return plan;
}

/**
 * The results journal of a sweep (`results.jsonl`, one JobResult per line, appended as results
 * arrive): what a resumed sweep does not run again. Transient failures are never written. A torn
 * last line (the coordinator died mid-write) is cut off on open.
 */
export class Journal {
  /** Results already in the journal, by job id. */
  readonly done = new Map<string, JobResult>();
  readonly file: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, JOURNAL_FILE);
    if (!existsSync(this.file)) return;
    let text = readFileSync(this.file, 'utf8');
    if (text.length > 0 && !text.endsWith('\n')) {
      // The torn last line of a coordinator that died while writing it: cut it off.
      text = text.slice(0, text.lastIndexOf('\n') + 1);
      truncateSync(this.file, Buffer.byteLength(text));
    }
    for (const [k, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      let r: JobResult;
      try {
        r = decodeJson<JobResult>(line);
      } catch {
        throw new MmError('CONFIG_INVALID', `${this.file}:${k + 1}: not a result line (a damaged journal: delete that line and the job it held runs again)`, { file: this.file, line: k + 1 });
      }
      if (typeof r?.jobId === 'string' && !r.transient) this.done.set(r.jobId, r);
    }
  }

  /** Appends a result (once per job id; transient failures are skipped). */
  append(r: JobResult): void {
    if (r.transient || this.done.has(r.jobId)) return;
    this.done.set(r.jobId, r);
    appendFileSync(this.file, `${encodeJson(r)}\n`);
  }
}

/**
 * Runs the jobs the journal does not hold yet and journals each result as it arrives. Resolves
 * with every job's result (journaled ones first). `onResult` sees only new results, with `done`
 * counting the journaled ones too.
 */
export async function runJournaled(runner: JobRunner, jobs: readonly ResearchJob[], journal: Journal, onResult?: ResultCallback): Promise<Map<string, JobResult>> {
  const all = distinctJobs(jobs);
  const out = new Map<string, JobResult>();
  for (const j of all) {
    const r = journal.done.get(j.id);
    if (r) out.set(j.id, relabel(j, r));
  }
  const missing = all.filter((j) => !out.has(j.id));
  const already = out.size;
  const fresh = await runner.run(missing, (r, done) => {
    journal.append(r);
    onResult?.(r, already + done, all.length);
  });
  for (const [id, r] of fresh) out.set(id, r);
  return out;
}
