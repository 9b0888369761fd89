/** The logger subset the failure log writes to. */
export interface WarnLog {
  warn(obj: object, msg?: string): void;
}

/** How often a flood of refused requests is summarised (one line per interval at most). */
export const AUTH_FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * Logs refused (401) requests without letting a flood write a line each: the first of an interval
 * is logged as it comes, the rest are counted and summarised in one line when the interval ends
 * (`flush`, called by a timer, or the next refusal after it). The counter metric sees every one.
 */
export class AuthFailureLog {
  #windowStartMs = -Infinity;
  #suppressed = 0;
  #last: { action: string; actor: string; reason: string } | null = null;

  constructor(
    private readonly log: WarnLog,
    private readonly nowMs: () => number,
    private readonly intervalMs = AUTH_FAILURE_LOG_INTERVAL_MS,
  ) {}

  /** Notes one refused request. */
  note(action: string, actor: string, reason: string): void {
    if (this.nowMs() - this.#windowStartMs >= this.intervalMs) {
      this.flush();
      this.#windowStartMs = this.nowMs();
      this.log.warn({ actor, action, result: 'unauthorized', reason }, `control: ${action} by ${actor} refused: ${reason}`);
      return;
    }
    this.#suppressed++;
    this.#last = { action, actor, reason };
  }

  /** Writes the summary of the refusals not logged one by one since the last line, if any. */
  flush(): void {
    if (this.#suppressed === 0 || this.#last === null) return;
    const n = this.#suppressed;
    const { action, actor, reason } = this.#last;
    this.#suppressed = 0;
    this.#last = null;
    this.log.warn(
      { result: 'unauthorized', count: n, lastActor: actor, lastAction: action, lastReason: reason },
      `control: ${n} more unauthorized request(s) within ${Math.round(this.intervalMs / 1000)} s (last: ${action} by ${actor}: ${reason})`,
    );
  }
}
