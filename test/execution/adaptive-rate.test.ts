import { describe, expect, it } from 'vitest';
import { MmError, VirtualClock } from '../../src/core/index.ts';
import { AdaptiveRate, DEFAULT_ADAPTIVE_RATE_CONFIG, DEFAULT_EXECUTION_CONFIG, Executor, TokenBucket, type Endpoint, type ExecJob, type ExecutionConfig } from '../../src/execution/index.ts';

/*
 * The AIMD limiter on a virtual clock against a model of a venue bucket stricter than our budget
 * (burst 4, 1 request/s, as in issue 12): the executor must learn the lower rate, regain it
 * additively once the venue allows more, never leave queued work idle longer than maxIdleMs, and
 * keep cancels > replaces > places and coalescing while throttled.
 */

/** The venue's per-user bucket: answers RATE_LIMITED when empty. */
class VenueBucket {
  tokens: number;
  last = 0;
  accepted = 0;
  limited = 0;
  constructor(
    public burst: number,
    public perSec: number,
  ) {
    this.tokens = burst;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSec);
    this.last = now;
    if (this.tokens < 1) {
      this.limited++;
      return false;
    }
    this.tokens -= 1;
    this.accepted++;
    return true;
  }
}

const COSTS = { place: 1, replace: 1, cancel: 1, 'cancel-all': 1, status: 1, 'open-orders': 1, fills: 1 } as const;
const config = (over: Partial<ExecutionConfig> = {}): ExecutionConfig => ({
  ...DEFAULT_EXECUTION_CONFIG,
  budgets: [{ name: 'u', capacity: 20, refillPerSec: 8, costs: COSTS }],
  ...over,
});

interface Sent {
  readonly name: string;
  readonly endpoint: Endpoint;
  readonly atMs: number;
  readonly ok: boolean;
}

function venueJob(clock: VirtualClock, venue: VenueBucket, sent: Sent[], endpoint: Endpoint, name: string, key: string | null = null, hint: Record<string, unknown> = {}): ExecJob {
  return {
    endpoint,
    key,
    run: () => {
      const ok = venue.take(clock.nowMs());
      sent.push({ name, endpoint, atMs: clock.nowMs(), ok });
      return ok ? Promise.resolve(name) : Promise.reject(new MmError('RATE_LIMITED', '429 rate limit exceeded', hint));
    },
    settled: () => {},
    dropped: () => {},
  };
}

const microtasks = async (): Promise<void> => {
  for (let i = 0; i < 4; i++) await Promise.resolve();
};

/** Steps the clock in `stepMs` increments for `totalMs`, keeping `backlog` jobs queued via `feed`. */
async function run(clock: VirtualClock, ex: Executor, totalMs: number, stepMs: number, feed: () => void, onStep: () => void = () => {}): Promise<void> {
  for (let t = 0; t < totalMs; t += stepMs) {
    feed();
    clock.advanceBy(stepMs);
    await microtasks();
    onStep();
  }
}

describe('AdaptiveRate (AIMD)', () => {
  it('decreases multiplicatively once per send window and never below the floors', () => {
    const b = new TokenBucket(20, 8, 0);
    const a = new AdaptiveRate(b, DEFAULT_ADAPTIVE_RATE_CONFIG, 1, 0);
    a.onThrottled(100, 50);
    expect(a.ratePerSec).toBeCloseTo(5.6);
    expect(a.burst).toBe(10);
    // A second 429 for a request sent before that decrease is an echo of the same overload.
    a.onThrottled(120, 60);
    expect(a.ratePerSec).toBeCloseTo(5.6);
    expect([a.burst, a.decreases]).toEqual([10, 1]);
    for (let i = 0; i < 30; i++) a.onThrottled(200 + i, 200 + i);
    expect([a.ratePerSec, a.burst]).toEqual([0.5, 1]);
    expect(b.available(201)).toBe(0);
    expect(b.msUntil(1, 220)).toBeLessThanOrEqual(DEFAULT_ADAPTIVE_RATE_CONFIG.maxIdleMs);
  });

  it('an advertised limit caps the learned rate; Retry-After becomes a pause cut to maxIdleMs', () => {
    const a = new AdaptiveRate(new TokenBucket(20, 8, 0), DEFAULT_ADAPTIVE_RATE_CONFIG, 1, 0);
    expect(a.onThrottled(10, 0, { limitPerSec: 1.5, retryAfterMs: 800 })).toBe(800);
    expect(a.ratePerSec).toBe(1.5);
    expect(a.onThrottled(20_000, 20_000, { retryAfterMs: 30_000 })).toBe(2_000);
  });

  it('the floor is raised so the costliest request accrues within maxIdleMs', () => {
    const b = new TokenBucket(20, 8, 0);
    const a = new AdaptiveRate(b, DEFAULT_ADAPTIVE_RATE_CONFIG, 3, 0);
    for (let i = 0; i < 30; i++) a.onThrottled(i, i);
    expect(a.ratePerSec).toBe(1.5);
    expect(a.burst).toBe(3);
    expect(b.msUntil(3, 20)).toBeLessThanOrEqual(2_000);
  });
});

