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

/**
 * Listens for SIGINT/SIGTERM: the first asks for a graceful stop (cancel everything, wait for
 * confirmation); a second one calls `force` (exit now: the operator insists).
 */
export function shutdownController(source: SignalSource, force: (signal: StopSignal) => void): ShutdownController {
  let requested = false;
  let resolve!: (reason: string) => void;
  const promise = new Promise<string>((r) => {
    resolve = r;
  });
  const listeners = STOP_SIGNALS.map((sig) => {
    const fn = (): void => {
      if (requested) {
        force(sig);
        return;
      }
      requested = true;
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
