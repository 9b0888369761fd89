/**
 * `venueProbes` in-process against local venues over real sockets: the failures a child process
 * would print, without a process per case (symbols the venue does not list, a venue clock ahead).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock, type Clock } from '../../../src/core/clock.ts';
import { DEFAULT_ORDER_BUDGET } from '../../../src/execution/config.ts';
import type { VenueEndpoint } from '../../../src/app/live/venue-endpoint.ts';
import { venueProbes, type VenueProbes } from '../../../src/cli/venue-check/probes.ts';
import { runChecks } from '../../../src/cli/venue-check/run-checks.ts';
import { startVenue, type RunningVenue } from '../../../src/sim/index.ts';

/** The wall clock moved `offsetMs` ahead (a venue whose clock runs early). */
class OffsetClock implements Clock {
  readonly #base = new LiveClock();
  constructor(readonly offsetMs: number) {}
  nowMs(): number {
    return this.#base.nowMs() + this.offsetMs;
  }
  nowNs(): bigint {
    return this.#base.nowNs() + BigInt(this.offsetMs) * 1_000_000n;
  }
  setTimer(delayMs: number, fn: () => void): () => void {
    return this.#base.setTimer(delayMs, fn);
  }
}

function endpointOf(v: RunningVenue, accountId?: string): VenueEndpoint {
  return {
    mode: 'remote',
    baseUrl: v.baseUrl,
    wsUrl: v.wsUrl,
    credentials: { apiKey: v.credentials.api_key, apiSecret: v.credentials.api_secret },
    accountId,
    tokenLifetimeS: 3600,
    maxResponseBytes: undefined,
    requestTimeoutMs: 2_000,
    embedded: null,
    close: async () => {},
  };
}

let venue: RunningVenue | undefined;
let probes: VenueProbes | undefined;
afterEach(async () => {
  await probes?.close();
  await venue?.stop();
  probes = undefined;
  venue = undefined;
});

async function run(symbols: string[], venueClock?: Clock, accountId?: string) {
  venue = await startVenue({ port: 0, ...(venueClock ? { clock: venueClock } : {}), config: { instruments: { only: ['EURUSD-PERP'] } } });
  probes = venueProbes({ endpoint: endpointOf(venue, accountId), clock: new LiveClock(), symbols, budgets: [DEFAULT_ORDER_BUDGET], maxSkewMs: 1_000, socketTimeoutMs: 3_000, placeTest: false });
  return runChecks(probes.checks);
}

describe('venueProbes', () => {
  it('a symbol the venue does not list fails the symbols check; the sockets that need it are skipped', async () => {
    const r = await run(['EURUSD-PERP', 'NOPE-PERP']);
    const by = Object.fromEntries(r.outcomes.map((o) => [o.name, o]));
    expect(by['symbols']!.detail).toBe('NOPE-PERP is not listed by the venue (1 instrument listed)');
    expect(by['order socket']!.status).toBe('skip');
    expect(by['market-data socket']!.status).toBe('skip');
    expect(r.firstFailure?.name).toBe('symbols');
  }, 30_000);

  it('a venue clock 5 s ahead fails the clock skew check with the offset measured', async () => {
    const r = await run(['EURUSD-PERP'], new OffsetClock(5_000));
    const skew = r.outcomes.find((o) => o.name === 'clock skew')!;
    expect(skew.status).toBe('fail');
    // 5000 ms, give or take the round trip on a loaded machine.
    const ms = Number(/off the venue's by \+(\d+) ms/.exec(skew.detail)?.[1]);
    expect(Math.abs(ms - 5_000)).toBeLessThan(500);
    expect(skew.detail).toContain('over 1000 ms: sync the host\'s clock (NTP)');
    expect(r.outcomes.filter((o) => o.status === 'fail').map((o) => o.name)).toEqual(['clock skew']);
  }, 30_000);

  it('a venue.account_id the key does not reach fails the permissions check naming the accounts it does', async () => {
    const r = await run(['EURUSD-PERP'], undefined, 'NOT-MY-ACCOUNT');
    const perms = r.outcomes.find((o) => o.name === 'permissions')!;
    expect(perms.status).toBe('fail');
    // The local venue's default user has two accounts; its default one comes first.
    expect(perms.detail).toMatch(new RegExp(`^account NOT-MY-ACCOUNT \\(venue\\.account_id\\) is not among the key's accounts: ${venue!.credentials.account_id}, \\w+$`));
    expect(r.firstFailure?.name).toBe('permissions');
    // The order socket's upgrade for that account is refused (400): the check ends at the refusal
    // rather than waiting out its 3 s deadline.
    const socket = r.outcomes.find((o) => o.name === 'order socket')!;
    expect(socket.detail).toMatch(/^no login on ws:\/\/127\.0\.0\.1:\d+\/orders\/ws: BAD_REQUEST: order WS upgrade refused with HTTP 400/);
  }, 30_000);
});
