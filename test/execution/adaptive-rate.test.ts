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
    expect(a.burst).toBe(14);
    // A second 429 for a request sent before that decrease is an echo of the same overload.
    a.onThrottled(120, 60);
    expect(a.ratePerSec).toBeCloseTo(5.6);
    expect([a.burst, a.decreases]).toEqual([14, 1]);
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
    const ex = new Executor(config(), clock);
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
    await run(clock, ex, 60_000, 50, feed, () => {
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
