/** Black-box helpers: a venue on 127.0.0.1:0, fetch for REST, a plain `ws` client; every frame is decoded with the wire decoders. */
import { WebSocket } from 'ws';
import { expect } from 'vitest';
import { decodeErrorBody, decodeOrderWsFrame } from '../../src/wire/index.ts';
import { startVenue, type RunningVenue, type VenueOptions } from '../../src/sim/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A decoder as the wire layer exports them. */
export type WireDecoder = (v: unknown) => { ok: boolean; error?: unknown };

export interface RestResult {
  status: number;
  body: Json;
}

/** Starts a bare-core venue and authenticates the default key. */
export async function setup(opts: VenueOptions = {}): Promise<Harness> {
  const v = await startVenue({ plugins: [], ...opts });
  const h = new Harness(v);
  h.token = await h.login(v.credentials.api_key, v.credentials.api_secret);
  return h;
}

export class Harness {
  token = '';
  readonly clients: OrderWs[] = [];
  constructor(readonly v: RunningVenue) {}

  get venue() {
    return this.v.venue;
  }
  get account(): string {
    return this.v.credentials.account_id;
  }
  get account2(): string {
    return this.venue.defaultUser.accountIds[1]!;
  }

  async login(apiKey: string, apiSecret: string, expiration = 3600): Promise<string> {
    const r = await this.rest('POST', '/api/authenticate', { api_key: apiKey, api_secret: apiSecret, expiration_seconds: expiration }, null);
    expect(r.status).toBe(200);
    return r.body.token as string;
  }

  /** A REST call; JSON bodies; error bodies must decode as `{"error"}`; `decode` checks success bodies. */
  async rest(method: string, path: string, body?: unknown, token: string | null = this.token, decode?: WireDecoder, rawBody?: string): Promise<RestResult> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    const res = await fetch(`${this.v.baseUrl}${path}`, { method, headers, ...(rawBody !== undefined ? { body: rawBody } : body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    const parsed = text === '' ? undefined : JSON.parse(text);
    if (res.status >= 400) {
      const d = decodeErrorBody(parsed);
      expect(d.ok, `error body ${text}`).toBe(true);
    } else if (decode) {
      const d = decode(parsed);
      expect(d.ok, `decode ${path}: ${JSON.stringify(d.error)} in ${text}`).toBe(true);
    }
    return { status: res.status, body: parsed };
  }

  /** Opens an order WS (resolves after the login reply). */
  async ws(query = '', opts: { token?: string | null; path?: string; bare?: boolean } = {}): Promise<OrderWs> {
    const token = opts.token === undefined ? this.token : opts.token;
    const headers: Record<string, string> = {};
    if (token !== null) headers['authorization'] = opts.bare ? token : `Bearer ${token}`;
    const c = new OrderWs(new WebSocket(`${this.v.wsUrl}${opts.path ?? '/orders/ws'}${query}`, { headers }));
    this.clients.push(c);
    await c.waitFor((f) => f.rid === 0);
    return c;
  }

  /** Tries an upgrade and returns the HTTP status it was refused with (or 101). */
  async upgradeStatus(path: string, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${this.v.wsUrl}${path}`, { headers });
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.on('open', () => {
        resolve(101);
        ws.close();
      });
      ws.on('error', () => undefined);
    });
  }

  async close(): Promise<void> {
    for (const c of this.clients) c.ws.terminate();
    await this.v.stop();
  }
}

/** A plain `ws` client that records decoded frames. */
export class OrderWs {
  readonly frames: Json[] = [];
  readonly #waiters: { pred: (f: Json) => boolean; resolve: (f: Json) => void }[] = [];
  #rid = 1;
  closed: Promise<number>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = String(data);
      const d = decodeOrderWsFrame(text);
      if (!d.ok) throw new Error(`venue sent a frame the wire decoder rejects: ${JSON.stringify(d.error)} in ${text}`);
      const f = JSON.parse(text.replace(/"(cid|clord_id)":(\d+)/g, '"$1":"$2"'));
      this.frames.push(f);
      for (const w of [...this.#waiters]) {
        if (w.pred(f)) {
          this.#waiters.splice(this.#waiters.indexOf(w), 1);
          w.resolve(f);
        }
      }
    });
    ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  /** Resolves with the first frame (already received or future) matching `pred`. */
  waitFor(pred: (f: Json) => boolean, timeoutMs = 3000): Promise<Json> {
    const hit = this.frames.find(pred);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timeout waiting for frame; got ${JSON.stringify(this.frames.slice(-5))}`)), timeoutMs);
      this.#waiters.push({ pred, resolve: (f) => (clearTimeout(t), resolve(f)) });
    });
  }

  /** Sends a request (rid assigned) and resolves with its reply. `raw` replaces JSON encoding (u64 cids). */
  async request(msg: Record<string, unknown>, raw?: (json: string) => string): Promise<Json> {
    const rid = this.#rid++;
    const text = JSON.stringify({ rid, ...msg });
    this.ws.send(raw ? raw(text) : text);
    return this.waitFor((f) => f.rid === rid);
  }

  send(msg: unknown): void {
    this.ws.send(JSON.stringify(msg));
  }

  /** Events (frames with `t`) for an order id, in arrival order. */
  eventsFor(oid: string): Json[] {
    return this.frames.filter((f) => f.t !== undefined && isAbout(f, oid));
  }

  /** Waits for an event of type `t` about `oid`. */
  event(oid: string, t: string): Promise<Json> {
    return this.waitFor((f) => f.t === t && isAbout(f, oid));
  }
}

/** True when an event frame concerns order `oid` (its order, the replaced original, the replacement, or a cancel reject's id). */
const isAbout = (f: Json, oid: string): boolean => f.o?.oid === oid || f.ro?.oid === oid || f.noid === oid || f.oid === oid;

/** A GTC limit order message. */
export function limit(side: 'B' | 'S', q: number, p: string, extra: Record<string, unknown> = {}, s = 'EURUSD-PERP'): Record<string, unknown> {
  return { t: 'p', s, d: side, q, p, tif: 'GTC', po: false, ...extra };
}

/** Sleeps (only for real-socket ordering, kept tiny). */
export const tick = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));
