/**
 * The fuzz targets, shared by the quick property tests (`npm test`, a few thousand frames) and
 * `npm run fuzz` (100 000 frames per target): the wire decoders and mappers, the local venue's
 * request handlers (order WS, market-data WS and REST, over real sockets), and a running daemon's
 * sockets (frames injected through a proxy). Each returns counts; a crash is any exception.
 */
import { Writable } from 'node:stream';
import WebSocket from 'ws';
import { LiveClock } from '../../src/core/clock.ts';
import { parseConfig } from '../../src/config/load.ts';
import { startDaemon, type Daemon } from '../../src/app/live/daemon.ts';
import { builtinLookup } from '../../src/app/live/strategies.ts';
import { createLogger } from '../../src/obs/logger.ts';
import { parseMdRequest } from '../../src/sim/md/md-requests.ts';
import { startVenue, type RunningVenue } from '../../src/sim/index.ts';
import { decodeAs, decodeMdWsFrame, decodeOrderWsFrame, inferWireMessageType, toMarketEvent, toOrderEvent } from '../../src/wire/index.ts';
import { fixtureCatalog } from '../wire/helpers.ts';
import { startFaultProxy } from '../support/fault-proxy.ts';
import type { FuzzFrame } from './frames.ts';

/** What a target did with the frames. */
export interface FuzzCounts {
  frames: number;
  /** Frames the target refused (decode error, error reply...). */
  rejected: number;
  /** Frames it accepted (a mutation can leave a frame valid). */
  accepted: number;
  /** Exceptions thrown: must stay 0. */
  crashes: number;
  readonly crashSamples: string[];
}

const newCounts = (): FuzzCounts => ({ frames: 0, rejected: 0, accepted: 0, crashes: 0, crashSamples: [] });

function crash(c: FuzzCounts, f: FuzzFrame, e: unknown): void {
  c.crashes++;
  if (c.crashSamples.length < 5) c.crashSamples.push(`${f.mutation} of ${f.seedName}: ${e instanceof Error ? e.message : String(e)} in ${f.text.slice(0, 200)}`);
}

/** Decoders (order WS, market data, every REST type) and the domain mappers on what decodes. */
export function fuzzDecoders(frames: readonly FuzzFrame[]): FuzzCounts {
  const c = newCounts();
  const catalog = fixtureCatalog();
  for (const f of frames) {
    c.frames++;
    try {
      let ok = false;
      const md = decodeMdWsFrame(f.text);
      if (md.ok) {
        ok = true;
        if ('t' in md.value) toMarketEvent(md.value as never, catalog, 0);
      }
      const ow = decodeOrderWsFrame(f.text);
      if (ow.ok) {
        ok = true;
        if ('t' in ow.value) toOrderEvent(ow.value as never, catalog, 0);
      }
      let v: unknown;
      try {
        v = JSON.parse(f.text);
      } catch {
        v = undefined;
      }
      const type = inferWireMessageType(v);
      if (type && decodeAs(type, v).ok) ok = true;
      if (ok) c.accepted++;
      else c.rejected++;
    } catch (e) {
      crash(c, f, e);
    }
  }
  return c;
}

/** The venue's parsers, called directly (fast): market-data requests. */
export function fuzzVenueParsers(frames: readonly FuzzFrame[]): FuzzCounts {
  const c = newCounts();
  for (const f of frames) {
    c.frames++;
    try {
      if (parseMdRequest(f.text).ok) c.accepted++;
      else c.rejected++;
    } catch (e) {
      crash(c, f, e);
    }
  }
  return c;
}

/** A WebSocket that counts replies. */
async function openWs(url: string, token: string): Promise<{ ws: WebSocket; replies: () => number; closed: () => boolean }> {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, maxPayload: 64 * 1024 * 1024 });
  let n = 0;
  let closed = false;
  ws.on('message', () => void n++);
  ws.on('close', () => void (closed = true));
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, replies: () => n, closed: () => closed };
}

