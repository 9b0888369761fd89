/** The in-process links of a virtual-clock recording: REST through `dispatch`, market data through the hub. */
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { InProcessMdLink } from '../../src/app/virtual-venue/in-process-md-link.ts';
import { InProcessTransport } from '../../src/app/virtual-venue/in-process-transport.ts';
import { buildVenue, type HeadlessVenue } from '../../src/sim/index.ts';
import { marketServicesOf } from '../../src/sim/market/index.ts';

let venue: HeadlessVenue | undefined;
afterEach(async () => {
  await venue?.stop();
  venue = undefined;
});

async function headless(): Promise<{ v: HeadlessVenue; clock: VirtualClock; http: InProcessTransport }> {
  const clock = new VirtualClock(Date.UTC(2026, 10, 16, 12));
  const v = await buildVenue({ config: { clock_speed: 60, instruments: { only: ['EURUSD-PERP'] } }, clock, prescaled: true, ioClock: clock, seed: 3 });
  venue = v;
  return { v, clock, http: new InProcessTransport(v) };
}

const get = (path: string, headers: Record<string, string> = {}) => ({ method: 'GET' as const, path, headers, timeoutMs: 1000 });

describe('InProcessTransport', () => {
  it('answers as the HTTP server does: public routes, 401 without a token, 404 and 405, JSON bodies', async () => {
    const { v, http } = await headless();
    const instruments = await http.request(get('/api/instruments'));
    expect(instruments.status).toBe(200);
    expect(instruments.text).toContain('EURUSD-PERP');
    expect((await http.request(get('/api/ticker?symbol=EURUSD-PERP'))).status).toBe(401);
    const missing = await http.request(get('/api/nope'));
    expect([missing.status, JSON.parse(missing.text)]).toEqual([404, { error: 'no endpoint GET /api/nope' }]);
    expect((await http.request({ ...get('/api/instruments'), method: 'DELETE' })).status).toBe(405);
    const bad = await http.request({ method: 'POST', path: '/api/authenticate', headers: { 'Content-Type': 'application/json' }, body: '{not json', timeoutMs: 1000 });
    expect(bad.status).toBe(400);
    const auth = await http.request({
      method: 'POST',
      path: '/api/authenticate',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: v.venue.credentials.api_key, api_secret: v.venue.credentials.api_secret }),
      timeoutMs: 1000,
    });
    expect(auth.status).toBe(200);
    const token = (JSON.parse(auth.text) as { token: string }).token;
    const ticker = await http.request(get('/api/ticker?symbol=EURUSD-PERP', { Authorization: `Bearer ${token}` }));
    expect(ticker.status).toBe(200);
    expect(JSON.parse(ticker.text)).toMatchObject({ ticker: { s: 'EURUSD-PERP', ts: 1_794_830_400 } });
    expect([http.started, http.inFlight]).toEqual([7, 0]);
  });
});

describe('InProcessMdLink', () => {
  it('refuses an upgrade without a valid token (401) and serves the hub frames of a subscription in order', async () => {
    const { v, http } = await headless();
    const link = new InProcessMdLink(v.venue, marketServicesOf(v.venue)!.md);
    const events: string[] = [];
    const handlers = (tag: string) => ({
      onOpen: () => events.push(`${tag} open`),
      onMessage: (text: string) => events.push(`${tag} ${text.slice(0, 40)}`),
      onClose: (code: number) => events.push(`${tag} close ${code}`),
      onError: (err: Error, status?: number) => events.push(`${tag} error ${status} ${err.message}`),
    });
    link.factory('ws://local-venue.invalid/md/ws', { authorization: 'Bearer nope' }, handlers('bad'));
    expect(events).toEqual([]);
    expect(link.pump()).toBe(true);
    expect(events[0]).toMatch(/^bad error 401 upgrade refused with HTTP 401/);
    events.length = 0;
    const auth = await http.request({ method: 'POST', path: '/api/authenticate', headers: {}, body: JSON.stringify({ api_key: v.venue.credentials.api_key, api_secret: v.venue.credentials.api_secret }), timeoutMs: 1000 });
    const token = (JSON.parse(auth.text) as { token: string }).token;
    const sock = link.factory('ws://local-venue.invalid/md/ws', { Authorization: `Bearer ${token}` }, handlers('ok'));
    link.pump();
    expect(events).toEqual(['ok open']);
    sock.send(JSON.stringify({ rid: 1, type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_2', ticker: false, trades: false }));
    link.pump();
    expect(events.slice(1)).toEqual(['ok {"rid":1,"result":{"subscribed":"EURUSD-PERP"}}'.slice(0, 43), expect.stringMatching(/^ok \{"t":"2"/)]);
    sock.close();
    link.pump();
    expect(events.at(-1)).toBe('ok close 1000');
    expect(link.pump()).toBe(false);
  });
});
