/** The signals that stop the daemon. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** One of STOP_SIGNALS. */
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The minimal process surface the controller needs (a fake in tests). */
export interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

/** Graceful-then-forced shutdown on SIGINT/SIGTERM. */
export interface ShutdownController {
  /** Resolves with the first stop signal (or `requestStop`'s reason). */
  readonly requested: Promise<string>;
  /** Asks for a graceful stop from code (a fatal error, a test). */
  requestStop(reason: string): void;
  /** Removes the signal listeners. */
  dispose(): void;
}

/** Signals this soon after the first are the same request (npm forwards the terminal's Ctrl-C). */
export const SIGNAL_ECHO_MS = 1000;

/**
 * Listens for SIGINT/SIGTERM: the first asks for a graceful stop (cancel everything, wait for
 * confirmation); another one more than SIGNAL_ECHO_MS later calls `force` (exit now: the operator
 * insists). A Ctrl-C under `npm start` reaches us twice within milliseconds (the terminal's, and
 * npm's forwarded copy): that must not count as insisting.
 */
export function shutdownController(source: SignalSource, force: (signal: StopSignal) => void, nowMs: () => number = Date.now): ShutdownController {
  let requested = false;
  let firstSignalMs = -Infinity;
  let resolve!: (reason: string) => void;
  const promise = new Promise<string>((r) => {
    resolve = r;
  });
  const listeners = STOP_SIGNALS.map((sig) => {
    const fn = (): void => {
      if (requested) {
        if (nowMs() - firstSignalMs > SIGNAL_ECHO_MS) force(sig);
        return;
      }
      requested = true;
      firstSignalMs = nowMs();
      resolve(sig);
    };
    source.on(sig, fn);
    return [sig, fn] as const;
  });
  return {
    requested: promise,
    requestStop(reason) {
      if (requested) return;
      requested = true;
      resolve(reason);
    },
    dispose() {
      for (const [sig, fn] of listeners) source.off(sig, fn);
    },
  };
}
