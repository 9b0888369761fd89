import { describe, expect, it } from 'vitest';
import { SIGNAL_ECHO_MS, shutdownController, type SignalSource, type StopSignal } from '../../../src/app/live/shutdown.ts';

/** A fake process: records listeners and lets the test raise signals. */
function fakeSignals(): SignalSource & { raise(sig: StopSignal): void; count(): number } {
  const listeners = new Map<StopSignal, Set<() => void>>();
  return {
    on(sig, fn) {
      (listeners.get(sig) ?? listeners.set(sig, new Set()).get(sig)!).add(fn);
    },
    off(sig, fn) {
      listeners.get(sig)?.delete(fn);
    },
    raise(sig) {
      for (const fn of [...(listeners.get(sig) ?? [])]) fn();
    },
    count: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

describe('shutdownController', () => {
  it('the first SIGINT or SIGTERM asks for a graceful stop, a later second one forces', async () => {
    const sigs = fakeSignals();
    const forced: StopSignal[] = [];
    let now = 1000;
    const c = shutdownController(sigs, (s) => forced.push(s), () => now);
    sigs.raise('SIGTERM');
    expect(await c.requested).toBe('SIGTERM');
    expect(forced).toEqual([]);
    now += SIGNAL_ECHO_MS + 1;
    sigs.raise('SIGINT');
    expect(forced).toEqual(['SIGINT']);
    c.dispose();
  });

  it("a signal echoed within SIGNAL_ECHO_MS (npm forwarding the terminal's Ctrl-C) is the same request", async () => {
    const sigs = fakeSignals();
    const forced: StopSignal[] = [];
    let now = 0;
    const c = shutdownController(sigs, (s) => forced.push(s), () => now);
    sigs.raise('SIGINT');
    now += 5;
    sigs.raise('SIGINT');
    expect(await c.requested).toBe('SIGINT');
    expect(forced).toEqual([]);
  });

  it('requestStop resolves with the reason; a later signal then forces', async () => {
    const sigs = fakeSignals();
    const forced: StopSignal[] = [];
    const c = shutdownController(sigs, (s) => forced.push(s), () => 0);
    c.requestStop('fatal: venue gone');
    c.requestStop('ignored');
    expect(await c.requested).toBe('fatal: venue gone');
    sigs.raise('SIGTERM');
    expect(forced).toEqual(['SIGTERM']);
  });

  it('dispose removes every listener', () => {
    const sigs = fakeSignals();
    const c = shutdownController(sigs, () => {});
    expect(sigs.count()).toBe(2);
    c.dispose();
    expect(sigs.count()).toBe(0);
  });
});
