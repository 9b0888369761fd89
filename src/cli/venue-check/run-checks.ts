/**
 * The check runner of `mmbot venue check`: named checks run in order, each passing with a detail
 * line or failing with the reason; a check whose prerequisite failed is skipped rather than run
 * (a refused login would otherwise fail every later check with the same 401 and hide the cause).
 * Pure: the probes are injected, so the runner and the report are unit-tested without a venue.
 */

/** One check: its name in the report, the checks it needs, and the probe (resolves to a detail). */
export interface VenueCheck {
  readonly name: string;
  /** Names of earlier checks that must have passed; otherwise this one is skipped. */
  readonly needs?: readonly string[];
  /** Resolves with what was found (one line); rejects with why the check failed. */
  run(): Promise<string>;
}

/** The outcome of one check. */
export interface CheckOutcome {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly detail: string;
}

/** Every outcome, and the first failure (null when all passed). */
export interface CheckReport {
  readonly outcomes: readonly CheckOutcome[];
  readonly firstFailure: CheckOutcome | null;
}

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Runs `checks` in order; `onOutcome` sees each outcome as it is known (for live output). */
export async function runChecks(checks: readonly VenueCheck[], onOutcome: (o: CheckOutcome) => void = () => {}): Promise<CheckReport> {
  const outcomes: CheckOutcome[] = [];
  const status = new Map<string, CheckOutcome['status']>();
  for (const check of checks) {
    const blocked = (check.needs ?? []).filter((n) => status.get(n) !== 'pass');
    let outcome: CheckOutcome;
    if (blocked.length > 0) {
      outcome = { name: check.name, status: 'skip', detail: `skipped: needs ${blocked.join(', ')}` };
    } else {
      try {
        outcome = { name: check.name, status: 'pass', detail: await check.run() };
      } catch (e) {
        outcome = { name: check.name, status: 'fail', detail: reason(e) };
      }
    }
    status.set(check.name, outcome.status);
    outcomes.push(outcome);
    onOutcome(outcome);
  }
  return { outcomes, firstFailure: outcomes.find((o) => o.status === 'fail') ?? null };
}

const MARK: Readonly<Record<CheckOutcome['status'], string>> = { pass: '✓', fail: '✗', skip: '-' };

/** One report line: `✓ authentication: token issued (3600 s)`. */
export function formatOutcome(o: CheckOutcome): string {
  return `${MARK[o.status]} ${o.name}: ${o.detail}`;
}

/** The closing line: all passed, or the first failure named. */
export function formatVerdict(report: CheckReport): string {
  const n = report.outcomes.length;
  if (report.firstFailure === null) return `all ${n} checks passed`;
  const failed = report.outcomes.filter((o) => o.status === 'fail').length;
  return `FAILED: ${report.firstFailure.name} (${failed} of ${n} checks failed): ${report.firstFailure.detail}`;
}
