import { describe, expect, it } from 'vitest';
import { budgetedRest } from '../../../src/app/live/budgeted-rest.ts';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../../src/client/http-transport.ts';
import { collect } from '../../../src/client/paging.ts';
import { RestClient } from '../../../src/client/rest-client.ts';
import { VirtualClock } from '../../../src/core/clock.ts';
import type { ReadEndpoint, VenueReads } from '../../../src/engine/index.ts';
import { fixtureCatalog, fixtureText } from '../../support/fixture-catalog.ts';

/*
 * Issue 23, build 2: the daemon's pollers send each REST request through the engine's executor
 * (VenueReads), page by page, with the read's endpoint; nothing reaches the venue beside it.
 */
const REWARDS = JSON.stringify({
  limit: 100,
  offset: 0,
  total_count: 0,
  accruals: [],
  summary: { accrued_today_usd: '0', awaiting_approval_usd: '0', paid_this_month_usd: '0', retained_usd: '0' },
  trend: [],
  symbols: [],
  window: { min_day: '', max_day: '' },
});

function client(): { rest: RestClient; seen: string[] } {
  const seen: string[] = [];
  const transport: HttpTransport = {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const url = new URL(req.path, 'http://venue');
      seen.push(url.pathname + (url.searchParams.get('cursor') ? '?cursor' : ''));
      const text =
        url.pathname === '/api/authenticate'
          ? '{"token":"T"}'
          : url.pathname === '/api/funding-rates'
            ? url.searchParams.get('cursor')
              ? '{"funding_rates":[],"limit":5}'
              : fixtureText('funding-rates.json')
            : url.pathname === '/api/mmlp/v2/reward-accruals'
              ? REWARDS
              : url.pathname === '/api/underlying-prices'
                ? '{"underlying_prices":[]}'
                : '';
      return text === '' ? { status: 404, headers: {}, text: '{"error":"no route"}' } : { status: 200, headers: {}, text };
    },
    close: async () => {},
  };
  const rest = new RestClient({ baseUrl: 'http://venue', clock: new VirtualClock(0), credentials: { apiKey: 'k', apiSecret: 's' }, instruments: fixtureCatalog(), transport, accountId: 'fixture-0001' });
  return { rest, seen };
}

/** Records every read and runs it at once (the executor's part is tested in test/execution). */
function recordingReads(): VenueReads & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    read<T>(endpoint: ReadEndpoint, key: string | null, run: () => Promise<T>): Promise<T> {
      log.push(`${endpoint}:${key ?? '-'}`);
      return run();
    },
  };
}

describe('budgetedRest', () => {
  it('every page of the funding poll, every index-price and reward read goes through the budget', async () => {
    const { rest, seen } = client();
    const reads = recordingReads();
    const b = budgetedRest(rest, reads);
    const rates = await collect(b.pollers.allFundingRates({ symbol: 'EURUSD-PERP' }));
    expect(rates[0]!.rate.toString()).toBe('0.000219269394');
    await b.pollers.underlyingPrices({ symbol: 'EURUSD-PERP', limit: 1, sort_ts: 'desc' });
    await b.rewards.rewardAccruals({});
    expect(reads.log).toEqual(['funding:-', 'funding:-', 'prices:-', 'rewards:-']);
    // The venue saw exactly those requests (plus the login): two funding pages, one price, one reward read.
    expect(seen).toEqual(['/api/authenticate', '/api/funding-rates', '/api/funding-rates?cursor', '/api/underlying-prices', '/api/mmlp/v2/reward-accruals']);
    await rest.close();
  });

  it('a read the budget drops fails the poll (it does not go to the venue)', async () => {
    const { rest, seen } = client();
    const refusing: VenueReads = { read: () => Promise.reject(new Error('dropped')) };
    const b = budgetedRest(rest, refusing);
    await expect(collect(b.pollers.allFundingRates({ symbol: 'EURUSD-PERP' }))).rejects.toThrow('dropped');
    expect(seen).toEqual([]);
    await rest.close();
  });
});
