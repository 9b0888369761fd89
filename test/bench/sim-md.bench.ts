/**
 * Market-data fan-out: the venue serves 20 /md/ws connections, each subscribed to EURUSD-PERP
 * LEVEL_2, while the book changes 50 times a second. The clients run in a worker thread so the
 * main thread's event-loop utilisation is the venue's own CPU share. A frame is late when it
 * arrives more than 100 ms after its `ts`/`tn`, or when it never arrives (dropped).
 */
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { startVenue } from '../../src/sim/index.ts';
import { marketServicesOf } from '../../src/sim/market/index.ts';
import type { Bench } from './bench-kit.ts';

const CONNECTIONS = 20;
const RATE_PER_S = 50;
const DURATION_MS = 5_000;
const LATE_MS = 100;

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.wsPath);
let received = 0, late = 0, counting = false;
const socks = [];
let ready = 0;
for (let i = 0; i < workerData.n; i++) {
  const ws = new WebSocket(workerData.url, { headers: { authorization: 'Bearer ' + workerData.token } });
  socks.push(ws);
  ws.on('open', () => ws.send(JSON.stringify({ rid: 1, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_2', ticker: false, trades: false })));
  ws.on('message', (data) => {
    const f = JSON.parse(data.toString());
    if (f.rid === 1) { if (++ready === workerData.n) parentPort.postMessage({ ready: true }); return; }
    if (f.t !== '2' || !counting) return;
    received++;
    const lagMs = Date.now() - (f.ts * 1000 + f.tn / 1e6);
    if (lagMs > workerData.lateMs) late++;
  });
}
parentPort.on('message', (m) => {
  if (m === 'start') counting = true;
  if (m === 'stop') { counting = false; parentPort.postMessage({ received, late }); for (const s of socks) s.terminate(); }
});
`;

async function fanout(): Promise<{ cpuPct: number; rssMb: number; late: number; sent: number; expected: number }> {
  const v = await startVenue({
    config: {
      rate_limit: { enabled: false },
      instruments: { only: ['EURUSD-PERP'] },
      market: { enabled: false },
      rewards: { enabled: false },
      funding: { enabled: false },
      liquidation: { enabled: false },
    },
  });
  const auth = await fetch(`${v.baseUrl}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: v.credentials.api_key, api_secret: v.credentials.api_secret, expiration_seconds: 3600 }),
  });
  const token = ((await auth.json()) as { token: string }).token;
  const venue = v.venue;
  const grid = venue.catalog.get('EURUSD-PERP')!.grid;
  const a = venue.accounts.account(v.credentials.account_id)!;
  const actor = { userId: a.userId, accountId: a.id };
  for (let k = 1; k <= 20; k++) {
    venue.placeNow(actor, { symbol: 'EURUSD-PERP', side: 'buy', qty: 100 * k, price: grid.toPrice(11390 - k), tif: 'GTC', postOnly: false });
    venue.placeNow(actor, { symbol: 'EURUSD-PERP', side: 'sell', qty: 100 * k, price: grid.toPrice(11410 + k), tif: 'GTC', postOnly: false });
  }
  const wsPath = createRequire(import.meta.url).resolve('ws');
  const worker = new Worker(CLIENT, { eval: true, workerData: { url: `${v.wsUrl}/md/ws`, token, n: CONNECTIONS, wsPath, lateMs: LATE_MS } });
  await new Promise<void>((resolve) => worker.once('message', () => resolve()));
  const hub = marketServicesOf(venue)!.md.hub;
  const sent0 = hub.stats.snapshotsEncoded;
  worker.postMessage('start');
  await new Promise((r) => setTimeout(r, 50));
  const elu0 = performance.eventLoopUtilization();
  let rss = 0;
  let live: string | null = null;
  let i = 0;
  const start = Date.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      // One book change per tick: add a level inside the spread, or remove it again.
      if (live) {
        venue.cancel(actor, { oid: live });
        live = null;
      } else {
        live = venue.placeNow(actor, { symbol: 'EURUSD-PERP', side: i % 4 < 2 ? 'buy' : 'sell', qty: 100, price: grid.toPrice(i % 4 < 2 ? 11395 : 11405), tif: 'GTC', postOnly: false }).oid;
      }
      i++;
      rss = Math.max(rss, process.memoryUsage().rss);
      if (Date.now() - start >= DURATION_MS) {
        clearInterval(timer);
        resolve();
      }
    }, 1000 / RATE_PER_S);
  });
  const elu = performance.eventLoopUtilization(elu0);
  await new Promise((r) => setTimeout(r, 300));
  const sent = hub.stats.snapshotsEncoded - sent0;
  const result = await new Promise<{ received: number; late: number }>((resolve) => {
    worker.on('message', (m: { received?: number; late: number }) => {
      if (m.received !== undefined) resolve(m as { received: number; late: number });
    });
    worker.postMessage('stop');
  });
  await worker.terminate();
  await v.stop();
  const expected = sent * CONNECTIONS;
  return { cpuPct: elu.utilization * 100, rssMb: rss / 1024 / 1024, late: result.late + Math.max(0, expected - result.received), sent, expected };
}

export const benches: Bench[] = [
  {
    name: 'sim market-data fan-out (20 connections × L2 at 50 updates/s)',
    async run() {
      const r = await fanout();
      return {
        'sim.md_fanout_cpu_pct': { value: Number(r.cpuPct.toFixed(1)), unit: '% of one core (venue thread)', target: '< 25' },
        'sim.md_fanout_rss_mb': { value: Number(r.rssMb.toFixed(1)), unit: 'MB', target: '< 200' },
        'sim.md_fanout_late_frames': { value: r.late, unit: `frames of ${r.expected} (late > ${LATE_MS} ms or dropped)`, target: '0' },
      };
    },
  },
];
