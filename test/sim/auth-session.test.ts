import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCreateApiKeyResponse, decodeWhoAmI } from '../../src/wire/index.ts';
import { limit, setup, tick, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await setup({ config: { server_heartbeat_ms: 50 } });
});
afterAll(() => h.close());

describe('authentication', () => {
  it('issues tokens; Bearer and bare forms both work on REST and WS', async () => {
    expect((await h.rest('GET', '/api/whoami', undefined, h.token, decodeWhoAmI)).status).toBe(200);
    const res = await fetch(`${h.v.baseUrl}/api/whoami`, { headers: { authorization: h.token } });
    expect(res.status).toBe(200);
    const c = await h.ws('', { bare: true });
    expect(c.frames[0].rid).toBe(0);
    c.ws.close();
  });

  it('401 on bad credentials, 400 on extra or malformed fields', async () => {
    const k = h.v.credentials;
    expect((await h.rest('POST', '/api/authenticate', { api_key: k.api_key, api_secret: 'wrong', expiration_seconds: 60 }, null)).status).toBe(401);
    expect((await h.rest('POST', '/api/authenticate', { api_key: k.api_key, api_secret: k.api_secret, username: 'x' }, null)).status).toBe(400);
    expect((await h.rest('POST', '/api/authenticate', { api_key: k.api_key, api_secret: k.api_secret, expiration_seconds: 'x' }, null)).status).toBe(400);
    expect((await h.rest('POST', '/api/authenticate', { api_key: k.api_key, api_secret: k.api_secret, expiration_seconds: 99_999_999 }, null)).status).toBe(400);
    expect((await h.rest('POST', '/api/authenticate', undefined, null, undefined, '{not json')).status).toBe(400);
  });

  it('401 without or with an invalid token, on REST and on both WS upgrades', async () => {
    expect((await h.rest('GET', '/api/balances', undefined, null)).status).toBe(401);
    expect((await h.rest('GET', '/api/balances', undefined, 'garbage')).status).toBe(401);
    expect((await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1'), null)).status).toBe(401);
    expect(await h.upgradeStatus('/orders/ws', {})).toBe(401);
    expect(await h.upgradeStatus('/ws/orders', { authorization: 'Bearer nope' })).toBe(401);
  });

  it('expired tokens are refused', async () => {
    const t = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret, 1);
    expect((await h.rest('GET', '/api/balances', undefined, t)).status).toBe(200);
    await tick(1100);
    expect((await h.rest('GET', '/api/balances', undefined, t)).status).toBe(401);
  });

  it('logout revokes only the bearer token used', async () => {
    const t1 = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret);
    const t2 = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret);
    expect((await h.rest('POST', '/api/logout', {}, t1)).status).toBe(200);
    expect((await h.rest('GET', '/api/whoami', undefined, t1)).status).toBe(401);
    expect((await h.rest('GET', '/api/whoami', undefined, t2)).status).toBe(200);
  });

  it('issue 35 #10: a token in the logout cookie is revoked only when the caller owns it (same user and key)', async () => {
    const victim = h.v.venue.accounts.createUser('victim', [{ name: 'victim-main', balanceUsd: '1000' }]);
    const vk = h.v.venue.auth.createKey(victim.id);
    const victimToken = await h.login(vk.apiKey, vk.apiSecret);
    const readOnly = await h.rest('POST', '/api/api-keys', { permissions: { can_read: true, can_trade: false } }, h.token, decodeCreateApiKeyResponse);
    const readOnlyToken = await h.login(readOnly.body.api_key, readOnly.body.api_secret);
    const trading = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret);
    const logoutWithCookie = (caller: string, cookieToken: string): Promise<Response> =>
      fetch(`${h.v.baseUrl}/api/logout`, { method: 'POST', headers: { authorization: `Bearer ${caller}`, cookie: `token=${encodeURIComponent(cookieToken)}`, 'content-type': 'application/json' }, body: '{}' });
    // Another user's token, and the same user's trading token from a read-only key: untouched.
    const attacker = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret);
    expect((await logoutWithCookie(attacker, victimToken)).status).toBe(200);
    expect((await h.rest('GET', '/api/whoami', undefined, victimToken)).status).toBe(200);
    expect((await logoutWithCookie(readOnlyToken, trading)).status).toBe(200);
    expect((await h.rest('GET', '/api/whoami', undefined, trading)).status).toBe(200);
    // The caller's own second token in the cookie is revoked with the bearer one.
    const own2 = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret);
    const own1 = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret);
    expect((await logoutWithCookie(own1, own2)).status).toBe(200);
    expect((await h.rest('GET', '/api/whoami', undefined, own1)).status).toBe(401);
    expect((await h.rest('GET', '/api/whoami', undefined, own2)).status).toBe(401);
  });
});

