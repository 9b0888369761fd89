/** The pure parts of `mmbot venue check`: the runner, the host classes, the rate budget, the test price. */
import { describe, expect, it } from 'vitest';
import { clockSkew } from '../../../src/cli/venue-check/clock-skew.ts';
import { hostKind } from '../../../src/cli/venue-check/host-kind.ts';
import { placeTestPriceTicks } from '../../../src/cli/venue-check/place-test.ts';
import { checkRateBudget, orderEntryCeiling } from '../../../src/cli/venue-check/rate-budget.ts';
import { formatOutcome, formatVerdict, runChecks, type VenueCheck } from '../../../src/cli/venue-check/run-checks.ts';
import { DEFAULT_ORDER_BUDGET, type RateBudget } from '../../../src/execution/config.ts';
import { fixtureCatalog } from '../../support/fixture-catalog.ts';

const pass = (name: string, detail: string, needs?: string[]): VenueCheck => ({ name, ...(needs ? { needs } : {}), run: () => Promise.resolve(detail) });
const fail = (name: string, why: string, needs?: string[]): VenueCheck => ({ name, ...(needs ? { needs } : {}), run: () => Promise.reject(new Error(why)) });

describe('runChecks', () => {
  it('runs every check, skips the ones whose prerequisite failed, and names the first failure', async () => {
    let ranAfterFailure = 0;
    const seen: string[] = [];
    const report = await runChecks(
      [
        pass('rest host', 'answers'),
        fail('authentication', 'HTTP 401', ['rest host']),
        { name: 'permissions', needs: ['authentication'], run: () => ((ranAfterFailure += 1), Promise.resolve('x')) },
        pass('clock skew', '+3 ms', ['rest host']),
        fail('rate budget', 'too fast'),
      ],
      (o) => seen.push(formatOutcome(o)),
    );
    expect(ranAfterFailure).toBe(0);
    expect(seen).toEqual(['✓ rest host: answers', '✗ authentication: HTTP 401', '- permissions: skipped: needs authentication', '✓ clock skew: +3 ms', '✗ rate budget: too fast']);
    expect(report.firstFailure?.name).toBe('authentication');
    expect(formatVerdict(report)).toBe('FAILED: authentication (2 of 5 checks failed): HTTP 401');
  });

  it('says all passed when none failed', async () => {
    const report = await runChecks([pass('a', '1'), pass('b', '2', ['a'])]);
    expect(report.firstFailure).toBeNull();
    expect(formatVerdict(report)).toBe('all 2 checks passed');
  });
});

describe('hostKind', () => {
  it('only loopback and sandbox hosts are safe; every other host is production', () => {
    expect(hostKind('http://127.0.0.1:39513')).toBe('loopback');
    expect(hostKind('http://localhost:8080')).toBe('loopback');
    expect(hostKind('http://[::1]:8080')).toBe('loopback');
    expect(hostKind('https://gateway.sandbox.architect.exchange')).toBe('sandbox');
    expect(hostKind('https://gateway.architect.exchange')).toBe('production');
    // A label merely containing the word is not a sandbox host.
    expect(hostKind('https://sandboxed.example.com')).toBe('production');
    expect(hostKind('http://10.0.0.5:9000')).toBe('production');
  });
});

describe('rate budget', () => {
  const budget = (name: string, capacity: number, refillPerSec: number, costs: RateBudget['costs']): RateBudget => ({ name, capacity, refillPerSec, costs });

  it('the default budget (20 burst, 8/s) fits under the venue per user (100, 10/s)', () => {
    expect(checkRateBudget([DEFAULT_ORDER_BUDGET])).toBe('order entry at most 8/s, burst 20 (budgets user-orders); venue per user 10/s, burst 100');
  });

  it('disjoint buckets add up, divided by their cheapest order cost; over 10/s fails naming the figure', () => {
    const budgets = [budget('places', 40, 6, { place: 1, replace: 1 }), budget('cancels', 20, 12, { cancel: 2, 'cancel-all': 2 })];
    expect(orderEntryCeiling(budgets)).toEqual({ capacity: 50, refillPerSec: 12 });
    expect(() => checkRateBudget(budgets)).toThrow("budgets (places, cancels) allow 12 order requests/s, over the venue's 10/s per user");
  });

  it('a venue without a limit passes any ceiling but still names it', () => {
    expect(checkRateBudget([budget('big', 500, 50, { place: 1, replace: 1, cancel: 1, 'cancel-all': 1 })], null)).toBe('order entry at most 50/s, burst 500 (budgets big); the venue sets no limit');
  });

  it('a burst over 100 fails; an order endpoint in no budget fails as unlimited', () => {
    expect(() => checkRateBudget([budget('big', 150, 5, { place: 1, replace: 1, cancel: 1, 'cancel-all': 1 })])).toThrow('allow bursts of 150 order requests');
    expect(() => checkRateBudget([budget('no-cancel-all', 10, 4, { place: 1, replace: 1, cancel: 1 })])).toThrow('no execution budget charges "cancel-all"');
  });
});

describe('placeTestPriceTicks', () => {
  const eur = fixtureCatalog().get('EURUSD-PERP')!;

  it('bids 5% under the best bid, snapped down to the tick', () => {
    // 1.1401 × 0.95 = 1.083095 → 1.0830 (tick 0.0001).
    expect(placeTestPriceTicks(eur, { bid: '1.1401', mark: '1.2', bandLow: '1.02' })).toBe(10_830);
  });

  it('falls back to the mark, never goes under the band floor, and fails without any price', () => {
    expect(placeTestPriceTicks(eur, { bid: null, mark: '1.1' })).toBe(10_450);
    expect(placeTestPriceTicks(eur, { bid: '1.1401', bandLow: '1.1' })).toBe(11_000);
    expect(() => placeTestPriceTicks(eur, {})).toThrow('EURUSD-PERP has no bid, mark or last price to place a test order far from');
  });
});

describe('clockSkew', () => {
  const sent = Date.parse('2026-11-29T00:00:01.000Z');

  it('venue time minus the round trip\'s midpoint, ± half the round trip (nanosecond digits cut to ms)', () => {
    expect(clockSkew('2026-11-29T00:00:01.250123456Z', sent, sent + 100)).toEqual({ skewMs: 200, uncertaintyMs: 50, wholeSeconds: false });
    expect(clockSkew('2026-11-29T00:00:00.800Z', sent, sent + 10)).toEqual({ skewMs: -205, uncertaintyMs: 5, wholeSeconds: false });
  });

  it('a whole-second timestamp is read as the middle of its second, ± 500 ms more', () => {
    expect(clockSkew('2026-11-29T00:00:01Z', sent, sent + 100)).toEqual({ skewMs: 450, uncertaintyMs: 550, wholeSeconds: true });
  });

  it('a timestamp that is not a time is named', () => {
    expect(() => clockSkew('yesterday', sent, sent)).toThrow('the venue\'s health timestamp "yesterday" is not a time');
  });
});
