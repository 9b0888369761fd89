import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MmError } from '../core/errors.ts';
import { Journal, JOURNAL_FILE, readPlan } from '../research/journal.ts';
import { DEFAULT_QUEUE, parseBackend, redactUrl } from '../research/redis-backend.ts';
import { clearBackend } from '../research/result-store.ts';

/** What `mmbot sweep --clear` is told: a sweep folder or `all`, and optionally the backend and queue. */
export interface ClearRequest {
  readonly target: string;
  readonly backend: string | undefined;
  readonly queue: string | undefined;
}

/**
 * `mmbot sweep --clear <sweep dir>`: deletes that sweep's results from its Redis backend (every job
 * its plan and journal name; backend and queue from its plan unless given) and takes its jobs still
 * waiting off the queue. `--clear all --backend redis://…`: every stored result of the queue. The
 * sweep's folder (plan, journal, reports) is left alone. Resolves to the line to print.
 * @throws MmError USAGE (no Redis backend, or none named), FILE_NOT_FOUND (no sweep plan), BACKEND_UNAVAILABLE.
 */
export async function clearSweep(req: ClearRequest): Promise<string> {
  let backend = req.backend;
  let queueName = req.queue;
  let ids: string[] | null = null;
  let what = 'every stored result';
  if (req.target !== 'all') {
    const dir = resolve(req.target);
    const plan = readPlan(dir);
    const meta = plan.meta as { backend?: unknown; queue?: unknown };
    backend ??= typeof meta.backend === 'string' ? meta.backend : undefined;
    queueName ??= typeof meta.queue === 'string' ? meta.queue : undefined;
    const all = new Set(plan.jobs.map((j) => j.id));
    // Later halving rungs are planned as they go: the journal names them.
    if (existsSync(join(dir, JOURNAL_FILE))) for (const id of new Journal(dir).done.keys()) all.add(id);
    ids = [...all];
    what = `the ${ids.length} job(s) of ${dir}`;
  }
  if (backend === undefined) throw new MmError('USAGE', '--clear all: name the backend (--backend redis://host:port [--queue <name>])');
  const b = parseBackend(backend);
  if (b.kind !== 'redis') throw new MmError('USAGE', `--clear ${req.target}: ${req.target === 'all' ? 'the embedded backend' : 'that sweep ran on the embedded backend, which'} stores nothing outside the sweep folders (delete the folder instead)`);
  const queue = queueName ?? DEFAULT_QUEUE;
  const { deleted, dequeued } = await clearBackend(b.url, queue, ids);
  const folder = ids === null ? '' : `; the folder is kept (its journal still holds the results)`;
  return `sweep: cleared ${what} from ${redactUrl(b.url)} (queue ${queue}): ${deleted} stored result(s) deleted${dequeued > 0 ? `, ${dequeued} waiting job(s) taken off the queue` : ''}${folder}`;
}