describe('AdaptiveRate: no probing back into a 429 (issue 23)', () => {
  const cfg = { ...DEFAULT_ADAPTIVE_RATE_CONFIG, burstIncreaseMs: 1_000 };
  /** A rate learner that saw `perSec` requests/s accepted for 30 s, then a 429 at 30 s. */
  function throttledAfter(perSec: number): AdaptiveRate {
    const a = new AdaptiveRate(new TokenBucket(20, 8, 0), cfg, 1, 0);
    for (let i = 1; i <= perSec * 30; i++) a.onSuccess((i * 1000) / perSec, false);
    a.onThrottled(30_000, 30_000);
    return a;
  }

  it('regains only up to 80 % of the rate and one token under the burst that drew the last 429, until probeAfterMs passes', () => {
    const a = throttledAfter(8); // 8/s accepted (measured 8/s): 8/s, burst 20 → 5.6/s, 10; caps 6.4/s, 19
    expect([a.ratePerSec, a.burst, a.measuredLimitPerSec]).toEqual([5.6, 10, 8]);
    for (let t = 31_000; t <= 90_000; t += 1_000) a.onSuccess(t, true);
    expect(a.ratePerSec).toBeCloseTo(6.4, 9);
    expect(a.burst).toBe(19);
    // More than 5 min after the 429 the caps lift and the rate climbs again (0.5/s per second).
    for (let t = 91_000; t <= 330_000; t += 1_000) a.onSuccess(t, true);
    expect(a.ratePerSec).toBeCloseTo(6.4, 9);
    expect(a.burst).toBe(19);
    a.onSuccess(331_000, true);
    expect(a.ratePerSec).toBeCloseTo(6.9, 9);
    expect(a.burst).toBe(20);
  });

  it('starts again under the accepted rate it measured, and never regains past that', () => {
    const a = throttledAfter(1.2); // 36 accepted in 30 s: 1.2/s measured → 0.8 × 1.2 = 0.96/s
    expect(a.ratePerSec).toBeCloseTo(0.96, 9);
    for (let t = 31_000; t <= 200_000; t += 1_000) a.onSuccess(t, true);
    expect(a.ratePerSec).toBeCloseTo(0.96, 9);
  });

  it('sending below the learned rate (not constrained by the budget) earns nothing', () => {
    const a = throttledAfter(8);
    for (let t = 31_000; t <= 89_000; t += 1_000) a.onSuccess(t, false);
    expect([a.ratePerSec, a.burst]).toEqual([5.6, 10]);
    // Constrained again: one second's increase (0.5/s, well under the measured 8/s) and one burst
    // token (the burst clock restarted at the last unconstrained send, a second ago).
    a.onSuccess(90_000, true);
    expect(a.ratePerSec).toBeCloseTo(6.1, 9);
    expect(a.burst).toBe(11);
  });
});

