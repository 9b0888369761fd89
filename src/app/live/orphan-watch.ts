/**
 * A daemon started through npm (`npx mmbot run`, `npm start`) runs under `npm → sh -c → node`. A
 * SIGTERM to npm (a supervisor stopping "npx mmbot run") kills npm and the shell but never reaches
 * node: the daemon kept quoting, orphaned, with nobody left to stop it. Under npm, the parent
 * going away is therefore a stop request. Started any other way (node directly, systemd, nohup
 * from a shell that then exits), the parent's exit means nothing and is ignored.
 */

/** What the watch reads of the process (a fake in tests). */
export interface ParentProbe {
  /** The current parent pid (Node reads it afresh on every access). */
  ppid(): number;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** True when npm started this process (it sets npm_command / npm_lifecycle_event for its children). */
export function startedByNpm(env: Readonly<Record<string, string | undefined>>): boolean {
  return env['npm_command'] !== undefined || env['npm_lifecycle_event'] !== undefined;
}

/**
 * Polls the parent pid every `intervalMs`; when it changes under npm, calls `onOrphaned` once with
 * the old and new parent. Returns the function that stops the watch (null when not under npm).
 */
export function watchForOrphaning(
  probe: ParentProbe,
  onOrphaned: (detail: { readonly parentPid: number; readonly nowParentPid: number }) => void,
  intervalMs = 500,
): (() => void) | null {
  if (!startedByNpm(probe.env)) return null;
  const parentPid = probe.ppid();
  const timer = setInterval(() => {
    const now = probe.ppid();
    if (now === parentPid) return;
    clearInterval(timer);
    onOrphaned({ parentPid, nowParentPid: now });
  }, intervalMs);
  // The watch must never keep the process alive by itself.
  timer.unref();
  return () => clearInterval(timer);
}

/** The real process as a ParentProbe. */
export const processParent: ParentProbe = { ppid: () => process.ppid, env: process.env };
