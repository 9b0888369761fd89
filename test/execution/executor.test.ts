import { describe, expect, it } from 'vitest';
import { MmError, VirtualClock } from '../../src/core/index.ts';
import { DEFAULT_EXECUTION_CONFIG, Executor, TokenBucket, type Endpoint, type ExecJob, type ExecutionConfig } from '../../src/execution/index.ts';

const cfg = (over: Partial<ExecutionConfig> = {}): ExecutionConfig => ({
  ...DEFAULT_EXECUTION_CONFIG,
  budgets: [{ name: 'u', capacity: 2, refillPerSec: 10, costs: { place: 1, replace: 1, cancel: 1, 'cancel-all': 1, status: 1, 'open-orders': 1, fills: 1 } }],
  ...over,
});

const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
};

interface Log {
  sent: string[];
  dropped: string[];
}

function job(log: Log, endpoint: Endpoint, name: string, key: string | null = null, fail?: MmError): ExecJob {
  return {
    endpoint,
    key,
    run: () => {
      log.sent.push(name);
      return fail ? Promise.reject(fail) : Promise.resolve(name);
    },
    settled: () => {},
    dropped: (r) => log.dropped.push(`${name}:${r}`),
  };
}

describe('TokenBucket', () => {
  it('refills continuously and never exceeds capacity', () => {
    const b = new TokenBucket(10, 10, 0);
    for (let i = 0; i < 10; i++) expect(b.tryTake(1, 0)).toBe(true);
    expect(b.tryTake(1, 0)).toBe(false);
    expect(b.msUntil(1, 0)).toBe(100);
    expect(b.tryTake(1, 100)).toBe(true);
    expect(b.available(100_000)).toBe(10);
    expect(b.spent).toBe(11);
  });
});

describe('Executor', () => {
  it('sends at once within budget, queues beyond it, drains on the clock', async () => {
    const clock = new VirtualClock(0);
    const log: Log = { sent: [], dropped: [] };
    const throttled: string[] = [];
    const ex = new Executor(cfg(), clock, { throttled: (j) => throttled.push(j.endpoint) });
    ex.submit(job(log, 'place', 'p1'));
    ex.submit(job(log, 'place', 'p2'));
    ex.submit(job(log, 'place', 'p3'));
    expect(log.sent).toEqual(['p1', 'p2']);
    expect(throttled).toEqual(['place']);
    expect(ex.budgets()).toEqual([{ name: 'u', available: 0, capacity: 2, ratePerSec: 10, configuredCapacity: 2, configuredPerSec: 10 }]);
    clock.advanceBy(100);
    expect(log.sent).toEqual(['p1', 'p2', 'p3']);
    clock.advanceBy(150);
    expect(ex.budgets()[0]!.available).toBeCloseTo(1.5);
  });

  it('serves cancels before replaces before places', () => {
    const clock = new VirtualClock(0);
    const log: Log = { sent: [], dropped: [] };
    const ex = new Executor(cfg({ budgets: [{ name: 'u', capacity: 1, refillPerSec: 10, costs: { place: 1, replace: 1, cancel: 1 } }] }), clock);
    ex.submit(job(log, 'place', 'p0'));
    ex.submit(job(log, 'place', 'p1'));
    ex.submit(job(log, 'replace', 'r1'));
    ex.submit(job(log, 'cancel', 'c1'));
    clock.advanceBy(300);
    expect(log.sent).toEqual(['p0', 'c1', 'r1', 'p1']);
  });

  it('coalesces by key: only the latest job for an order is sent', () => {
    const clock = new VirtualClock(0);
    const log: Log = { sent: [], dropped: [] };
    const ex = new Executor(cfg({ budgets: [{ name: 'u', capacity: 1, refillPerSec: 1, costs: { replace: 1, cancel: 1 } }] }), clock);
    ex.submit(job(log, 'replace', 'first', 'x'));
    for (let i = 0; i < 5; i++) ex.submit(job(log, 'replace', `r${i}`, 'A'));
    ex.submit(job(log, 'cancel', 'cA', 'A'));
    clock.advanceBy(5_000);
    expect(log.sent).toEqual(['first', 'cA']);
    expect(log.dropped).toEqual(['r0:coalesced', 'r1:coalesced', 'r2:coalesced', 'r3:coalesced', 'r4:coalesced']);
  });

  it('bounds the queue, dropping the least urgent newest job', () => {
    const clock = new VirtualClock(0);
    const log: Log = { sent: [], dropped: [] };
    const ex = new Executor(cfg({ maxQueue: 2, budgets: [{ name: 'u', capacity: 1, refillPerSec: 1, costs: { place: 1, cancel: 1 } }] }), clock);
    ex.submit(job(log, 'place', 'sent'));
    ex.submit(job(log, 'place', 'q1'));
    ex.submit(job(log, 'place', 'q2'));
    ex.submit(job(log, 'place', 'q3'));
    ex.submit(job(log, 'cancel', 'c1'));
    expect(log.dropped).toEqual(['q3:queue-full', 'q2:queue-full']);
    expect(ex.queued).toBe(2);
  });

  it('pauses after 503/504 (Retry-After honoured up to maxIdleMs) without lowering the learned rate', async () => {
    const clock = new VirtualClock(0);
    const log: Log = { sent: [], dropped: [] };
    const backoffs: number[] = [];
    const ex = new Executor(cfg({ budgets: [{ name: 'u', capacity: 10, refillPerSec: 10, costs: { place: 1 } }] }), clock, { backoff: (_c, ms) => backoffs.push(ms) });
    ex.submit(job(log, 'place', 'a', null, new MmError('VENUE_UNAVAILABLE', '503')));
    await settle();
    expect(backoffs).toEqual([500]);
    expect(ex.slowedDown).toBe(true);
    ex.submit(job(log, 'place', 'b', null, new MmError('GATEWAY_TIMEOUT', '504', { retryAfterMs: 60_000 })));
    expect(log.sent).toEqual(['a']);
    clock.advanceBy(500);
    expect(log.sent).toEqual(['a', 'b']);
    await settle();
    expect(backoffs).toEqual([500, 2000]);
    expect(ex.budgets()[0]!.ratePerSec).toBe(10);
    clock.advanceBy(2000);
    expect(ex.slowedDown).toBe(false);
  });

  it('never spends more than the budget under a flood', () => {
    const clock = new VirtualClock(0);
    const log: Log = { sent: [], dropped: [] };
    const ex = new Executor(cfg({ maxQueue: 10_000, budgets: [{ name: 'u', capacity: 10, refillPerSec: 10, costs: { place: 1 } }] }), clock);
    const sentAt: number[] = [];
    for (let i = 0; i < 500; i++) {
      const j = job(log, 'place', `p${i}`);
      const run = j.run;
      ex.submit({ ...j, run: () => (sentAt.push(clock.nowMs()), run()) });
      clock.advanceBy(4);
    }
    sentAt.forEach((t, i) => expect(i + 1).toBeLessThanOrEqual(10 + (10 * t) / 1000 + 1e-9));
    expect(ex.spent()['u']).toBe(sentAt.length);
  });
});
