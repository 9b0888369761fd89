/**
 * Secondary figure (the primary one, with the daemon in its own process, is `e2e-process.bench.ts`).
 * engine.e2e_inprocess_p50_us / p99_us: venue, proxy and daemon share this event loop, so the figure
 * measures their interleaving as much as the daemon.
 *
 * In detail: end to end through the real clients of a running daemon. A
 * market-data frame that moves the touch is written to the daemon's market-data socket, and the
 * clock stops when the order frame it causes (the replace of a quote) arrives from the daemon's
 * order socket. Both instants are taken in a proxy between the daemon and the local venue, so the
 * figure is socket to socket: WS read and decode, mapping, engine, strategy, risk, executor,
 * encode and WS write, plus two loopback hops (~tens of µs). `engine.tick_to_intent` is the same
 * path without the sockets, clients and daemon around it.
 *
 * Setup: the local venue without synthetic flow; a second account rests a bid and an ask 10 ticks
 * apart and moves both by one tick per sample (alternating up and down), in one venue turn, so the
 * venue sends one book frame per move; the daemon quotes `fixed-spread` 10 ticks off the mid
 * (behind the touch, so its own orders never move the mid) with no minimum order lifetime and a
 * request budget that never throttles (the venue's rate limit is off): pacing is not latency.
 */
import { Writable } from 'node:stream';
import { LiveClock } from '../../src/core/clock.ts';
import { parseConfig } from '../../src/config/load.ts';
import { startDaemon } from '../../src/app/live/daemon.ts';
import { builtinLookup } from '../../src/app/live/strategies.ts';
import { createLogger } from '../../src/obs/logger.ts';
import { startVenue } from '../../src/sim/index.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { percentile, type Bench, type Metric } from './bench-kit.ts';

const SAMPLES = 400;
const WARMUP = 50;
const SYMBOL = 'EURUSD-PERP';

async function measure(): Promise<Record<string, Metric>> {
  const venue = await startVenue({ config: { rate_limit: { enabled: false }, instruments: { only: [SYMBOL] }, market: { enabled: false } } as never });
  const proxy = await startFaultProxy(venue.baseUrl);
  const v = venue.venue;
  const [, makerAcct] = v.defaultUser.accountIds as [string, string];
  const maker = { userId: v.defaultUser.id, accountId: makerAcct };
  let mid = 11405;
  let bid = v.placeNow(maker, { symbol: SYMBOL, side: 'buy', qty: 1000, price: (mid - 5) / 1e4 + '', tif: 'GTC', postOnly: false });
  let ask = v.placeNow(maker, { symbol: SYMBOL, side: 'sell', qty: 1000, price: (mid + 5) / 1e4 + '', tif: 'GTC', postOnly: false });
  const cr = venue.credentials;
  const strategies = await builtinLookup();
  const config = parseConfig(
    `
venue: { mode: remote, base_url: "${proxy.baseUrl}", ws_url: "${proxy.wsUrl}", api_key: "${cr.api_key}", api_secret: "${cr.api_secret}", account_id: "${cr.account_id}" }
bot:
  status_interval_ms: 0
  funding_poll_ms: 0
  strategies:
    - { id: e2e, symbol: ${SYMBOL}, strategy: fixed-spread, params: { levels: 1, halfSpreadTicks: 10, size: 100, maxPosition: 1000 } }
risk: { max_position: 2000, max_order_qty: 500 }
order_manager: { min_order_lifetime_ms: 0 }
# The venue's rate limit is off: a budget that never throttles, so the figure is latency, not pacing.
execution: { budgets: [{ name: all, capacity: 1000, refill_per_sec: 1000, costs: { place: 1, replace: 1, cancel: 1, cancel-all: 1, status: 1, open-orders: 1, fills: 1 } }] }
monitoring: { enabled: false }
logging: { level: silent }
`,
    'e2e.yaml',
    { strategies },
  );
  const daemon = await startDaemon({
    config,
    strategies,
    log: createLogger({ level: 'silent', pretty: false, destination: new Writable({ write: (_c, _e, cb) => cb() }) as never }),
    clock: new LiveClock(),
  });
  const samples: number[] = [];
  try {
    const until = async (pred: () => boolean, ms: number): Promise<boolean> => {
      const end = Date.now() + ms;
      while (!pred() && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
      return pred();
    };
    const working = (): { priceTicks: number; status: string }[] => daemon.engine.snapshot().symbols[0]!.working as never;
    const settled = (): boolean => {
      const w = working();
      return w.length === 2 && w.every((o) => o.status === 'open') && w.some((o) => o.priceTicks === mid - 10) && w.some((o) => o.priceTicks === mid + 10);
    };
    if (!(await until(settled, 20_000))) throw new Error(`the daemon never quoted around the maker's mid: ${JSON.stringify(working())}`);
    let mdAt: number | null = null;
    let orderAt: number | null = null;
    proxy.tap = (dir, text, path) => {
      const t = Number(process.hrtime.bigint()) / 1000;
      if (dir === 'down' && path === '/md/ws' && mdAt === null && text.includes('"b"')) mdAt = t;
      else if (dir === 'up' && path === '/orders/ws' && mdAt !== null && orderAt === null && /"t":"[rp]"/.test(text)) orderAt = t;
    };
    for (let i = 0; i < SAMPLES + WARMUP; i++) {
      mdAt = null;
      orderAt = null;
      const step = i % 2 === 0 ? 1 : -1;
      mid += step;
      // Both sides move in one venue turn: one book frame.
      v.cancel(maker, { oid: bid.oid });
      v.cancel(maker, { oid: ask.oid });
      bid = v.placeNow(maker, { symbol: SYMBOL, side: 'buy', qty: 1000, price: (mid - 5) / 1e4 + '', tif: 'GTC', postOnly: false });
      ask = v.placeNow(maker, { symbol: SYMBOL, side: 'sell', qty: 1000, price: (mid + 5) / 1e4 + '', tif: 'GTC', postOnly: false });
      if (!(await until(() => orderAt !== null, 5_000))) throw new Error(`no order frame followed book move ${i}`);
      if (i >= WARMUP) samples.push(orderAt! - mdAt!);
      if (!(await until(settled, 5_000))) throw new Error(`quotes did not settle after move ${i}: ${JSON.stringify(working())}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    proxy.tap = null;
    await daemon.stop('bench done');
    await proxy.close();
    await venue.stop();
  }
  return {
    'engine.e2e_inprocess_p50_us': { value: percentile(samples, 50), unit: 'µs', target: '' },
    'engine.e2e_inprocess_p99_us': { value: percentile(samples, 99), unit: 'µs', target: '' },
    'engine.e2e_inprocess_samples': { value: samples.length, unit: 'moves' },
  };
}

export const benches: Bench[] = [{ name: 'end to end: market-data frame on the socket → order frame off the socket (daemon, real clients)', run: measure }];
