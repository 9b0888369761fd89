import { interval, take, timer, toArray, firstValueFrom, debounceTime, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { clockScheduler } from '../../src/core/scheduler.ts';

describe('VirtualClock', () => {
  it('fires timers in time order, ties in creation order, only when advanced', () => {
    const c = new VirtualClock(1000);
    const fired: string[] = [];
    c.setTimer(30, () => fired.push('c@30'));
    c.setTimer(10, () => fired.push('a@10'));
    c.setTimer(10, () => fired.push('b@10'));
    c.setTimer(-5, () => fired.push('now'));
    expect(fired).toEqual([]);
    expect(c.pendingTimers()).toBe(4);
    expect(c.nextTimerMs()).toBe(1000);
    c.advanceBy(10);
    expect(fired).toEqual(['now', 'a@10', 'b@10']);
    expect(c.nowMs()).toBe(1010);
    c.advanceTo(1100);
    expect(fired).toEqual(['now', 'a@10', 'b@10', 'c@30']);
    expect(c.pendingTimers()).toBe(0);
  });

  it('sets now to each timer time while it runs, and runs timers scheduled by timers', () => {
    const c = new VirtualClock(0);
    const seen: number[] = [];
    c.setTimer(5, () => {
      seen.push(c.nowMs());
      c.setTimer(5, () => seen.push(c.nowMs()));
    });
    c.advanceTo(20);
    expect(seen).toEqual([5, 10]);
    expect(c.nowMs()).toBe(20);
    expect(c.nowNs()).toBe(20_000_000n);
  });

  it('cancelled timers never fire', () => {
    const c = new VirtualClock(0);
    let n = 0;
    const cancel = c.setTimer(5, () => n++);
    c.setTimer(6, () => n++);
    cancel();
    expect(c.pendingTimers()).toBe(1);
    c.advanceBy(10);
    expect(n).toBe(1);
  });

  it('fireNext fires one timer at a time up to a limit, skipping cancelled ones', () => {
    const c = new VirtualClock(0);
    const fired: string[] = [];
    c.setTimer(5, () => fired.push('a'));
    const cancel = c.setTimer(5, () => fired.push('cancelled'));
    c.setTimer(5, () => fired.push('b'));
    c.setTimer(9, () => fired.push('c'));
    cancel();
    expect(c.fireNext(8)).toBe(true);
    expect(fired).toEqual(['a']);
    expect(c.nowMs()).toBe(5);
    expect(c.fireNext(8)).toBe(true);
    expect(fired).toEqual(['a', 'b']);
    expect(c.fireNext(8)).toBe(false);
    expect(c.nowMs()).toBe(5);
    expect(c.fireNext(9)).toBe(true);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(c.nowMs()).toBe(9);
    expect(c.fireNext(100)).toBe(false);
  });

  it('refuses to go back in time', () => {
    const c = new VirtualClock(100);
    expect(() => c.advanceTo(99)).toThrow(RangeError);
  });
});

describe('clockScheduler on a VirtualClock', () => {
  it('drives rxjs timer and interval with virtual time', async () => {
    const c = new VirtualClock(0);
    const s = clockScheduler(c);
    const ticks: number[] = [];
    const sub = interval(100, s).subscribe((i) => ticks.push(i));
    let fired = -1;
    timer(250, s).subscribe(() => (fired = c.nowMs()));
    c.advanceBy(99);
    expect(ticks).toEqual([]);
    c.advanceBy(1);
    expect(ticks).toEqual([0]);
    c.advanceBy(300);
    expect(ticks).toEqual([0, 1, 2, 3]);
    expect(fired).toBe(250);
    sub.unsubscribe();
    c.advanceBy(1000);
    expect(ticks).toEqual([0, 1, 2, 3]);
    expect(c.pendingTimers()).toBe(0);
    expect(s.now()).toBe(1400);
  });

  it('debounceTime waits on virtual time', async () => {
    const c = new VirtualClock(0);
    const s = clockScheduler(c);
    const input = new Subject<number>();
    const out = firstValueFrom(input.pipe(debounceTime(50, s), take(2), toArray()));
    input.next(1);
    c.advanceBy(20);
    input.next(2);
    c.advanceBy(50);
    input.next(3);
    c.advanceBy(49);
    input.next(4);
    c.advanceBy(50);
    expect(await out).toEqual([2, 4]);
  });
});
