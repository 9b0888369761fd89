/**
 * engine.e2e_socket_p50_us / p99_us / p999_us: end to end through a daemon in its own process,
 * started as a user starts it (`node bin/mmbot.js run --config <file>`, remote mode). The venue
 * side runs here: the local venue and a measuring proxy in front of it. The clock starts when the
 * proxy writes a book frame that moves the touch to the daemon's market-data socket and stops when
 * it reads the order frame that move causes (the replace of a quote) from the daemon's order
 * socket: what a venue would see, two loopback hops included.
 *
 * engine.e2e_echo_floor_p50_us / p99_us: in the same run, interleaved with the moves, the round trip
 * of a frame of the same size through a trivial echo process (`echo-server.mjs`) over the same kind
 * of sockets (`ws`, loopback, no compression): the part of the figure no daemon can remove.
 *
 * client.order_rtt_p50_us / p90 / p99: in the same run, interleaved with the moves, the round trip a
 * venue client pays: a client process of its own (`order-rtt-child.ts`, mmbot's order WebSocket
 * client) places a post-only order on the venue (directly, not through the proxy) and times place →
 * accepted. `engine.e2e_p50_vs_order_rtt_p50` (target ≤ 1) and `engine.e2e_p99_vs_order_rtt_p50`
 * (target ≤ 3) are the "a move answered within one venue round trip". The in-process round
 * trip (client and venue on one event loop, no wake-up) is `client.order_rtt_inprocess_*`.
 *
 * engine.e2e_busy_p50_us / p99_us and engine.e2e_busy_fills_*: the same daemon answering a move
 * while busy. Every fourth move is a busy one, alternately: a Prometheus scrape (`GET /metrics`,
 * which copies a snapshot into gauges and renders the registry) sent 1 ms before it, so the scrape is
 * in flight when the book frame arrives; or a burst of fills on the daemon's other market (a taker
 * takes three minimum-size IOC fills from its quote there 1 ms before the move: fill events,
 * accounting, the re-quote). The daemon runs with monitoring on (as a user's does by default) for
 * every move; only frames of the measured symbol count.
 *
 * `MMBOT_BENCH_STAGES=1 npm run bench -- e2e-process` also runs the daemon with `MMBOT_STAGES` (hot-path
 * stamps, see src/core/stage-stamps.ts) and reports each stage's p50 (`engine.e2e_stage_*_p50_us`):
 * the stamps are CLOCK_MONOTONIC, shared by both processes, so wire-in (proxy write → the daemon's
 * frame handler) and wire-out (socket write → proxy read) come out too. Off by default: the headline
 * figures are taken without stamps.
 *
 * `MMBOT_BENCH_DAEMON_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` passes node flags to the daemon
 * (a CPU profile of its hot path). On a machine shared with other work, `chrt -f 10 npm run bench --
 * e2e-process` keeps that work from preempting the measured processes (root only).
 *
 * Setup as in `e2e.bench.ts` (the in-process figure, kept as the secondary one): no synthetic flow,
 * a second account rests a bid and an ask 10 ticks apart and moves both by one tick per sample;
 * the daemon quotes `fixed-spread` 10 ticks off the mid with no minimum order lifetime and a request
 * budget that never throttles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get as httpGet, Agent } from 'node:http';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { startVenue, type RunningVenue } from '../../src/sim/index.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import { percentile, type Bench, type Metric } from './bench-kit.ts';
import { freePort } from '../support/free-port.ts';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLES = 1_000;
/** Every BUSY_EVERY-th move is a busy one (a scrape in flight), on top of SAMPLES quiet ones. */
const BUSY_EVERY = 4;
const WARMUP = 100;
const SYMBOL = 'EURUSD-PERP';
/** The daemon's second market, where a burst of fills lands just before some moves. */
const FILLS_SYMBOL = 'GBPUSD-PERP';
const FILLS_MID = 13452;
/** Fills per burst (IOC takes of the minimum size on the daemon's quote there). */
const FILL_BURST = 3;

const nowUs = (): number => Number(process.hrtime.bigint()) / 1000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(pred: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!pred() && Date.now() < end) await sleep(2);
  return pred();
}

