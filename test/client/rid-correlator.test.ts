import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';
import { RidCorrelator } from '../../src/client/rid-correlator.ts';

describe('RidCorrelator', () => {
  it('starts at rid 1 and resolves replies by rid, in any order', async () => {
    const c = new RidCorrelator<string>(new VirtualClock());
    const r1 = c.nextRid();
    const r2 = c.nextRid();
    expect([r1, r2]).toEqual([1, 2]);
    const p1 = c.expect(r1, 1000, 'a');
    const p2 = c.expect(r2, 1000, 'b');
    expect(c.resolve(r2, 'two')).toBe(true);
    expect(c.resolve(r1, 'one')).toBe(true);
    expect(await p1).toBe('one');
    expect(await p2).toBe('two');
    expect(c.resolve(r1, 'late')).toBe(false);
    expect(c.size).toBe(0);
  });

  it('times out on the injected clock with a retryable TIMEOUT', async () => {
    const clock = new VirtualClock();
    const c = new RidCorrelator<string>(clock);
    const p = c.expect(c.nextRid(), 500, 'place');
    clock.advanceBy(499);
    expect(c.size).toBe(1);
    clock.advanceBy(1);
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MmError);
    expect((e as MmError).code).toBe('TIMEOUT');
    expect((e as MmError).retryable).toBe(true);
    // a late reply is ignored
    expect(c.resolve(1, 'late')).toBe(false);
  });

  it('rejectAll fails every pending request and cancels their timers', async () => {
    const clock = new VirtualClock();
    const c = new RidCorrelator<string>(clock);
    const ps = [c.expect(c.nextRid(), 100, 'a'), c.expect(c.nextRid(), 100, 'b')];
    c.rejectAll((rid, what) => new MmError('DISCONNECTED', `${what} lost`, { rid }));
    const errs = await Promise.all(ps.map((p) => p.catch((e: MmError) => e.code)));
    expect(errs).toEqual(['DISCONNECTED', 'DISCONNECTED']);
    expect(clock.pendingTimers()).toBe(0);
  });
});