describe('Executor with AIMD against a stricter venue (burst 4, 1/s)', () => {
  it('learns the lower rate: few 429s and near-limit throughput once settled', async () => {
    const clock = new VirtualClock(0);
    const venue = new VenueBucket(4, 1);
    const sent: Sent[] = [];
    const ex = new Executor(config(), clock);
    let n = 0;
    const feed = (): void => {
      while (ex.queued < 5) ex.submit(venueJob(clock, venue, sent, 'place', `p${n++}`));
    };
    await run(clock, ex, 120_000, 50, feed);
    const late = sent.filter((s) => s.atMs >= 60_000);
    const ok = late.filter((s) => s.ok).length;
    const limited = late.length - ok;
    // One minute of steady state: ≥ 0.75 of the venue's 1/s served, and at most 1 in 8 requests refused.
    expect(ok / 60).toBeGreaterThanOrEqual(0.75);
    expect(limited / late.length).toBeLessThanOrEqual(0.125);
    const rate = ex.budgets()[0]!.ratePerSec;
    expect(rate).toBeGreaterThanOrEqual(0.5);
    expect(rate).toBeLessThanOrEqual(2);
    expect(ex.slowedDown).toBe(true);
  });

  it('recovers additively (not by doubling) when the venue allows more again', async () => {
    const clock = new VirtualClock(0);
    const venue = new VenueBucket(4, 1);
    const sent: Sent[] = [];
    // Probing above the last 429's level resumes after 20 s without one (default 5 min).
    const ex = new Executor(config({ adaptive: { ...DEFAULT_ADAPTIVE_RATE_CONFIG, probeAfterMs: 20_000 } }), clock);
    let n = 0;
    const feed = (): void => {
      while (ex.queued < 5) ex.submit(venueJob(clock, venue, sent, 'place', `p${n++}`));
    };
    await run(clock, ex, 30_000, 50, feed);
    venue.burst = 1000;
    venue.perSec = 1000;
    venue.tokens = 1000;
    const rates: number[] = [];
    const start = ex.budgets()[0]!.ratePerSec;
    await run(clock, ex, 90_000, 50, feed, () => {
      if (clock.nowMs() % 1000 === 0) rates.push(ex.budgets()[0]!.ratePerSec);
    });
    expect(start).toBeLessThan(2);
    // Each second adds at most increasePerSec (0.5/s) plus one step's rounding, and the rate never drops.
    for (let i = 1; i < rates.length; i++) {
      expect(rates[i]! - rates[i - 1]!).toBeGreaterThanOrEqual(0);
      // A step is one second's increase (0.5/s) plus at most one carried-over success gap.
      expect(rates[i]! - rates[i - 1]!).toBeLessThanOrEqual(1 + 1e-9);
    }
    // On average no faster than 0.5/s per second, and it gets back to the configured 8/s.
    const reached = rates.findIndex((r) => r === 8);
    expect(reached).toBeGreaterThan(0);
    expect((8 - start) / (reached + 1)).toBeLessThanOrEqual(0.55);
    expect(rates.at(-1)).toBe(8);
    expect(ex.slowedDown).toBe(false);
  });

  it('never sits idle more than maxIdleMs while work is queued, even with Retry-After 30 s', async () => {
    const clock = new VirtualClock(0);
    const venue = new VenueBucket(4, 0.2);
    const sent: Sent[] = [];
    const ex = new Executor(config(), clock);
    let n = 0;
    let maxGap = 0;
    let lastSend = 0;
    let seen = 0;
    const feed = (): void => {
      while (ex.queued < 3) ex.submit(venueJob(clock, venue, sent, 'place', `p${n++}`, null, { retryAfterMs: 30_000 }));
    };
    await run(clock, ex, 60_000, 10, feed, () => {
      if (sent.length > seen) {
        seen = sent.length;
        lastSend = clock.nowMs();
      } else maxGap = Math.max(maxGap, clock.nowMs() - lastSend);
    });
    expect(venue.limited).toBeGreaterThan(0);
    expect(maxGap).toBeLessThanOrEqual(DEFAULT_ADAPTIVE_RATE_CONFIG.maxIdleMs);
  });

  it('keeps cancels > replaces > places and coalesces by key while throttled', async () => {
    const clock = new VirtualClock(0);
    const venue = new VenueBucket(4, 1);
    const sent: Sent[] = [];
    const ex = new Executor(config(), clock);
    // Drive it into the learned low rate first.
    let n = 0;
    await run(clock, ex, 20_000, 50, () => {
      while (ex.queued < 3) ex.submit(venueJob(clock, venue, sent, 'place', `warm${n++}`));
    });
    ex.removeWhere(() => true);
    await run(clock, ex, 3_000, 50, () => {});
    expect(ex.budgets()[0]!.ratePerSec).toBeLessThan(8);
    const from = sent.length;
    for (let i = 0; i < 4; i++) ex.submit(venueJob(clock, venue, sent, 'place', `place${i}`, `P${i}`));
    for (let i = 0; i < 4; i++) ex.submit(venueJob(clock, venue, sent, 'replace', `replace${i}`, `R${i}`));
    for (let v = 0; v < 5; v++) ex.submit(venueJob(clock, venue, sent, 'replace', `replaceA.v${v}`, 'RA'));
    for (let i = 0; i < 4; i++) ex.submit(venueJob(clock, venue, sent, 'cancel', `cancel${i}`, `C${i}`));
    await run(clock, ex, 60_000, 50, () => {});
    const order = sent.slice(from).map((s) => s.endpoint);
    // Whatever went out at once, once queued the rest follow strict priority.
    const firstQueuedCancel = order.indexOf('cancel');
    const tail = order.slice(firstQueuedCancel);
    const rank = { cancel: 0, replace: 1, place: 2 } as Record<string, number>;
    for (let i = 1; i < tail.length; i++) expect(rank[tail[i]!]!).toBeGreaterThanOrEqual(rank[tail[i - 1]!]!);
    const names = sent.slice(from).map((s) => s.name);
    expect(names.filter((x) => x.startsWith('replaceA'))).toEqual(['replaceA.v4']);
    // Every distinct job went out exactly once (a 429 fails the job; the engine decides on a retry).
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(13);
  });
});
