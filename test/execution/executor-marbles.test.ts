import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/index.ts';
import { DEFAULT_EXECUTION_CONFIG, Executor, type Endpoint, type ExecJob } from '../../src/execution/index.ts';

/** A Clock driven by the TestScheduler's virtual frames (1 frame = 1 ms in run mode). */
function schedulerClock(s: TestScheduler): Clock {
  return {
    nowMs: () => s.now(),
    nowNs: () => BigInt(s.now()) * 1_000_000n,
    setTimer: (ms, fn) => {
      const sub = s.schedule(fn, ms);
      return () => sub.unsubscribe();
    },
  };
}

const job = (sent: Subject<string>, endpoint: Endpoint, name: string, key: string | null): ExecJob => ({
  endpoint,
  key,
  run: () => {
    sent.next(name);
    return new Promise<never>(() => {}); // replies never matter here; maxInFlight is large
  },
  settled: () => {},
  dropped: () => {},
});

const config = (capacity: number, refillPerSec: number) => ({
  ...DEFAULT_EXECUTION_CONFIG,
  maxInFlight: 1_000,
  budgets: [{ name: 'u', capacity, refillPerSec, costs: { place: 1, replace: 1, cancel: 1 } }],
});

describe('Executor (marbles)', () => {
  it('spends the burst at once, then one request per refill interval', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(({ hot, expectObservable }) => {
      const sent = new Subject<string>();
      const ex = new Executor(config(2, 100), schedulerClock(ts));
      hot('(abcde)').subscribe((n) => ex.submit(job(sent, 'place', n, null)));
      expectObservable(sent).toBe('(ab) 6ms c 9ms d 9ms e');
    });
  });

  it('coalesces a storm of replaces for one order into the latest, cancels first', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(({ hot, expectObservable }) => {
      const sent = new Subject<string>();
      const ex = new Executor(config(1, 100), schedulerClock(ts));
      // p goes out at once; r1..r4 (same order) and a cancel of another order queue behind the empty bucket.
      hot('p 1ms 1 1ms 2 1ms x 1ms 3 1ms 4').subscribe((n) =>
        ex.submit(n === 'p' ? job(sent, 'place', 'p', 'A') : n === 'x' ? job(sent, 'cancel', 'x', 'B') : job(sent, 'replace', `r${n}`, 'C')),
      );
      expectObservable(sent, '^ 40ms !').toBe('p 9ms x 9ms y', { p: 'p', x: 'x', y: 'r4' });
    });
  });
});
