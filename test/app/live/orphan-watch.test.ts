import { afterEach, describe, expect, it, vi } from 'vitest';
import { startedByNpm, watchForOrphaning } from '../../../src/app/live/orphan-watch.ts';

afterEach(() => vi.useRealTimers());

describe('the daemon stops when npm, which started it, is gone', () => {
  it('under npm: a changed parent pid is reported once', () => {
    vi.useFakeTimers();
    let ppid = 4242;
    const seen: unknown[] = [];
    const stop = watchForOrphaning({ ppid: () => ppid, env: { npm_command: 'exec' } }, (d) => seen.push(d), 500);
    expect(stop).not.toBeNull();
    vi.advanceTimersByTime(2_000);
    expect(seen).toEqual([]);
    ppid = 1; // npm and its shell died: re-parented to init
    vi.advanceTimersByTime(500);
    vi.advanceTimersByTime(5_000);
    expect(seen).toEqual([{ parentPid: 4242, nowParentPid: 1 }]);
  });

  it('not under npm (node directly, systemd, nohup): the parent may exit, nothing happens', () => {
    vi.useFakeTimers();
    let ppid = 4242;
    const seen: unknown[] = [];
    expect(watchForOrphaning({ ppid: () => ppid, env: {} }, (d) => seen.push(d))).toBeNull();
    ppid = 1;
    vi.advanceTimersByTime(5_000);
    expect(seen).toEqual([]);
    expect(startedByNpm({ npm_lifecycle_event: 'start' })).toBe(true);
  });
});
