import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';
import { ok } from '../../src/core/result.ts';
import { RestCore, withQuery, type CallSpec } from '../../src/client/rest-core.ts';
import { RequestTimedOut, type HttpRequest, type HttpResponse, type HttpTransport } from '../../src/client/http-transport.ts';
import { TokenManager } from '../../src/client/token-manager.ts';
import { driveClock } from '../support/drive-clock.ts';

type Step = HttpResponse | Error;

function fakeTransport(steps: Step[]): HttpTransport & { seen: HttpRequest[] } {
  const seen: HttpRequest[] = [];
  return {
    seen,
    async request(req) {
      seen.push(req);
      const s = steps.shift() ?? { status: 200, headers: {}, text: '{}' };
      if (s instanceof Error) throw s;
      return s;
    },
    close: async () => {},
  };
}

const res = (status: number, text = '{}', headers: Record<string, string> = {}): HttpResponse => ({ status, headers, text });
const anyBody = (v: unknown) => ok(v);
const get: CallSpec<unknown> = { method: 'GET', path: '/api/positions', auth: true, safe: true, decode: anyBody };
const place: CallSpec<unknown> = { method: 'POST', path: '/orders/place-order', body: { s: 'X' }, auth: true, safe: false, decode: anyBody };

function setup(steps: Step[]) {
  const clock = new VirtualClock(0);
  const transport = fakeTransport(steps);
  let n = 0;
  const tokens = new TokenManager({ clock, lifetimeS: 3600, authenticate: async () => `t${++n}` });
  const core = new RestCore({ transport, clock, tokens, random: () => 0, retry: { initialMs: 100, maxMs: 1_000, multiplier: 2, jitter: 0.5 } });
  return { clock, transport, core, tokens };
}

describe('RestCore', () => {
  it('sends the bearer token and decodes the JSON body', async () => {
    const { core, transport, clock } = setup([res(200, '{"positions":[]}')]);
    const { value } = await driveClock(clock, core.call(get));
    expect(value).toEqual({ positions: [] });
    expect(transport.seen[0]!.headers['authorization']).toBe('Bearer t1');
  });

  it('retries a safe request on 429/503 with backoff, honouring Retry-After', async () => {
    const { core, transport, clock } = setup([res(429, '{"error":"slow down"}', { 'retry-after': '2' }), res(503), res(200, '{"ok":1}')]);
    const { value, elapsedMs } = await driveClock(clock, core.call(get));
    expect(value).toEqual({ ok: 1 });
    expect(transport.seen.length).toBe(3);
    // 2 s Retry-After (> backoff 50 ms), then backoff attempt 1 = 100 ms with random 0 and half jitter
    expect(elapsedMs).toBe(2_000 + 100);
    expect(core.stats.retries).toBe(2);
  });

  it('does not wait out a Retry-After beyond maxRetryAfterMs', async () => {
    const { core, transport, clock } = setup([res(429, '{"error":"later"}', { 'retry-after': '60' })]);
    const e = (await driveClock(clock, core.call(get)).catch((x: unknown) => x)) as MmError;
    expect(e.code).toBe('RATE_LIMITED');
    expect(e.details['retryAfterMs']).toBe(60_000);
    expect(transport.seen.length).toBe(1);
  });

  it('gives up after maxRetries with the catalog code and the venue message', async () => {
    const { core, clock } = setup([res(503, '{"error":"maintenance"}'), res(503), res(503), res(503), res(503, '{"error":"still"}')]);
    const e = await driveClock(clock, core.call(get)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MmError);
    expect((e as MmError).code).toBe('VENUE_UNAVAILABLE');
    expect((e as MmError).details['venueMessage']).toBe('still');
    expect(core.stats.retries).toBe(4);
  });

  it('never retries a place on 5xx, 429 or a transport error', async () => {
    for (const step of [res(503), res(429), res(500), new Error('ECONNRESET')]) {
      const { core, transport, clock } = setup([step]);
      const e = (await driveClock(clock, core.call(place)).catch((x: unknown) => x)) as MmError;
      expect(e.retryable).toBe(true);
      expect(transport.seen.length).toBe(1);
    }
  });

  it('maps a deadline abort to TIMEOUT and final answers to reject codes with reasons kept', async () => {
    const { core, clock } = setup([new RequestTimedOut(10)]);
    const t = (await driveClock(clock, core.call(place)).catch((x: unknown) => x)) as MmError;
    expect(t.code).toBe('TIMEOUT');
    const s2 = setup([res(400, '{"error":"order price is above the exchange\'s maximum price limit","reject_reason":"PRICE_OUT_OF_BOUNDS"}')]);
    const b = (await driveClock(s2.clock, s2.core.call(place)).catch((x: unknown) => x)) as MmError;
    expect(b.code).toBe('BAD_REQUEST');
    expect(b.retryable).toBe(false);
    expect(b.details['rejectReason']).toBe('PRICE_OUT_OF_BOUNDS');
    expect(b.details['venueMessage']).toContain('maximum price limit');
  });

  it('re-authenticates once on 401 and retries once, even for a place', async () => {
    const { core, transport, clock, tokens } = setup([res(401, '{"error":"expired"}'), res(200, '{"oid":"O-1"}')]);
    const { value } = await driveClock(clock, core.call(place));
    expect(value).toEqual({ oid: 'O-1' });
    expect(transport.seen.map((r) => r.headers['authorization'])).toEqual(['Bearer t1', 'Bearer t2']);
    expect(tokens.authentications).toBe(2);
    const s2 = setup([res(401), res(401)]);
    const e = (await driveClock(s2.clock, s2.core.call(get)).catch((x: unknown) => x)) as MmError;
    expect(e.code).toBe('UNAUTHORIZED');
    expect(s2.transport.seen.length).toBe(2);
  });

  it('retries 409 (cancel before ack) for a safe cancel', async () => {
    const cancel: CallSpec<unknown> = { method: 'POST', path: '/orders/cancel-order', body: { oid: 'O-1' }, auth: true, safe: true, decode: anyBody };
    const { core, clock, transport } = setup([res(409, '{"error":"order not yet acknowledged by exchange; retry shortly"}'), res(200, '{"cxl_rx":true}')]);
    const { value } = await driveClock(clock, core.call(cancel));
    expect(value).toEqual({ cxl_rx: true });
    expect(transport.seen.length).toBe(2);
  });

  it('reports non-JSON and undecodable bodies as DECODE_FAILED naming the path', async () => {
    const { core, clock } = setup([res(200, '<html>')]);
    const e = (await driveClock(clock, core.call(get)).catch((x: unknown) => x)) as MmError;
    expect(e.code).toBe('DECODE_FAILED');
    const s2 = setup([res(200, '{}')]);
    const spec: CallSpec<unknown> = { ...get, decode: () => ({ ok: false, error: { path: '$.positions', message: 'expected array' } }) };
    const d = (await driveClock(s2.clock, s2.core.call(spec)).catch((x: unknown) => x)) as MmError;
    expect(d.code).toBe('DECODE_FAILED');
    expect(d.message).toContain('$.positions');
  });

  it('builds query strings with comma-joined lists and no absent values', () => {
    expect(withQuery('/x', { a: 1, b: undefined, c: ['O-1', 'O-2'], d: 'a b' })).toBe('/x?a=1&c=O-1%2CO-2&d=a%20b');
    expect(withQuery('/x', {})).toBe('/x');
    expect(withQuery('/x', { payout_status: { unknown: 'clawed_back' }, sort_ts: 'asc' })).toBe('/x?payout_status=clawed_back&sort_ts=asc');
  });
});
