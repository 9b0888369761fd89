import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { TokenManager } from '../../src/client/token-manager.ts';

function setup(lifetimeS = 100) {
  const clock = new VirtualClock(1_000);
  let n = 0;
  const calls: number[] = [];
  const tm = new TokenManager({
    clock,
    lifetimeS,
    refreshAtFraction: 0.6,
    authenticate: async (life) => {
      calls.push(life);
      return `tok-${++n}`;
    },
  });
  return { clock, tm, calls };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('TokenManager', () => {
  it('authenticates once for concurrent callers and sends the lifetime', async () => {
    const { tm, calls } = setup();
    const [a, b] = await Promise.all([tm.token(), tm.token()]);
    expect(a).toBe('tok-1');
    expect(b).toBe('tok-1');
    expect(calls).toEqual([100]);
    tm.close();
  });

  it('refreshes in the background at 60% of the lifetime, before expiry', async () => {
    const { clock, tm, calls } = setup(100);
    await tm.token();
    clock.advanceBy(59_000);
    expect(await tm.token()).toBe('tok-1');
    clock.advanceBy(1_000);
    await flush();
    expect(calls.length).toBe(2);
    expect(tm.peek()).toBe('tok-2');
    // the next refresh is armed from the new token
    clock.advanceBy(60_000);
    await flush();
    expect(tm.peek()).toBe('tok-3');
    tm.close();
  });

  it('never hands out a token in its last 10% even if the refresh failed', async () => {
    const clock = new VirtualClock(0);
    let fail = false;
    let n = 0;
    const errors: unknown[] = [];
    const tm = new TokenManager({
      clock,
      lifetimeS: 10,
      authenticate: async () => {
        if (fail) throw new Error('down');
        return `t${++n}`;
      },
      onRefreshError: (e) => errors.push(e),
    });
    await tm.token();
    fail = true;
    clock.advanceBy(6_000);
    await flush();
    expect(errors.length).toBe(1);
    expect(tm.peek()).toBe('t1');
    clock.advanceBy(3_000);
    expect(tm.peek()).toBeUndefined();
    fail = false;
    expect(await tm.token()).toBe('t2');
    tm.close();
  });

  it('renew() re-authenticates only when the rejected token is still current', async () => {
    const { tm, calls } = setup();
    const t1 = await tm.token();
    const [x, y] = await Promise.all([tm.renew(t1), tm.renew(t1)]);
    expect(x).toBe('tok-2');
    expect(y).toBe('tok-2');
    expect(await tm.renew(t1)).toBe('tok-2');
    expect(calls.length).toBe(2);
    tm.close();
  });
});