async function login(v: RunningVenue): Promise<string> {
  const r = await fetch(`${v.baseUrl}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: v.credentials.api_key, api_secret: v.credentials.api_secret }),
  });
  const body = (await r.json()) as { token: string };
  return body.token;
}

/** Counts of the venue over its sockets: frames sent per endpoint, replies, reconnects, health after. */
export interface VenueFuzzCounts extends FuzzCounts {
  orderWsFrames: number;
  mdWsFrames: number;
  restBodies: number;
  /** Connections the venue closed (a frame it would not read), reopened by the fuzzer. */
  reconnects: number;
  healthyAfter: boolean;
}

/**
 * Sends the frames to a running local venue: order WS, market-data WS and REST order endpoints in
 * turn. The venue must answer or close, never crash, and serve a valid order afterwards.
 */
export async function fuzzVenueSockets(frames: readonly FuzzFrame[], opts: { restEvery?: number } = {}): Promise<VenueFuzzCounts> {
  const c: VenueFuzzCounts = { ...newCounts(), orderWsFrames: 0, mdWsFrames: 0, restBodies: 0, reconnects: 0, healthyAfter: false };
  const venue = await startVenue({ config: { rate_limit: { enabled: false }, instruments: { only: ['EURUSD-PERP'] } } as never });
  const failures: unknown[] = [];
  const onErr = (e: unknown): void => void failures.push(e);
  process.on('uncaughtException', onErr);
  try {
    const token = await login(venue);
    let order = await openWs(`${venue.wsUrl}/orders/ws`, token);
    let md = await openWs(`${venue.wsUrl}/md/ws`, token);
    const restEvery = opts.restEvery ?? 20;
    const BATCH = 250;
    for (let i = 0; i < frames.length; i += BATCH) {
      const batch = frames.slice(i, i + BATCH);
      for (const [k, f] of batch.entries()) {
        c.frames++;
        if ((i + k) % restEvery === 0) {
          c.restBodies++;
          const r = await fetch(`${venue.baseUrl}/orders/place-order`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: f.text });
          await r.arrayBuffer();
          if (r.status >= 500) crash(c, f, new Error(`REST ${r.status}`));
          else if (r.status >= 400) c.rejected++;
          else c.accepted++;
          continue;
        }
        const target = (i + k) % 2 === 0 ? order : md;
        if (target === order) c.orderWsFrames++;
        else c.mdWsFrames++;
        target.ws.send(f.text);
      }
      // Let the venue answer the batch (replies or a close) before the next.
      await new Promise((r) => setTimeout(r, 5));
      if (order.closed()) {
        c.reconnects++;
        order = await openWs(`${venue.wsUrl}/orders/ws`, token);
      }
      if (md.closed()) {
        c.reconnects++;
        md = await openWs(`${venue.wsUrl}/md/ws`, token);
      }
    }
    order.ws.close();
    md.ws.close();
    const health = await fetch(`${venue.baseUrl}/api/health`);
    const place = await fetch(`${venue.baseUrl}/orders/place-order`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ t: 'p', s: 'EURUSD-PERP', d: 'B', q: 100, p: '1.1000', tif: 'GTC', po: false }),
    });
    c.healthyAfter = health.status === 200 && place.status === 200;
    c.crashes += failures.length;
    for (const e of failures.slice(0, 5)) c.crashSamples.push(String(e));
  } finally {
    process.off('uncaughtException', onErr);
    await venue.stop();
  }
  return c;
}

/** What the daemon did with the injected frames. */
export interface DaemonFuzzCounts extends FuzzCounts {
  injectedOrders: number;
  injectedMd: number;
  /** The daemon's own tallies (must equal what was injected). */
  countedOrders: number;
  countedMd: number;
  /** Distinct kinds and the warn lines logged for them (one each). */
  kinds: number;
  badFrameLogLines: number;
  /** Orders sent after the fuzz: the daemon kept quoting. */
  intentsAfter: number;
  workingAfter: number;
}

const BOT_CONFIG = (baseUrl: string, wsUrl: string, key: string, secret: string, account: string): string => `
venue: { mode: remote, base_url: "${baseUrl}", ws_url: "${wsUrl}", api_key: "${key}", api_secret: "${secret}", account_id: "${account}" }
bot:
  status_interval_ms: 0
  strategies:
    - { id: eurusd, symbol: EURUSD-PERP, strategy: fixed-spread, params: { levels: 1, halfSpreadTicks: 2, size: 100, maxPosition: 1000 } }
risk: { max_position: 2000, max_order_qty: 500 }
order_manager: { min_order_lifetime_ms: 100 }
monitoring: { enabled: false }
logging: { level: warn }
`;

/**
 * A daemon trading the local venue (synthetic market) through a proxy that injects the frames into
 * its order and market-data sockets: only frames the client's decoder rejects are injected, so
 * each must be counted exactly once and logged once per kind, and the daemon must keep quoting.
 */
export async function fuzzDaemon(frames: readonly FuzzFrame[]): Promise<DaemonFuzzCounts> {
  const c: DaemonFuzzCounts = { ...newCounts(), injectedOrders: 0, injectedMd: 0, countedOrders: 0, countedMd: 0, kinds: 0, badFrameLogLines: 0, intentsAfter: 0, workingAfter: 0 };
  const venue = await startVenue({ config: { rate_limit: { enabled: false }, instruments: { only: ['EURUSD-PERP'] }, market: { enabled: true, symbols: ['EURUSD-PERP'] } } as never });
  const proxy = await startFaultProxy(venue.baseUrl);
  const lines: { msg?: string; level?: number }[] = [];
  const sink = new Writable({
    write(chunk, _e, cb) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l) as { msg?: string; level?: number });
      cb();
    },
  });
  const failures: unknown[] = [];
  const onErr = (e: unknown): void => void failures.push(e);
  process.on('uncaughtException', onErr);
  process.on('unhandledRejection', onErr);
  let daemon: Daemon | null = null;
  try {
    const cr = venue.credentials;
    const strategies = await builtinLookup();
    const config = parseConfig(BOT_CONFIG(proxy.baseUrl, proxy.wsUrl, cr.api_key, cr.api_secret, cr.account_id), 'fuzz.yaml', { strategies });
    daemon = await startDaemon({ config, strategies, log: createLogger({ level: 'warn', pretty: false, destination: sink as never }), clock: new LiveClock() });
    const d = daemon;
    const until = async (pred: () => boolean, ms: number): Promise<boolean> => {
      const end = Date.now() + ms;
      while (!pred() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      return pred();
    };
    await until(() => d.engine.snapshot().symbols[0]!.working.length > 0, 15_000);
    const BATCH = 200;
    for (let i = 0; i < frames.length; i += BATCH) {
      for (const f of frames.slice(i, i + BATCH)) {
        c.frames++;
        const toMd = !decodeMdWsFrame(f.text).ok;
        const toOrders = !decodeOrderWsFrame(f.text).ok;
        if ((c.frames % 2 === 0 && toMd) || (!toOrders && toMd)) {
          proxy.inject(f.text, '/md/ws');
          c.injectedMd++;
        } else if (toOrders) {
          proxy.inject(f.text, '/orders/ws');
          c.injectedOrders++;
        } else c.accepted++; // valid for both decoders: not a bad frame, not injected
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await until(() => {
      const t = d.badFrames();
      return t.orders.total >= c.injectedOrders && t.md.total >= c.injectedMd;
    }, 20_000);
    const t = d.badFrames();
    c.countedOrders = t.orders.total;
    c.countedMd = t.md.total;
    c.rejected = t.orders.total + t.md.total;
    c.kinds = t.orders.byKind.size + t.md.byKind.size;
    c.badFrameLogLines = lines.filter((l) => l.msg?.includes('bad frame skipped')).length;
    const sent0 = d.engine.snapshot().counters.intentsSent;
    const total0 = sent0.place + sent0.replace + sent0.cancel;
    await until(() => {
      const s = d.engine.snapshot().counters.intentsSent;
      return s.place + s.replace + s.cancel > total0;
    }, 20_000);
    const s1 = d.engine.snapshot();
    c.intentsAfter = s1.counters.intentsSent.place + s1.counters.intentsSent.replace + s1.counters.intentsSent.cancel - total0;
    c.workingAfter = s1.symbols[0]!.working.length;
  } finally {
    await daemon?.stop('fuzz done');
    process.off('uncaughtException', onErr);
    process.off('unhandledRejection', onErr);
    await proxy.close();
    await venue.stop();
  }
  c.crashes += failures.length;
  for (const e of failures.slice(0, 5)) c.crashSamples.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
  return c;
}
