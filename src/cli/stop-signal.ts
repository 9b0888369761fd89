/** The exit code of a run stopped by `signal`: 128 + its number, as shells report it. */
export const signalExitCode = (signal: NodeJS.Signals): number => (signal === 'SIGINT' ? 130 : 143);

/**
 * Calls `onStop` on the first SIGINT or SIGTERM (Ctrl-C, a supervisor's stop; a second signal
 * kills as usual) and returns the function that removes the handler once the work is over.
 */
export function onStopSignal(onStop: (signal: NodeJS.Signals) => void): () => void {
  process.once('SIGINT', onStop);
  process.once('SIGTERM', onStop);
  return () => {
    process.off('SIGINT', onStop);
    process.off('SIGTERM', onStop);
  };
}
