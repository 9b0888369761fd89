/**
 * Client latency figures:
 * - `client.md_frame_to_event_*`: a captured-size L2 frame (14 bids / 12 asks) handed to the
 *   market-data client by its socket → the BookUpdated emitted on `books$` (decode, map to ticks,
 *   book maintenance, emission). Measured in-process per frame with hrtime.
 * - `client.order_rtt_inprocess_*`: `place` over the order WebSocket → the venue's `n` (accepted)
 *   event received by the client, over loopback against the local venue running on the same event
 *   loop (one order in flight at a time): no process wake-up in it. The headline
 *   `client.order_rtt_*` is measured across processes, in the same run as the e2e figure it bounds
 *   (`e2e-process.bench.ts`).
 */
import { LiveClock } from '../../src/core/clock.ts';
import { asClientOrderId } from '../../src/core/ids.ts';
import { MarketDataWsClient } from '../../src/client/md-ws-client.ts';
import { fakeSocketFactory } from '../support/fake-socket.ts';
import { fixtureCatalog, fixture } from '../support/fixture-catalog.ts';
import { bid, testOrderWs, testRest, testVenue, until } from '../support/venue-harness.ts';
import { nowUs, percentile, type Bench, type Metric } from './bench-kit.ts';

async function mdFrameToEvent(): Promise<Record<string, Metric>> {
  const fake = fakeSocketFactory();
  const md = new MarketDataWsClient({
    wsUrl: 'ws://bench:1',
    clock: new LiveClock(),
    instruments: fixtureCatalog(),
    socketFactory: fake.factory,
    staleAfterMs: 0,
    idleTimeoutMs: 0,
  });
  let emittedAt = 0;
  md.books$.subscribe(() => {
    emittedAt = nowUs();
  });
  md.subscribeBook('GBPUSD-PERP');
  md.start();
  await new Promise((r) => setImmediate(r));
  const s = fake.last();
  s.open();
  // Frames differ (price shifts, quantities) so nothing is cached between iterations.
  const base = fixture<{ b: { p: string; q: number }[]; a: { p: string; q: number }[] }>('ws-md-2.json');
  const frames = Array.from({ length: 256 }, (_, i) => {
    const shift = (i % 7) - 3;
    const px = (p: string): string => (Number(p) + shift * 0.0001).toFixed(4);
    return JSON.stringify({ t: '2', ts: 1790222018, tn: i, s: 'GBPUSD-PERP', b: base.b.map((l, j) => ({ p: px(l.p), q: l.q + ((i + j) % 5) * 100 })), a: base.a.map((l, j) => ({ p: px(l.p), q: l.q + ((i * j) % 3) * 100 })), st: true });
  });
  for (let i = 0; i < 20_000; i++) s.receive(frames[i & 255]!);
  const samples: number[] = [];
  for (let i = 0; i < 50_000; i++) {
    const t0 = nowUs();
    s.receive(frames[i & 255]!);
    samples.push(emittedAt - t0);
  }
  await md.stop();
  return {
    'client.md_frame_to_event_p50_us': { value: percentile(samples, 50), unit: 'µs', target: '< 20' },
    'client.md_frame_to_event_p99_us': { value: percentile(samples, 99), unit: 'µs', target: '< 100' },
  };
}

async function orderRtt(): Promise<Record<string, Metric>> {
  const v = await testVenue();
  const rest = testRest(v.baseUrl, undefined, { instruments: v.venue.catalog });
  const ws = testOrderWs(v.wsUrl, rest, undefined, { clientHeartbeatTimeoutS: 0 });
  let waiting: { cid: string; resolve: (atUs: number) => void } | undefined;
  ws.events$.subscribe((e) => {
    if (e.type === 'accepted' && waiting && e.order.clientOrderId === waiting.cid) waiting.resolve(nowUs());
  });
  ws.start();
  await until(() => ws.connected, 5_000, 'login');
  const samples: number[] = [];
  const N = 2_000;
  for (let i = 0; i < N + 200; i++) {
    const intent = { ...bid(10_500 + (i % 50)), clientOrderId: asClientOrderId(5_000_000 + i) };
    const acked = new Promise<number>((resolve) => {
      waiting = { cid: intent.clientOrderId, resolve };
    });
    const t0 = nowUs();
    await ws.place(intent);
    const t1 = await acked;
    if (i >= 200) samples.push(t1 - t0);
    if (i % 50 === 49) await ws.cancelAll(null);
  }
  await ws.cancelAll(null);
  await ws.stop();
  await rest.close();
  await v.stop();
  return {
    'client.order_rtt_inprocess_p50_us': { value: percentile(samples, 50), unit: 'µs (client and venue on one event loop)' },
    // p90 alongside p99: on a loaded shared machine p99 mostly measures scheduler stalls.
    'client.order_rtt_inprocess_p90_us': { value: percentile(samples, 90), unit: 'µs (one event loop)' },
    'client.order_rtt_inprocess_p99_us': { value: percentile(samples, 99), unit: 'µs (one event loop)' },
  };
}

export const benches: Bench[] = [
  { name: 'client md frame → book event', run: mdFrameToEvent },
  { name: 'client order place → ack over loopback', run: orderRtt },
];
