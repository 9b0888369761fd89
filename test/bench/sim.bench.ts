/**
 * Local venue benches: in-process matching throughput on a 10,000-order book, and the place → ack
 * round trip over a loopback order WebSocket.
 */
import { WebSocket } from 'ws';
import { seededRandomU32 } from '../../src/core/ulid.ts';
import { startVenue, Venue } from '../../src/sim/index.ts';
import type { PlaceSpec } from '../../src/sim/index.ts';
import { percentile, type Bench } from './bench-kit.ts';

const SYMBOL = 'EURUSD-PERP';
const MID = 11400; // ticks of 0.0001

/**
 * Runs `ops` operations of a place/cancel/match mix against a book kept near 10,000 resting orders.
 * Returns operations per wall-clock second and per CPU second of this process (the second is what
 * an idle machine would show; on a shared, loaded machine the wall figure mostly measures the load).
 */
function matchingMix(ops: number): { wall: number; cpu: number } {
  const venue = new Venue();
  const rnd = seededRandomU32(7);
  const u = (): number => rnd() / 4294967296;
  const makers = [venue.createInternalAccount('maker-a'), venue.createInternalAccount('maker-b')];
  const taker = venue.createInternalAccount('taker');
  const actors = makers.map((a) => ({ userId: a.userId, accountId: a.id }));
  const takerActor = { userId: taker.userId, accountId: taker.id };
  const grid = venue.catalog.get(SYMBOL)!.grid;
  const live: string[] = [];
  // Request prices as a client would send them (decimal strings), made once outside the timed loop.
  const text = new Map<number, string>();
  for (let t = MID - 400; t <= MID + 400; t++) text.set(t, grid.toPrice(t));
  const passive = (): PlaceSpec => {
    const buy = u() < 0.5;
    const off = 1 + Math.floor(u() * 200);
    return { symbol: SYMBOL, side: buy ? 'buy' : 'sell', qty: 100 * (1 + Math.floor(u() * 5)), price: text.get(buy ? MID - off : MID + off)!, tif: 'GTC', postOnly: false };
  };
  const place = (spec: PlaceSpec): void => {
    const o = venue.placeNow(actors[live.length & 1]!, spec);
    if (o.state === 'ACCEPTED' || o.state === 'PARTIALLY_FILLED') live.push(o.oid);
  };
  while (live.length < 10_000) place(passive());
  const book = venue.books.get(SYMBOL)!;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) {
    const r = u();
    if (r < 0.5 || live.length < 9_000) {
      place(passive());
    } else if (r < 0.8) {
      const k = Math.floor(u() * live.length);
      const oid = live[k]!;
      live[k] = live[live.length - 1]!;
      live.pop();
      const o = venue.order(oid);
      venue.cancel({ userId: o?.userId ?? '', accountId: o?.accountId ?? '' }, { oid });
    } else {
      const buy = u() < 0.5;
      const best = buy ? book.bestAsk() : book.bestBid();
      if (best === undefined) continue;
      venue.placeNow(takerActor, { symbol: SYMBOL, side: buy ? 'buy' : 'sell', qty: 100 * (1 + Math.floor(u() * 3)), price: text.get(best) ?? grid.toPrice(best), tif: 'IOC', postOnly: false });
    }
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  return { wall: ops / secs, cpu: ops / ((cpu.user + cpu.system) / 1e6) };
}

async function wsPlaceAck(n: number): Promise<{ p50: number; p99: number }> {
  const v = await startVenue({ plugins: [], config: { rate_limit: { enabled: false }, max_open_orders_per_symbol: 1_000_000 } });
  try {
    const res = await fetch(`${v.baseUrl}/api/authenticate`, {
      method: 'POST',
      body: JSON.stringify({ api_key: v.credentials.api_key, api_secret: v.credentials.api_secret, expiration_seconds: 3600 }),
    });
    const { token } = (await res.json()) as { token: string };
    const ws = new WebSocket(`${v.wsUrl}/orders/ws`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r) => ws.once('message', r)); // login reply
    const samples: number[] = [];
    let pending: { resolve: () => void; t0: bigint } | null = null;
    ws.on('message', (d) => {
      const s = String(d);
      if (pending && s.startsWith('{"t":"n"')) {
        samples.push(Number(process.hrtime.bigint() - pending.t0) / 1000);
        const p = pending;
        pending = null;
        p.resolve();
      }
    });
    for (let i = 0; i < n; i++) {
      const price = (1.1 + (i % 300) * 0.0001).toFixed(4);
      await new Promise<void>((resolve) => {
        pending = { resolve, t0: process.hrtime.bigint() };
        ws.send(`{"rid":${i + 1},"t":"p","s":"${SYMBOL}","d":"B","q":100,"p":"${price}","tif":"GTC","po":false}`);
      });
      if (i % 500 === 499) ws.send(`{"rid":${1e6 + i},"t":"X"}`);
    }
    ws.close();
    const warm = samples.slice(Math.min(200, samples.length >> 2));
    return { p50: percentile(warm, 50), p99: percentile(warm, 99) };
  } finally {
    await v.stop();
  }
}

export const benches: Bench[] = [
  {
    name: 'sim matching (place/cancel/match mix, 10k resting orders)',
    async run() {
      matchingMix(50_000); // warm-up
      const runs = [matchingMix(200_000), matchingMix(200_000), matchingMix(200_000)];
      return {
        'sim.matching_ops_per_s': { value: Math.round(Math.max(...runs.map((r) => r.wall))), unit: 'ops/s', target: '>= 500000' },
        'sim.matching_ops_per_cpu_s': { value: Math.round(Math.max(...runs.map((r) => r.cpu))), unit: 'ops/cpu-s' },
      };
    },
  },
  {
    name: 'sim order WS place → ack round trip (loopback)',
    async run() {
      const r = await wsPlaceAck(3000);
      return {
        'sim.ws_place_ack_p50_us': { value: Math.round(r.p50), unit: 'us' },
        'sim.ws_place_ack_p99_us': { value: Math.round(r.p99), unit: 'us' },
      };
    },
  },
];
