/**
 * The client order round trip measured across processes, for `e2e-process.bench.ts`: this process
 * is a venue client of its own (mmbot's RestClient + OrderWsClient, as the daemon uses them) logged
 * in to the local venue that runs in the bench's process. Each `sample` message from the parent
 * places one post-only bid far from the touch, times `place` → the venue's accepted (`n`) event, then
 * cancels it and answers with the round trip in µs. Between samples it sits idle, as the daemon does
 * between market moves, so both figures pay the same wake-ups.
 *
 * Env: RTT_BASE_URL, RTT_WS_URL, RTT_API_KEY, RTT_API_SECRET, RTT_SYMBOL, RTT_PRICE_TICKS.
 */
import { LiveClock } from '../../src/core/clock.ts';
import { asClientOrderId, asSymbol } from '../../src/core/ids.ts';
import { OrderWsClient } from '../../src/client/order-ws-client.ts';
import { RestClient } from '../../src/client/rest-client.ts';
import type { PlaceOrder } from '../../src/domain/intents.ts';
import { nowUs } from './bench-kit.ts';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`order-rtt-child: ${name} is not set`);
  return v;
};
const clock = new LiveClock();
const rest = new RestClient({ baseUrl: env('RTT_BASE_URL'), clock, credentials: { apiKey: env('RTT_API_KEY'), apiSecret: env('RTT_API_SECRET') }, requestTimeoutMs: 5_000 });
await rest.loadInstruments();
const ws = new OrderWsClient({ wsUrl: env('RTT_WS_URL'), clock, tokens: rest.tokens!, instruments: rest.instruments, requestTimeoutMs: 5_000, clientHeartbeatTimeoutS: 0 });
let waiting: { cid: string; resolve: (atUs: number) => void; reject: (e: Error) => void } | undefined;
ws.events$.subscribe((e) => {
  if (!waiting || !("order" in e) || e.order?.clientOrderId !== waiting.cid) return;
  if (e.type === 'accepted') waiting.resolve(nowUs());
  else if (e.type === 'rejected') waiting.reject(new Error(`place rejected: ${e.reason ?? ''} ${e.text}`));
});
ws.start();
while (!ws.connected) await new Promise((r) => setTimeout(r, 5));

const symbol = asSymbol(env('RTT_SYMBOL'));
const priceTicks = Number(env('RTT_PRICE_TICKS'));
const qty = rest.instruments.get(symbol)?.minOrderSize ?? 1;
let seq = 0;
async function sample(): Promise<number> {
  const intent: PlaceOrder = { kind: 'place', symbol, side: 'buy', priceTicks, qty, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', tag: null, clientOrderId: asClientOrderId(9_000_000 + seq++) };
  const acked = new Promise<number>((resolve, reject) => {
    waiting = { cid: intent.clientOrderId, resolve, reject };
    setTimeout(() => reject(new Error('no accepted event within 5 s')), 5_000).unref();
  });
  const t0 = nowUs();
  await ws.place(intent);
  const rtt = (await acked) - t0;
  await ws.cancelAll(null);
  return rtt;
}

process.on('message', (m: unknown) => {
  if (m === 'sample') void sample().then((us) => process.send!({ us }), (e: unknown) => process.send!({ error: String(e) }));
  else if (m === 'stop') void ws.stop().then(() => rest.close()).then(() => process.exit(0));
});
process.send!({ ready: true });
