import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/index.ts';
import { DEFAULT_EXECUTION_CONFIG, ENDPOINTS, Executor, READ_ENDPOINTS, type Endpoint, type ExecJob, type ExecutionConfig } from '../../src/execution/index.ts';

/*
 * Issue 23, build 2: one budget for every request, cancels first, then places/replaces, then
 * reads; a read that has waited readMaxWaitMs goes right after the cancels (delayed, never starved),
 * and order entry is never starved by reads.
 */
const ALL = Object.fromEntries(ENDPOINTS.map((e) => [e, 1])) as Record<Endpoint, number>;
// One request per second, no burst beyond 1: every send is one refill.
const cfg = (over: Partial<ExecutionConfig> = {}): ExecutionConfig => ({ ...DEFAULT_EXECUTION_CONFIG, budgets: [{ name: 'u', capacity: 1, refillPerSec: 1, costs: ALL }], readMaxWaitMs: 5_000, ...over });

function job(sent: string[], endpoint: Endpoint, name: string, key: string | null = null): ExecJob {
  return { endpoint, key, run: () => (sent.push(name), Promise.resolve(name)), settled: () => {}, dropped: () => {} };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await Promise.resolve();
};

async function tick(clock: VirtualClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 100) {
    clock.advanceBy(100);
    await settle();
  }
}

describe('Executor priorities with reads', () => {
  it('every read endpoint is a read, and reads rank after order entry', () => {
    expect([...READ_ENDPOINTS].sort()).toEqual(['fills', 'funding', 'open-orders', 'positions', 'prices', 'rewards', 'status']);
    expect(ENDPOINTS.slice(0, 4)).toEqual(['cancel-all', 'cancel', 'replace', 'place']);
  });

  it('cancels first, then replaces and places, then reads (status and open orders before the rest)', async () => {
    const clock = new VirtualClock(0);
    const sent: string[] = [];
    const ex = new Executor(cfg(), clock);
    ex.submit(job(sent, 'place', 'first')); // takes the one token
    for (const [e, n] of [['rewards', 'rw'], ['funding', 'fu'], ['positions', 'po'], ['fills', 'fi'], ['open-orders', 'oo'], ['status', 'st'], ['place', 'pl'], ['replace', 'rp'], ['cancel', 'cx']] as const) ex.submit(job(sent, e, n));
    await tick(clock, 10_000);
    // Within a level, first come first served.
    expect(sent).toEqual(['first', 'cx', 'rp', 'pl', 'oo', 'st', 'po', 'fi', 'rw', 'fu']);
  });

  it('a read waiting readMaxWaitMs goes ahead of places (after cancels): delayed, never starved', async () => {
    const clock = new VirtualClock(0);
    const sent: string[] = [];
    const ex = new Executor(cfg(), clock);
    ex.submit(job(sent, 'place', 'p0'));
    ex.submit(job(sent, 'positions', 'read')); // queued at 0
    // Order entry wants more than the budget: one new place every 500 ms for 10 s.
    for (let i = 1; i <= 20; i++) {
      clock.advanceBy(500);
      await settle();
      ex.submit(job(sent, 'place', `p${i}`, `P${i}`));
      if (i === 10) ex.submit(job(sent, 'cancel', 'cx'));
    }
    await settle();
    // One send per second: p0 at 0, then places at 1..4 s; at 5 s the read has waited 5 s and goes;
    // the cancel (queued at 5 s) goes first at 6 s; the places carry on.
    expect(sent.slice(0, 9)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'read', 'cx', 'p5', 'p6']);
    expect(sent.filter((s) => s === 'read')).toHaveLength(1);
  });

  it('reads queued behind a saturated order flow do not take its budget before they are due', async () => {
    const clock = new VirtualClock(0);
    const sent: string[] = [];
    const ex = new Executor(cfg({ readMaxWaitMs: 60_000 }), clock);
    ex.submit(job(sent, 'place', 'p0'));
    ex.submit(job(sent, 'funding', 'f'));
    ex.submit(job(sent, 'rewards', 'r'));
    for (let i = 1; i <= 20; i++) {
      ex.submit(job(sent, 'place', `p${i}`, `P${i}`));
      clock.advanceBy(1_000);
      await settle();
    }
    expect(sent.filter((s) => s.startsWith('p'))).toHaveLength(21);
    expect(sent.filter((s) => !s.startsWith('p'))).toEqual([]);
    // Once order entry is quiet, the reads go, one per refill.
    await tick(clock, 2_000);
    expect(sent.slice(21)).toEqual(['f', 'r']);
  });
});
