/** Black-box helpers for sim-market tests: fetch for REST, a plain `ws` client; everything decoded with the wire decoders. */
import { WebSocket } from 'ws';
import type { Clock, VirtualClock } from '../../../src/core/clock.ts';
import { expect } from 'vitest';
import { decodeAs, decodeMdWsFrame, decodeOrderWsFrame, type WireMessageType } from '../../../src/wire/index.ts';
import { startVenue, type RunningVenue, type VenueOptions } from '../../../src/sim/index.ts';
import { marketServicesOf, type MarketServices } from '../../../src/sim/market/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A venue with the sim-market plugin, logged in with the default key. */
export class MarketHarness {
  token = '';
  readonly sockets: WebSocket[] = [];
  constructor(readonly v: RunningVenue) {}

  get venue() {
    return this.v.venue;
  }
  get services(): MarketServices {
    return marketServicesOf(this.v.venue)!;
  }
  get account(): string {
    return this.v.credentials.account_id;
  }

  /** REST call; success bodies must decode as `as`, error bodies as `{"error"}`. */
  async rest(method: string, path: string, opts: { body?: unknown; as?: WireMessageType; token?: string | null } = {}): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    const res = await fetch(`${this.v.baseUrl}${path}`, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
    const text = await res.text();
    const body = text === '' ? undefined : JSON.parse(text);
    const type: WireMessageType | undefined = res.status >= 400 ? 'error-body' : opts.as;
    if (type) {
      const d = decodeAs(type, body);
      expect(d.ok, `${path} as ${type}: ${JSON.stringify(d.ok ? null : d.error)} in ${text.slice(0, 500)}`).toBe(true);
    }
    return { status: res.status, body };
  }

  /** GET shorthand. */
  get(path: string, as?: WireMessageType) {
    return this.rest('GET', path, as ? { as } : {});
  }

  /** Opens /md/ws; every received frame is decoded with `decodeMdWsFrame`. */
  async md(): Promise<Client> {
    const ws = new WebSocket(`${this.v.wsUrl}/md/ws`, { headers: { authorization: `Bearer ${this.token}` } });
    this.sockets.push(ws);
    const c = new Client(ws, (t) => decodeMdWsFrame(t));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return c;
  }

  /** Opens /orders/ws and waits for the login reply. */
  async orders(): Promise<Client> {
    const ws = new WebSocket(`${this.v.wsUrl}/orders/ws`, { headers: { authorization: `Bearer ${this.token}` } });
    this.sockets.push(ws);
    const c = new Client(ws, (t) => decodeOrderWsFrame(t));
    await c.waitFor((f) => f.rid === 0);
    return c;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.terminate();
    await this.v.stop();
  }
}

/** A WS client collecting decoded frames. */
export class Client {
  readonly frames: Json[] = [];
  readonly #waiters: { pred: (f: Json) => boolean; resolve: (f: Json) => void }[] = [];
  constructor(
    readonly ws: WebSocket,
    decode: (text: string) => { ok: boolean; error?: unknown },
  ) {
    ws.on('message', (data) => {
      const text = data.toString();
      const d = decode(text);
      if (!d.ok) throw new Error(`frame does not decode: ${JSON.stringify(d.error)} in ${text.slice(0, 300)}`);
      const f = JSON.parse(text);
      this.frames.push(f);
      for (const w of [...this.#waiters]) {
        if (w.pred(f)) {
          this.#waiters.splice(this.#waiters.indexOf(w), 1);
          w.resolve(f);
        }
      }
    });
  }

  send(msg: object): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** Resolves with the first frame (already received or future) matching `pred`. */
  waitFor(pred: (f: Json) => boolean, timeoutMs = 5000): Promise<Json> {
    const seen = this.frames.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timeout waiting for frame; last: ${JSON.stringify(this.frames.slice(-3)).slice(0, 600)}`)), timeoutMs);
      this.#waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(t);
          resolve(f);
        },
      });
    });
  }

  /** Sends a request and waits for the reply with its rid. */
  async request(msg: { rid: number } & Record<string, unknown>): Promise<Json> {
    this.send(msg);
    return this.waitFor((f) => f.rid === msg.rid && f.t === undefined);
  }
}

/** Starts a venue with the market plugin (flow off unless asked) and logs in. */
export async function marketVenue(config: Record<string, unknown> = {}, opts: Omit<VenueOptions, 'config'> = {}): Promise<MarketHarness> {
  const v = await startVenue({ config: { rate_limit: { enabled: false }, ...config }, ...opts });
  const h = new MarketHarness(v);
  const r = await h.rest('POST', '/api/authenticate', { body: { api_key: v.credentials.api_key, api_secret: v.credentials.api_secret, expiration_seconds: 86_400 }, token: null });
  h.token = r.body.token;
  return h;
}

/** Sleeps real milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A base clock over a VirtualClock whose timers fire `jitter(delay)` base ms off their due time, as
 * Node's fire up to ~1 ms early (which a venue `clock_speed` multiplies) or late under load.
 */
export class JitterClock implements Clock {
  constructor(
    readonly inner: VirtualClock,
    public jitter: (delayMs: number) => number,
  ) {}
  nowMs(): number {
    return this.inner.nowMs();
  }
  nowNs(): bigint {
    return this.inner.nowNs();
  }
  setTimer(delayMs: number, fn: () => void): () => void {
    return this.inner.setTimer(Math.max(0, delayMs + this.jitter(delayMs)), fn);
  }
}