describe('API keys', () => {
  it('revoking a key revokes its tokens and open WS sessions, not other keys', async () => {
    const k = await h.rest('POST', '/api/api-keys', {}, h.token, decodeCreateApiKeyResponse);
    const t = await h.login(k.body.api_key, k.body.api_secret);
    const c = await h.ws('', { token: t });
    expect((await h.rest('DELETE', '/api/api-keys', { api_key: k.body.api_key })).status).toBe(200);
    expect((await h.rest('GET', '/api/whoami', undefined, t)).status).toBe(401);
    expect((await h.rest('POST', '/api/authenticate', { api_key: k.body.api_key, api_secret: k.body.api_secret, expiration_seconds: 60 }, null)).status).toBe(401);
    expect((await c.request({ t: 'o' })).err.code).toBe(401);
    expect((await h.rest('GET', '/api/whoami')).status).toBe(200);
    expect((await h.rest('DELETE', '/api/api-keys', { api_key: 'ak_missing' })).status).toBe(404);
  });

  it('permissions are intersected with the owner: a read-only key cannot trade (403)', async () => {
    const k = await h.rest('POST', '/api/api-keys', { permissions: { can_read: true, can_trade: false } });
    const t = await h.login(k.body.api_key, k.body.api_secret);
    expect((await h.rest('GET', '/api/balances', undefined, t)).status).toBe(200);
    expect((await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1000'), t)).status).toBe(403);
    const c = await h.ws('', { token: t });
    expect((await c.request(limit('B', 100, '1.1000'))).err.code).toBe(403);
    const who = await h.rest('GET', '/api/whoami', undefined, t);
    expect(who.body.accounts[0]).toMatchObject({ can_read: true, can_trade: false });
  });

  it('a full key never out-ranks its owner: owner without can_trade on an account → 403', async () => {
    const { user, key } = h.venue.createUser('limited', [{ name: 'main', permissions: { can_trade: false } }]);
    const t = await h.login(key.apiKey, key.apiSecret);
    expect((await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1000'), t)).status).toBe(403);
    user.permissions.set(user.accountIds[0]!, { ...user.permissions.get(user.accountIds[0]!)!, can_trade: true });
    expect((await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1000'), t)).status).toBe(200);
  });

  it('account scope: a key limited to one account gets 403 on the other, 400 on a malformed id', async () => {
    const k = await h.rest('POST', '/api/api-keys', { account_ids: [h.account2] });
    const t = await h.login(k.body.api_key, k.body.api_secret);
    expect(await h.upgradeStatus(`/orders/ws?account_id=${h.account}`, { authorization: `Bearer ${t}` })).toBe(403);
    expect(await h.upgradeStatus('/orders/ws?account_id=not-an-id', { authorization: `Bearer ${t}` })).toBe(400);
    expect(await h.upgradeStatus(`/orders/ws?client_heartbeat_timeout=301`, { authorization: `Bearer ${t}` })).toBe(400);
    const c = await h.ws('', { token: t });
    expect(c.frames[0].res.li).toBe(h.venue.defaultUser.id);
    const oid = (await c.request(limit('B', 100, '1.1000'))).res.oid;
    expect((await c.event(oid, 'n')).o.aid).toBe(h.account2);
    expect((await h.rest('GET', `/api/balances?account_id=${h.account}`, undefined, t)).status).toBe(403);
    expect((await h.rest('POST', '/api/api-keys', { account_ids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] })).status).toBe(403);
  });

  it('IP allowlists: 403 from a disallowed address; PATCH updates the list', async () => {
    const k = await h.rest('POST', '/api/api-keys', { allowed_ips: ['10.1.2.3'] });
    expect((await h.rest('POST', '/api/authenticate', { api_key: k.body.api_key, api_secret: k.body.api_secret, expiration_seconds: 60 }, null)).status).toBe(403);
    expect((await h.rest('PATCH', '/api/api-keys/allowed-ips', { api_key: k.body.api_key, allowed_ips: ['127.0.0.0/8'] })).status).toBe(200);
    const t = await h.login(k.body.api_key, k.body.api_secret);
    expect((await h.rest('PATCH', '/api/api-keys/allowed-ips', { api_key: k.body.api_key, allowed_ips: ['10.0.0.1'] })).status).toBe(200);
    expect((await h.rest('GET', '/api/whoami', undefined, t)).status).toBe(403);
    expect(await h.upgradeStatus('/orders/ws', { authorization: `Bearer ${t}` })).toBe(403);
    expect((await h.rest('PATCH', '/api/api-keys/allowed-ips', { api_key: k.body.api_key, allowed_ips: ['bad ip'] })).status).toBe(400);
  });

  it('a user without a default account gets 400 account_id is required', async () => {
    const { key } = h.venue.createUser('nobody', []);
    const t = await h.login(key.apiKey, key.apiSecret);
    const r = await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1000'), t);
    expect(r).toEqual({ status: 400, body: { error: 'account_id is required' } });
  });
});

describe('order WS sessions', () => {
  it('cancel_on_disconnect cancels only that connection’s orders', async () => {
    const keep = await h.ws();
    const kept = (await keep.request(limit('B', 100, '1.1001'))).res.oid;
    const c = await h.ws('?cancel_on_disconnect=true');
    const gone = (await c.request(limit('B', 100, '1.1002'))).res.oid;
    await c.event(gone, 'n');
    c.ws.close();
    expect((await keep.event(gone, 'c')).o.o).toBe('CANCELED');
    expect((await keep.request({ t: 's', oid: kept })).res.status.state).toBe('ACCEPTED');
    await keep.request({ t: 'X' });
    keep.ws.close();
  });

  it('a clean close hands the session to a newer cod connection: its orders stay until that one drops', async () => {
    const watcher = await h.ws();
    const old = await h.ws('?cancel_on_disconnect=true');
    const oid = (await old.request(limit('B', 100, '1.1004'))).res.oid;
    await old.event(oid, 'n');
    const next = await h.ws('?cancel_on_disconnect=true');
    old.ws.close(1000, 'session rollover');
    expect(await old.closed).toBe(1000);
    await tick(100);
    expect((await watcher.request({ t: 's', oid })).res.status.state).toBe('ACCEPTED');
    // Orders placed on the old connection now belong to the new one: its drop cancels them.
    next.ws.terminate();
    expect((await watcher.event(oid, 'c')).o.o).toBe('CANCELED');
    watcher.ws.close();
  });

  it('a drop (not a clean close) cancels that connection’s orders even when a newer connection is up', async () => {
    const watcher = await h.ws();
    const old = await h.ws('?cancel_on_disconnect=true');
    const oid = (await old.request(limit('B', 100, '1.1005'))).res.oid;
    await old.event(oid, 'n');
    const next = await h.ws('?cancel_on_disconnect=true');
    old.ws.terminate();
    expect((await watcher.event(oid, 'c')).o.o).toBe('CANCELED');
    next.ws.close();
    watcher.ws.close();
  });

  it('closes an order socket when the token of its upgrade expires (4001), and cancel-on-disconnect fires', async () => {
    const watcher = await h.ws();
    const shortLived = await h.login(h.v.credentials.api_key, h.v.credentials.api_secret, 1);
    const c = await h.ws('?cancel_on_disconnect=true', { token: shortLived });
    const oid = (await c.request(limit('B', 100, '1.1006'))).res.oid;
    await c.event(oid, 'n');
    expect(await c.closed).toBe(4001);
    expect((await watcher.event(oid, 'c')).o.o).toBe('CANCELED');
    watcher.ws.close();
  });

  it('client_heartbeat_timeout closes a silent session and cancels its orders; only heartbeats reset it', async () => {
    const watcher = await h.ws();
    const c = await h.ws('?cancel_on_disconnect=true&client_heartbeat_timeout=0.3');
    const oid = (await c.request(limit('B', 100, '1.1003'))).res.oid;
    for (let i = 0; i < 3; i++) {
      await tick(150);
      c.send({ rid: 100 + i, t: 'h' });
    }
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    // Other requests do not reset the deadline.
    const deadline = Date.now() + 2000;
    while (c.ws.readyState === c.ws.OPEN && Date.now() < deadline) {
      await c.request({ t: 'o' }).catch(() => undefined);
      await tick(50);
    }
    expect(c.ws.readyState).not.toBe(c.ws.OPEN);
    expect((await watcher.event(oid, 'c')).o.o).toBe('CANCELED');
    watcher.ws.close();
  });

  it('the server sends heartbeats', async () => {
    const c = await h.ws();
    const hb = await c.waitFor((f) => f.t === 'h');
    expect(typeof hb.ts).toBe('number');
    c.ws.close();
  });

  it('drop-connections knob terminates sockets', async () => {
    const c = await h.ws();
    expect(h.venue.knobs.dropConnections({ path: '/orders/ws' })).toBeGreaterThan(0);
    expect(await c.closed).toBe(1006);
  });

  it('legacy path /ws/orders works', async () => {
    const c = await h.ws('', { path: '/ws/orders' });
    expect(c.frames[0].rid).toBe(0);
    c.ws.close();
  });
});

describe('acknowledgement latency and rate limits', () => {
  it('a cancel before the ack answers 409 on WS and REST; after the ack it works', async () => {
    // Long enough that the requests below all land before the ack, even on a loaded machine.
    h.venue.knobs.ackLatencyMs = 1_500;
    try {
      const c = await h.ws();
      const oid = (await c.request(limit('B', 100, '1.1004'))).res.oid;
      expect((await c.request({ t: 'x', oid })).err).toEqual({ code: 409, msg: 'order not yet acknowledged by exchange; retry shortly' });
      expect((await h.rest('POST', '/orders/cancel-order', { oid })).status).toBe(409);
      expect((await c.request({ t: 'r', oid, p: '1.1005' })).err.code).toBe(409);
      const byCid = (await c.request(limit('B', 100, '1.1004', { cid: 9001 }))).res.oid;
      expect((await c.request({ t: 'x', cid: 9001 })).err.code).toBe(409);
      await c.event(byCid, 'n');
      await c.event(oid, 'n');
      expect((await c.request({ t: 'x', oid })).res.cxl_rx).toBe(true);
      c.ws.close();
    } finally {
      h.venue.knobs.ackLatencyMs = 0;
    }
  });

  it('the original terminating while a replace is pending rejects it ORIGINAL_ORDER_TERMINATED', async () => {
    const c = await h.ws();
    const oid = (await c.request(limit('B', 100, '1.1006'))).res.oid;
    await c.event(oid, 'n');
    // Long enough that the requests below all land before the ack, even on a loaded machine.
    h.venue.knobs.ackLatencyMs = 1_500;
    try {
      const r = await c.request({ t: 'r', oid, p: '1.1007' });
      h.venue.cancelAll(h.account);
      expect((await c.event(r.res.oid, 'j')).r).toBe('ORIGINAL_ORDER_TERMINATED');
    } finally {
      h.venue.knobs.ackLatencyMs = 0;
      c.ws.close();
    }
  });

  it('per-user token bucket answers 429 over REST and WS', async () => {
    const { key } = h.venue.createUser('busy', [{ name: 'main' }]);
    const t = await h.login(key.apiKey, key.apiSecret);
    h.venue.knobs.rateLimit = { enabled: true, burst: 3, perSecond: 0.001 };
    try {
      const c = await h.ws('', { token: t });
      for (let i = 0; i < 3; i++) expect((await c.request(limit('B', 100, '1.1000'))).res.oid).toMatch(/^O-/);
      expect((await c.request(limit('B', 100, '1.1000'))).err.code).toBe(429);
      expect((await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1000'), t)).status).toBe(429);
      c.ws.close();
    } finally {
      h.venue.knobs.rateLimit = { enabled: true, burst: 100, perSecond: 10 };
    }
  });
});

describe('plugin WS paths share the upgrade auth', () => {
  it('a path registered by a plugin (as /md/ws is) answers 401/403 before the upgrade', async () => {
    const p = await setup({
      plugins: [{ name: 'probe', register: (ctx) => ctx.ws.register('/md/ws', { onConnection: (ws) => ws.close() }) }],
    });
    try {
      expect(await p.upgradeStatus('/md/ws', {})).toBe(401);
      expect(await p.upgradeStatus('/md/ws', { authorization: 'Bearer wrong' })).toBe(401);
      expect(await p.upgradeStatus('/md/ws', { authorization: `Bearer ${p.token}` })).toBe(101);
      expect(await p.upgradeStatus('/md/ws', { authorization: p.token })).toBe(101);
      const k = await p.rest('POST', '/api/api-keys', {});
      const t = await p.login(k.body.api_key, k.body.api_secret);
      await p.rest('PATCH', '/api/api-keys/allowed-ips', { api_key: k.body.api_key, allowed_ips: ['10.9.9.9'] });
      expect(await p.upgradeStatus('/md/ws', { authorization: `Bearer ${t}` })).toBe(403);
      expect(await p.upgradeStatus('/nope/ws', { authorization: `Bearer ${p.token}` })).toBe(404);
    } finally {
      await p.close();
    }
  });
});
