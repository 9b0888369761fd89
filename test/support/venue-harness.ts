/** Test helper: a local venue plus client wiring with fast backoffs, for integration tests. */
import { LiveClock, type Clock } from '../../src/core/clock.ts';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import type { PlaceOrder } from '../../src/domain/intents.ts';
import { startVenue, type RunningVenue, type VenueConfigInput, type VenuePlugin } from '../../src/sim/index.ts';
import { RestClient } from '../../src/client/rest-client.ts';
import { OrderWsClient } from '../../src/client/order-ws-client.ts';

/** Fixed credentials so a restarted venue accepts the same key. */
export const TEST_KEY = { api_key: 'test-key-0001', api_secret: 'test-secret-0001' } as const;

/**
 * Starts a venue with the test key, two symbols, no rate limit and immediate acknowledgements
 * (`ack_latency_ms: 0`; the venue default is 5 ms), unless overridden: these tests check the
 * clients' reconnect and resync logic, where an order still pending at a drop is another case.
 */
export function testVenue(opts: { port?: number; clock?: Clock; config?: VenueConfigInput; plugins?: readonly VenuePlugin[] } = {}): Promise<RunningVenue> {
  return startVenue({
    port: opts.port ?? 0,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.plugins ? { plugins: opts.plugins } : { plugins: [] }),
    config: {
      rate_limit: { enabled: false },
      ack_latency_ms: 0,
      server_heartbeat_ms: 1000,
      instruments: { only: ['EURUSD-PERP', 'GBPUSD-PERP'] },
      ...opts.config,
      default_user: { api_key: TEST_KEY.api_key, api_secret: TEST_KEY.api_secret },
    },
  });
}

/** Fast backoffs so reconnect tests finish in tens of ms. */
export const FAST = { initialMs: 10, maxMs: 100, multiplier: 2, jitter: 0.5 } as const;

/** A REST client for `baseUrl` with the test key. */
export function testRest(baseUrl: string, clock: Clock = new LiveClock(), extra: Partial<ConstructorParameters<typeof RestClient>[0]> = {}): RestClient {
  return new RestClient({
    baseUrl,
    clock,
    credentials: { apiKey: TEST_KEY.api_key, apiSecret: TEST_KEY.api_secret },
    retry: FAST,
    requestTimeoutMs: 2_000,
    ...extra,
  });
}

/** An order WS client sharing `rest`'s tokens and catalog. */
export function testOrderWs(wsUrl: string, rest: RestClient, clock: Clock = new LiveClock(), extra: Partial<ConstructorParameters<typeof OrderWsClient>[0]> = {}): OrderWsClient {
  return new OrderWsClient({ wsUrl, clock, tokens: rest.tokens!, instruments: rest.instruments, reconnect: FAST, requestTimeoutMs: 2_000, ...extra });
}

let cidSeq = 1_000;
/** A resting post-only EURUSD bid (well inside the price band, far from the touch). */
export function bid(priceTicks = 11_000, qty = 100): PlaceOrder {
  return {
    kind: 'place',
    symbol: asSymbol('EURUSD-PERP'),
    side: 'buy',
    priceTicks,
    qty,
    tif: 'GTC',
    postOnly: true,
    reprice: 'rej',
    selfTrade: 'CancelIncoming',
    clientOrderId: asClientOrderId(++cidSeq),
    tag: 'itest',
  };
}

/** Resolves when `pred()` holds, polling every few ms; rejects after `timeoutMs`. */
export async function until(pred: () => boolean, timeoutMs = 3_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
