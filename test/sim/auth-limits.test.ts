import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { LoginLimiter } from '../../src/sim/auth/login-limiter.ts';
import { startVenue, type RunningVenue } from '../../src/sim/index.ts';

const START_MS = Date.parse('2026-01-05T00:00:00Z');

describe('venue /api/authenticate: rate limits and bounded sessions (issue 24 #6)', () => {
  const clock = new VirtualClock(START_MS);
  let v: RunningVenue;
  beforeAll(async () => {
    v = await startVenue({ plugins: [], clock, prescaled: true, config: { tokens: { max_live_per_key: 20 } } });
  });
  afterAll(() => v.stop());

  const login = async (secret: string): Promise<{ status: number; body: { token?: string; error?: string } }> => {
    const r = await fetch(`${v.baseUrl}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: v.credentials.api_key, api_secret: secret, expiration_seconds: 600 }),
    });
    return { status: r.status, body: (await r.json()) as { token?: string; error?: string } };
  };
  const fetchLogin = async (apiKey: string, secret: string): Promise<{ status: number; body: { token?: string; error?: string } }> => {
    const r = await fetch(`${v.baseUrl}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: apiKey, api_secret: secret, expiration_seconds: 600 }),
    });
    return { status: r.status, body: (await r.json()) as { token?: string; error?: string } };
  };
  const whoami = async (token: string): Promise<number> => (await fetch(`${v.baseUrl}/api/whoami`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('10 wrong secrets a minute, then 429 for every login for that key (the right secret too) until the minute ends', async () => {
    const wrong = [];
    for (let i = 0; i < 10; i++) wrong.push((await login('not-the-secret')).status);
    expect(wrong).toEqual(Array(10).fill(401));
    const locked = await login(v.credentials.api_secret);
    expect(locked).toEqual({ status: 429, body: { error: 'too many logins for this api_key; retry in 60 s' } });
    clock.advanceBy(45_000);
    expect((await login('not-the-secret')).body.error).toBe('too many logins for this api_key; retry in 15 s');
    clock.advanceBy(15_000);
    expect((await login(v.credentials.api_secret)).status).toBe(200);
  });

  it('issue 35 #10: 11 bad logins from the same IP for another key do not hold up this key (lock per key, not per IP)', async () => {
    clock.advanceBy(60_000);
    const other = await fetchLogin('ak_nobody_0001', 'guess');
    expect(other.status).toBe(401);
    for (let i = 0; i < 10; i++) await fetchLogin('ak_nobody_0001', 'guess');
    // The 11th bad login is refused for that key...
    expect((await fetchLogin('ak_nobody_0001', 'guess')).body.error).toBe('too many logins for this api_key; retry in 60 s');
    // ...but the daemon's key, from the same 127.0.0.1, still renews its token.
    expect((await login(v.credentials.api_secret)).status).toBe(200);
  });

  it('issue 35 #10: bad logins sprayed over many keys from one IP: failing logins from it get 429, a valid login does not', async () => {
    clock.advanceBy(60_000);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await fetchLogin(`ak_spray_${i}`, 'guess')).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    expect((await fetchLogin('ak_spray_99', 'guess')).body.error).toBe('too many failed logins from 127.0.0.1; retry in 60 s');
    expect((await login(v.credentials.api_secret)).status).toBe(200);
  });

  it('valid logins in a loop keep at most max_live_per_key tokens: the oldest stop working', async () => {
    clock.advanceBy(60_000);
    const tokens: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await login(v.credentials.api_secret);
      expect(r.status).toBe(200);
      tokens.push(r.body.token!);
    }
    expect(v.venue.auth.tokenCount).toBe(20);
    expect(await whoami(tokens[0]!)).toBe(401);
    expect(await whoami(tokens[29]!)).toBe(401);
    expect(await whoami(tokens[30]!)).toBe(200);
    expect(await whoami(tokens[49]!)).toBe(200);
  });
});

describe('LoginLimiter', () => {
  it('budgets per key (any login) and per IP (failing logins only); forgets the oldest windows beyond maxTracked', () => {
    const clock = new VirtualClock(0);
    const l = new LoginLimiter(clock, { maxFailuresPerWindow: 2, maxAttemptsPerWindow: 3, windowMs: 60_000, maxTracked: 4 });
    expect([l.admit('a', 'k1', true), l.admit('a', 'k1', true), l.admit('a', 'k1', true), l.admit('a', 'k1', true)]).toEqual([null, null, null, { waitS: 60, by: 'key' }]);
    expect(l.admit('b', 'k1', true)).toEqual({ waitS: 60, by: 'key' }); // the key is over its budget from any IP
    expect(l.admit('b', 'k2', false)).toBe(null);
    expect(l.admit('c', 'k2', false)).toBe(null);
    expect(l.admit('d', 'k2', true)).toEqual({ waitS: 60, by: 'key' }); // two failures for k2, from two IPs
    expect(l.admit('e', 'k3', false)).toBe(null);
    expect(l.admit('e', 'k4', false)).toBe(null);
    expect(l.admit('e', 'k5', false)).toEqual({ waitS: 60, by: 'ip' }); // two failures from e, over two keys
    expect(l.admit('e', 'k5', true)).toBe(null); // a valid login from e is not held up
    clock.advanceBy(60_000);
    expect(l.admit('a', 'k1', true)).toBe(null);
    for (let i = 0; i < 20; i++) l.admit(`ip${i}`, 'k9', false);
    expect(l.size).toBe(4);
  });
});