/** Starts the echo process and connects to it; `rtt(text)` resolves the round trip in µs. */
async function startEcho(): Promise<{ rtt(text: string): Promise<number>; close(): void }> {
  const proc = spawn(process.execPath, [join(import.meta.dirname, 'echo-server.mjs')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => createInterface({ input: proc.stdout! }).once('line', resolve));
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let pending: ((t: number) => void) | null = null;
  ws.on('message', () => pending?.(nowUs()));
  return {
    rtt: (text) =>
      new Promise<number>((resolve) => {
        const t0 = nowUs();
        pending = (t) => resolve(t - t0);
        ws.send(text);
      }),
    close: () => {
      ws.terminate();
      proc.kill('SIGTERM');
    },
  };
}

/**
 * Starts `order-rtt-child.ts` (a venue client in its own process, logged in as a user of its own,
 * straight to the venue: no proxy); `sample()` resolves one place → accepted round trip in µs, timed
 * inside the child.
 */
async function startOrderRttClient(venue: RunningVenue, priceTicks: number): Promise<{ sample(): Promise<number>; close(): Promise<void> }> {
  const { key } = venue.venue.createUser('rtt-client', [{ name: 'rtt', balanceUsd: '1000000' }]);
  const proc = spawn(process.execPath, [join(ROOT, 'bin/run-ts.js'), join(import.meta.dirname, 'order-rtt-child.ts')], {
    cwd: ROOT,
    env: { ...process.env, RTT_BASE_URL: venue.baseUrl, RTT_WS_URL: venue.wsUrl, RTT_API_KEY: key.apiKey, RTT_API_SECRET: key.apiSecret, RTT_SYMBOL: SYMBOL, RTT_PRICE_TICKS: String(priceTicks) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let pending: ((m: { us?: number; error?: string; ready?: boolean }) => void) | null = null;
  proc.on('message', (m: { us?: number; error?: string; ready?: boolean }) => pending?.(m));
  const next = (): Promise<{ us?: number; error?: string; ready?: boolean }> => new Promise((resolve) => (pending = resolve));
  const ready = await Promise.race([next(), sleep(30_000).then(() => ({ error: 'the order round-trip client did not log in within 30 s' }))]);
  if (!('ready' in ready)) throw new Error(ready.error);
  return {
    sample: async () => {
      const answer = next();
      proc.send('sample');
      const m = await answer;
      if (m.us === undefined) throw new Error(`order round-trip client: ${m.error}`);
      return m.us;
    },
    close: async () => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.send('stop');
      await Promise.race([exited, sleep(5_000)]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
  };
}


function writeConfig(dir: string, baseUrl: string, wsUrl: string, accountId: string, monitoringPort: number): string {
  const path = join(dir, 'e2e.yaml');
  writeFileSync(
    path,
    `venue: { mode: remote, base_url: "${baseUrl}", ws_url: "${wsUrl}", api_key: "\${BENCH_API_KEY}", api_secret: "\${BENCH_API_SECRET}", account_id: "${accountId}" }
bot:
  status_interval_ms: 0
  funding_poll_ms: 0
  strategies:
    - { id: e2e, symbol: ${SYMBOL}, strategy: fixed-spread, params: { levels: 1, halfSpreadTicks: 10, size: 100, maxPosition: 1000 } }
    - { id: e2e-fills, symbol: ${FILLS_SYMBOL}, strategy: fixed-spread, params: { levels: 1, halfSpreadTicks: 10, size: 500, maxPosition: 1000 } }
risk: { max_position: 2000, max_order_qty: 500 }
order_manager: { min_order_lifetime_ms: 0 }
execution: { budgets: [{ name: all, capacity: 1000, refill_per_sec: 1000, costs: { place: 1, replace: 1, cancel: 1, cancel-all: 1, status: 1, open-orders: 1, fills: 1 } }] }
monitoring: { enabled: true, port: ${monitoringPort} }
rewards: { enabled: false }
logging: { level: warn, pretty: false }
`,
  );
  return path;
}

async function measure(): Promise<Record<string, Metric>> {
  // ack_latency_ms 0: the venue acknowledges at once (its default holds a place 5 ms, the captured
  // venue's ack time), so the order round trip is the sockets and the work on both sides.
  const venue = await startVenue({ config: { rate_limit: { enabled: false }, ack_latency_ms: 0, instruments: { only: [SYMBOL, FILLS_SYMBOL] }, market: { enabled: false } } as never });
  const proxy = await startFaultProxy(venue.baseUrl);
  const v = venue.venue;
  const [, makerAcct] = v.defaultUser.accountIds as [string, string];
  const maker = { userId: v.defaultUser.id, accountId: makerAcct };
  const cr = venue.credentials;
  let mid = 11405;
  const placeMaker = (side: 'buy' | 'sell', ticks: number) => v.placeNow(maker, { symbol: SYMBOL, side, qty: 1000, price: ticks / 1e4 + '', tif: 'GTC', postOnly: false });
  let bid = placeMaker('buy', mid - 5);
  let ask = placeMaker('sell', mid + 5);
  // The other market: the maker rests wide, the daemon quotes inside it (the touch), a taker hits it.
  v.placeNow(maker, { symbol: FILLS_SYMBOL, side: 'buy', qty: 1000, price: (FILLS_MID - 50) / 1e4 + '', tif: 'GTC', postOnly: false });
  v.placeNow(maker, { symbol: FILLS_SYMBOL, side: 'sell', qty: 1000, price: (FILLS_MID + 50) / 1e4 + '', tif: 'GTC', postOnly: false });
  const takerUser = v.createUser('e2e-taker', [{ name: 'taker', balanceUsd: '100000000' }]).user;
  const taker = { userId: takerUser.id, accountId: takerUser.accountIds[0]! };
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-e2e-'));
  const monitoringPort = await freePort();
  const config = writeConfig(dir, proxy.baseUrl, proxy.wsUrl, cr.account_id, monitoringPort);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let scrapes = 0;
  const scrape = (): void => {
    httpGet({ host: '127.0.0.1', port: monitoringPort, path: '/metrics', agent }, (res) => {
      res.resume();
      res.on('end', () => scrapes++);
    }).on('error', () => undefined);
  };
  const busy: number[] = [];
  const busyFills: number[] = [];
  let fillsSent = 0;
  let daemon: ChildProcess | null = null;
  let stderr = '';
  const echo = await startEcho();
  const orderRtt = await startOrderRttClient(venue, mid - 200);
  const clientRtt: number[] = [];
  const samples: number[] = [];
  const windows: [number, number][] = [];
  const stagesOn = process.env['MMBOT_BENCH_STAGES'] === '1';
  const stagesFile = join(dir, 'stages.json');
  const floor: number[] = [];
  let bookFrame = '';
  try {
    daemon = spawn(process.execPath, [...(process.env['MMBOT_BENCH_DAEMON_NODE_ARGS']?.split(' ').filter(Boolean) ?? []), join(ROOT, 'bin/mmbot.js'), 'run', '--config', config], {
      cwd: ROOT,
      env: { ...process.env, BENCH_API_KEY: cr.api_key, BENCH_API_SECRET: cr.api_secret, ...(stagesOn ? { MMBOT_STAGES: stagesFile } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    daemon.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    // The daemon's quotes on a symbol as the venue holds them.
    const quotes = (symbol = SYMBOL): number[] => {
      const out: number[] = [];
      for (const o of v.engine.orders.values()) if (o.accountId === cr.account_id && o.symbol === symbol && (o.state === 'ACCEPTED' || o.state === 'PARTIALLY_FILLED')) out.push(o.priceTicks);
      return out;
    };
    /** The symbol an order frame acts on (a replace names only the venue id of the order it moves). */
    const orderSymbol = (text: string): string | undefined => {
      const f = JSON.parse(text) as { s?: string; oid?: string };
      return f.s ?? (f.oid !== undefined ? v.engine.orders.get(f.oid)?.symbol : undefined);
    };
    const settled = (): boolean => {
      const q = quotes();
      return q.length === 2 && q.includes(mid - 10) && q.includes(mid + 10);
    };
    if (!(await until(settled, 60_000))) throw new Error(`the daemon never quoted around the maker's mid: ${JSON.stringify(quotes())}\n${stderr}`);
    if (!(await until(() => quotes(FILLS_SYMBOL).length === 2, 10_000))) throw new Error(`the daemon never quoted ${FILLS_SYMBOL}: ${JSON.stringify(quotes(FILLS_SYMBOL))}\n${stderr}`);
    /** Takes FILL_BURST minimum-size IOC fills from the daemon's quote on the other market (sides alternate: it stays flat); the fills taken. */
    const fillBurst = (takerSide: 'buy' | 'sell'): number => {
      const q = quotes(FILLS_SYMBOL);
      const px = takerSide === 'sell' ? Math.max(...q.filter((p) => p < FILLS_MID)) : Math.min(...q.filter((p) => p > FILLS_MID));
      if (!Number.isFinite(px)) return 0;
      let n = 0;
      for (let k = 0; k < FILL_BURST; k++) if (v.placeNow(taker, { symbol: FILLS_SYMBOL, side: takerSide, qty: 100, price: px / 1e4 + '', tif: 'IOC', postOnly: false }).filledQty > 0) n++;
      return n;
    };
    let mdAt: number | null = null;
    let orderAt: number | null = null;
    proxy.tap = (d, text, path) => {
      const t = nowUs();
      if (d === 'down' && path === '/md/ws' && mdAt === null && text.includes('"b"') && text.includes(`"${SYMBOL}"`)) {
        mdAt = t;
        bookFrame = text;
      } else if (d === 'up' && path === '/orders/ws' && mdAt !== null && orderAt === null && /"t":"[rp]"/.test(text) && orderSymbol(text) === SYMBOL) orderAt = t;
    };
    const total = Math.ceil((SAMPLES + WARMUP) * (BUSY_EVERY / (BUSY_EVERY - 1)));
    for (let i = 0; i < total; i++) {
      const isBusy = i % BUSY_EVERY === BUSY_EVERY - 1;
      // Busy moves alternate: a /metrics scrape in flight, or a burst of fills on the other market.
      const withFills = isBusy && Math.floor(i / BUSY_EVERY) % 2 === 1;
      if (isBusy && !withFills) scrape();
      if (withFills) fillsSent += fillBurst(Math.floor(i / BUSY_EVERY / 2) % 2 === 0 ? 'sell' : 'buy');
      if (isBusy) await sleep(1);
      mdAt = null;
      orderAt = null;
      mid += i % 2 === 0 ? 1 : -1;
      // Both sides move in one venue turn: one book frame.
      v.cancel(maker, { oid: bid.oid });
      v.cancel(maker, { oid: ask.oid });
      bid = placeMaker('buy', mid - 5);
      ask = placeMaker('sell', mid + 5);
      if (!(await until(() => orderAt !== null, 5_000))) throw new Error(`no order frame followed book move ${i}\n${stderr}`);
      if (i >= WARMUP && withFills) busyFills.push(orderAt! - mdAt!);
      else if (i >= WARMUP && isBusy) busy.push(orderAt! - mdAt!);
      else if (i >= WARMUP) {
        samples.push(orderAt! - mdAt!);
        windows.push([mdAt!, orderAt!]);
      }
      if (!(await until(settled, 5_000))) throw new Error(`quotes did not settle after move ${i}: ${JSON.stringify(quotes())}`);
      await sleep(5);
      const rtt = await echo.rtt(bookFrame);
      if (i >= WARMUP && !isBusy) floor.push(rtt);
      await sleep(5);
      const order = await orderRtt.sample();
      if (i >= WARMUP && !isBusy) clientRtt.push(order);
      await sleep(5);
    }
  } finally {
    proxy.tap = null;
    echo.close();
    await orderRtt.close();
    agent.destroy();
    if (daemon && daemon.exitCode === null) {
      const exited = new Promise((r) => daemon!.once('exit', r));
      daemon.kill('SIGINT');
      await Promise.race([exited, sleep(10_000)]);
      if (daemon.exitCode === null) daemon.kill('SIGKILL');
    }
    await proxy.close();
    await venue.stop();
  }
  const stages = stagesOn && existsSync(stagesFile) ? stageBreakdown(JSON.parse(readFileSync(stagesFile, 'utf8')) as { cycles: number[][] }, windows) : {};
  rmSync(dir, { recursive: true, force: true });
  const rttP50 = percentile(clientRtt, 50);
  return {
    ...stages,
    'engine.e2e_p50_vs_order_rtt_p50': { value: Number((percentile(samples, 50) / rttP50).toFixed(2)), unit: 'e2e p50 / client order round trip p50 (same run)', target: '<= 1' },
    'engine.e2e_p99_vs_order_rtt_p50': { value: Number((percentile(samples, 99) / rttP50).toFixed(2)), unit: 'e2e p99 / client order round trip p50 (same run)', target: '<= 3' },
    'engine.e2e_socket_p50_us': { value: percentile(samples, 50), unit: 'µs (daemon in its own process; book frame written → order frame read)', target: '<= client.order_rtt_p50_us' },
    'engine.e2e_socket_p99_us': { value: percentile(samples, 99), unit: 'µs (daemon process)', target: '<= 3 × client.order_rtt_p50_us' },
    'engine.e2e_socket_p999_us': { value: percentile(samples, 99.9), unit: 'µs (daemon process)' },
    'engine.e2e_socket_samples': { value: samples.length, unit: 'moves' },
    'engine.e2e_busy_p50_us': { value: percentile(busy, 50), unit: 'µs (a /metrics scrape in flight at the move)' },
    'engine.e2e_busy_p99_us': { value: percentile(busy, 99), unit: 'µs (a /metrics scrape in flight at the move)' },
    'engine.e2e_busy_samples': { value: busy.length, unit: `moves (${scrapes} scrapes answered)` },
    'engine.e2e_busy_fills_p50_us': { value: percentile(busyFills, 50), unit: `µs (${FILL_BURST} fills on another market 1 ms before the move)` },
    'engine.e2e_busy_fills_p99_us': { value: percentile(busyFills, 99), unit: `µs (${FILL_BURST} fills on another market 1 ms before the move)` },
    'engine.e2e_busy_fills_samples': { value: busyFills.length, unit: `moves (${fillsSent} fills taken from the daemon)` },
    'client.order_rtt_p50_us': { value: percentile(clientRtt, 50), unit: 'µs (a client process of its own → the venue process: place → accepted, same run)' },
    'client.order_rtt_p90_us': { value: percentile(clientRtt, 90), unit: 'µs (client process, same run)' },
    'client.order_rtt_p99_us': { value: percentile(clientRtt, 99), unit: 'µs (client process, same run)' },
    'engine.e2e_echo_floor_p50_us': { value: percentile(floor, 50), unit: 'µs (echo process WS round trip, same run)' },
    'engine.e2e_echo_floor_p99_us': { value: percentile(floor, 99), unit: 'µs (echo process WS round trip, same run)' },
  };
}

const STAGE_NAMES = ['wire_in', 'decode', 'engine', 'strategy', 'risk', 'order_manager_executor', 'encode', 'write_wire_out'] as const;

/**
 * Per stage p50/p99 (µs) over the moves whose daemon cycle (frame stamp inside the move's window)
 * was kept: wire_in = proxy write → frame handler (loopback, ws read, text), decode = decode, map and
 * book, engine = market state up to the strategy call, strategy = quote(), risk = post-only clamp
 * and gate, order_manager_executor = diff, executor and gateway up to the client's request, encode,
 * write_wire_out = encoded → proxy read. `ws.send` often returns after the proxy (another process)
 * has already read the frame: the daemon loses the CPU right after the write syscall, so its own
 * return stamp (`send_call`, reported apart) cannot split write from wire out.
 */
function stageBreakdown(file: { cycles: number[][] }, windows: readonly [number, number][]): Record<string, Metric> {
  const cycles = file.cycles.map((c) => c.map((ns) => ns / 1000)).sort((a, b) => a[0]! - b[0]!);
  const per: number[][] = STAGE_NAMES.map(() => []);
  const sendCall: number[] = [];
  let j = 0;
  for (const [from, to] of windows) {
    while (j < cycles.length && cycles[j]![0]! < from) j++;
    const c = cycles[j];
    if (!c || c[0]! > to) continue;
    const at = [from, ...c.slice(0, 7), to];
    for (let k = 0; k < STAGE_NAMES.length; k++) per[k]!.push(at[k + 1]! - at[k]!);
    sendCall.push(c[7]! - c[6]!);
  }
  const out: Record<string, Metric> = { 'engine.e2e_stage_matched': { value: per[0]!.length, unit: 'moves with a complete daemon cycle' } };
  STAGE_NAMES.forEach((n, k) => {
    out[`engine.e2e_stage_${n}_p50_us`] = { value: Number(percentile(per[k]!, 50).toFixed(1)), unit: 'µs' };
    out[`engine.e2e_stage_${n}_p99_us`] = { value: Number(percentile(per[k]!, 99).toFixed(1)), unit: 'µs' };
  });
  out['engine.e2e_stage_send_call_p50_us'] = { value: Number(percentile(sendCall, 50).toFixed(1)), unit: 'µs (ws.send call, overlaps wire out)' };
  return out;
}

export const benches: Bench[] = [{ name: 'end to end, daemon process: book frame written to its md socket → order frame read from its order socket', run: measure }];
