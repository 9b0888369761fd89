import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MmError } from '../core/errors.ts';
import { JOURNAL_FILE, PLAN_FILE, readPlan, type SweepPlan } from './journal.ts';

/** The report a walk-forward writes next to its journal (it has no plan file). */
export const WALK_FORWARD_FILE = 'walk-forward.json';

/** Files a sweep or a walk-forward writes into its folder: what replacing a run removes. */
const RUN_FILES = [PLAN_FILE, JOURNAL_FILE, 'sweep.csv', 'halving.json', WALK_FORWARD_FILE, 'walk-forward.csv', 'walk-forward.html'].concat(
  ['leaderboard', 'oos-leaderboard'].flatMap((b) => ['csv', 'json', 'html'].map((x) => `${b}.${x}`)),
);

/** What an output folder already holds, seen by a run about to write there. */
export type OutDirState =
  | { readonly kind: 'free' }
  /** The same sweep (its plan has exactly these jobs): its journal is reused, like --resume. */
  | { readonly kind: 'same' }
  /** Another run: its description, for the error. */
  | { readonly kind: 'other'; readonly what: string; readonly results: number };

/** Lines of a journal (results held), without parsing them. */
function journalLines(dir: string): number {
  const file = join(dir, JOURNAL_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length : 0;
}

/** A sweep plan in a sentence: its inputs and size. */
const planText = (p: SweepPlan): string => {
  const m = p.meta as { config?: unknown; grid?: unknown };
  return `a sweep of ${typeof m.grid === 'string' ? m.grid : '?'} on ${typeof m.config === 'string' ? m.config : '?'} (${p.jobs.length} job(s) planned by code ${p.codeVersion})`;
};

/**
 * What `dir` holds: nothing of ours, the same sweep (a sweep plan with exactly `sweepJobIds`), or
 * another run (another sweep's plan, a walk-forward's journal). `sweepJobIds` null: the caller is a
 * walk-forward, for which any sweep folder is another run and a walk-forward folder is its own
 * (the same --out again runs only the jobs its journal lacks).
 */
export function inspectOutDir(dir: string, sweepJobIds: ReadonlySet<string> | null): OutDirState {
  const results = journalLines(dir);
  if (existsSync(join(dir, PLAN_FILE))) {
    let plan: SweepPlan;
    try {
      plan = readPlan(dir);
    } catch (e) {
      return { kind: 'other', what: `a damaged sweep plan (${e instanceof Error ? e.message : String(e)})`, results };
    }
    const same = sweepJobIds !== null && plan.jobs.length === sweepJobIds.size && plan.jobs.every((j) => sweepJobIds.has(j.id));
    return same ? { kind: 'same' } : { kind: 'other', what: planText(plan), results };
  }
  const walkForward = existsSync(join(dir, WALK_FORWARD_FILE));
  if (sweepJobIds === null) return { kind: 'free' };
  if (walkForward || results > 0) return { kind: 'other', what: walkForward ? 'a walk-forward' : 'a journal without a sweep plan', results };
  return { kind: 'free' };
}

/**
 * Refuses an output folder that holds another run, unless `force`: then that run's plan, journal and
 * reports are removed first, so two runs' journals never mix and the other run is never left with a
 * plan that is not its own.
 * @throws MmError OUTPUT_IN_USE naming the folder, the run it holds and how to go on.
 * @returns what was replaced (null: nothing), for the caller to say.
 */
export function claimOutDir(dir: string, sweepJobIds: ReadonlySet<string> | null, force: boolean, command: string): string | null {
  const state = inspectOutDir(dir, sweepJobIds);
  if (state.kind !== 'other') return null;
  const held = `${state.what}${state.results > 0 ? ` with ${state.results} journaled result(s)` : ''}`;
  if (!force) {
    const resume = state.what.startsWith('a sweep') ? `, continue it with mmbot sweep --resume ${dir},` : '';
    throw new MmError(
      'OUTPUT_IN_USE',
      `--out ${dir} holds ${held}: writing ${command} there would mix two journals and leave that run unresumable. Use another --out${resume} or pass --force to replace it (its plan, journal and reports are deleted)`,
      { dir },
    );
  }
  for (const f of RUN_FILES) rmSync(join(dir, f), { force: true });
  return held;
}
