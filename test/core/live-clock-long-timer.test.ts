import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';

describe('LiveClock.setTimer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits out delays longer than setTimeout allows (2^31 − 1 ms) instead of firing at once', () => {
    vi.useFakeTimers();
    const clock = new LiveClock();
    const fn = vi.fn();
    const DAY = 86_400_000;
    clock.setTimer(39 * DAY, fn);
    vi.advanceTimersByTime(1000);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(30 * DAY);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(9 * DAY);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('cancels a long timer between steps', () => {
    vi.useFakeTimers();
    const clock = new LiveClock();
    const fn = vi.fn();
    const cancel = clock.setTimer(40 * 86_400_000, fn);
    vi.advanceTimersByTime(30 * 86_400_000);
    cancel();
    vi.advanceTimersByTime(20 * 86_400_000);
    expect(fn).not.toHaveBeenCalled();
  });
});
