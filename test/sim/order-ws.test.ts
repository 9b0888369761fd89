import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { limit, setup, type Harness, type OrderWs } from './helpers.ts';

let h: Harness;
let a: OrderWs;
let b: OrderWs;

beforeAll(async () => {
  h = await setup({ config: { rate_limit: { enabled: false } } });
  a = await h.ws();
  b = await h.ws(`?account_id=${h.account2}`);
});
afterAll(() => h.close());
beforeEach(async () => {
  await a.request({ t: 'X' });
  await b.request({ t: 'X' });
});

async function place(c: OrderWs, msg: Record<string, unknown>): Promise<string> {
  const r = await c.request(msg);
  expect(r.err).toBeUndefined();
  return r.res.oid as string;
}

describe('order WS: login, envelope and basic lifecycle', () => {
  it('sends the login reply with rid 0, o null when empty, and cod', async () => {
    const c = await h.ws('?cancel_on_disconnect=true');
    expect(c.frames[0]).toEqual({ rid: 0, res: { li: h.venue.defaultUser.id, o: null, cod: true } });
    c.ws.close();
  });

  it('lists open orders in the login reply of a new connection', async () => {
    const oid = await place(a, limit('B', 100, '1.1300'));
    await a.event(oid, 'n');
    const c = await h.ws();
    expect(c.frames[0].res.o.map((o: { oid: string }) => o.oid)).toEqual([oid]);
    c.ws.close();
  });

  it('acknowledges before fills; maker and taker get p/f with xs and agg', async () => {
    const m = await place(a, limit('S', 200, '1.1410'));
    const t = await place(b, limit('B', 300, '1.1420'));
    const tn = await b.event(t, 'n');
    const tp = await b.event(t, 'p');
    expect(b.frames.indexOf(tn)).toBeLessThan(b.frames.indexOf(tp));
    expect(tp.xs).toMatchObject({ q: 200, p: '1.1410', d: 'B', agg: true, aid: h.account2 });
    expect(tp.o).toMatchObject({ o: 'PARTIALLY_FILLED', xq: 200, rq: 100 });
    const mf = await a.event(m, 'f');
    expect(mf.xs).toMatchObject({ q: 200, p: '1.1410', d: 'S', agg: false });
    expect(mf.o).toMatchObject({ o: 'FILLED', rq: 0 });
  });

  it('expires an unfilled IOC with x', async () => {
    const oid = await place(a, { ...limit('B', 100, '1.0300'), tif: 'IOC' });
    const x = await a.event(oid, 'x');
    expect(x.o).toMatchObject({ o: 'EXPIRED', rq: 0, txt: 'order could not be filled, no available liquidity' });
  });

  it('answers s (status) and o (open orders); unknown order → 404', async () => {
    const oid = await place(a, limit('B', 100, '1.1000', { cid: 77 }));
    await a.event(oid, 'n');
    const st = await a.request({ t: 's', cid: 77 });
    expect(st.res.status).toMatchObject({ order_id: oid, state: 'ACCEPTED', clord_id: '77', filled_quantity: 0, remaining_quantity: 100 });
    const oo = await a.request({ t: 'o' });
    expect(oo.res.orders.map((o: { oid: string }) => o.oid)).toContain(oid);
    const missing = await a.request({ t: 's', oid: 'O-01ARZ3NDEKTSV4RRFFQ69G5FAV' });
    expect(missing.err.code).toBe(404);
  });

  it('cancels with c; a second cancel gets cxl_rx false and an e ORDER_NOT_FOUND', async () => {
    const oid = await place(a, limit('B', 100, '1.1000'));
    await a.event(oid, 'n');
    expect((await a.request({ t: 'x', oid })).res).toEqual({ cxl_rx: true });
    expect((await a.event(oid, 'c')).o.o).toBe('CANCELED');
    expect((await a.request({ t: 'x', oid })).res).toEqual({ cxl_rx: false });
    expect((await a.event(oid, 'e')).r).toBe('ORDER_NOT_FOUND');
  });

  it('rejects malformed requests with err 400 and an invalid order id clearly', async () => {
    expect((await a.request({ t: 'p', s: 'EURUSD-PERP', d: 'B', q: 100, tif: 'GTC', po: false })).err).toMatchObject({ code: 400, msg: 'p is required' });
    expect((await a.request({ t: 'x', oid: 'nope' })).err.msg).toMatch(/invalid order id/);
    expect((await a.request({ t: 'x', oid: 'O-01ARZ3NDEKTSV4RRFFQ69G5FAV', cid: 1 })).err.code).toBe(400);
    expect((await a.request({ t: 'zz' })).err.code).toBe(400);
    expect((await a.request({ ...limit('B', 100, '1.1'), tag: 'this-is-too-long' })).err.msg).toMatch(/tag/);
  });

  it('answers ef with 404 until a funding provider is installed', async () => {
    expect((await a.request({ t: 'ef', symbol: 'NVDA-PERP' })).err).toEqual({ code: 404, msg: 'estimated funding rate is not available for this symbol' });
  });
});

describe('order WS: reject reasons', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown symbol', limit('B', 1, '1.0', {}, 'NOPE-PERP'), 'UNKNOWN_SYMBOL'],
    ['tick increment', limit('B', 100, '1.14005'), 'INVALID_PRICE_INCREMENT'],
    ['minimum size', limit('B', 99, '1.1400'), 'INCORRECT_QUANTITY'],
    ['band above', limit('B', 100, '1.2600'), 'PRICE_OUT_OF_BOUNDS'],
    ['band below', limit('S', 100, '1.0200'), 'PRICE_OUT_OF_BOUNDS'],
    ['initial margin', limit('B', 1_000_000_000, '1.1400'), 'INSUFFICIENT_MARGIN'],
  ];
  for (const [name, msg, reason] of cases) {
    it(`${name} → j ${reason}`, async () => {
      const oid = await place(a, msg);
      const j = await a.event(oid, 'j');
      expect(j.r).toBe(reason);
      expect(j.o).toMatchObject({ o: 'REJECTED', rq: 0, r: reason });
      expect(typeof j.txt).toBe('string');
    });
  }

  it('band limits are inclusive and rounded inward from the last settlement price', async () => {
    const lo = await place(a, limit('B', 100, '1.0261'));
    expect((await a.waitFor((f) => f.o?.oid === lo)).t).toBe('n');
    const hi = await place(a, limit('S', 100, '1.2541'));
    expect((await a.waitFor((f) => f.o?.oid === hi)).t).toBe('n');
    const out = await place(a, limit('B', 100, '1.0260'));
    expect((await a.event(out, 'j')).txt).toBe("order price is below the exchange's minimum price limit");
  });

  it('max open orders per symbol → MAX_OPEN_ORDERS_EXCEEDED', async () => {
    h.venue.knobs.maxOpenOrdersPerSymbol = 2;
    try {
      await place(a, limit('B', 100, '1.1000'));
      await place(a, limit('B', 100, '1.1001'));
      const third = await place(a, limit('B', 100, '1.1002'));
      expect((await a.event(third, 'j')).r).toBe('MAX_OPEN_ORDERS_EXCEEDED');
    } finally {
      h.venue.knobs.maxOpenOrdersPerSymbol = 100;
    }
  });

  it('close-only account → CLOSE_ONLY for orders that do not reduce', async () => {
    const acct = h.venue.accounts.account(h.account2)!;
    acct.isCloseOnly = true;
    try {
      const oid = await place(b, limit('B', 100, '1.1000'));
      expect((await b.event(oid, 'j')).r).toBe('CLOSE_ONLY');
    } finally {
      acct.isCloseOnly = false;
    }
  });

  it('forced rejects knob', async () => {
    h.venue.knobs.forceReject('INSUFFICIENT_CREDIT_LIMIT', { count: 1 });
    const oid = await place(a, limit('B', 100, '1.1000'));
    expect((await a.event(oid, 'j')).r).toBe('INSUFFICIENT_CREDIT_LIMIT');
    const next = await place(a, limit('B', 100, '1.1000'));
    expect((await a.waitFor((f) => f.o?.oid === next)).t).toBe('n');
  });

  it('instrument states: EXCHANGE_CLOSED when CLOSED/HALTED; cancel allowed in CLOSED, refused in HALTED and CLOSED_FROZEN', async () => {
    const oid = await place(a, limit('B', 1, '4000.0', {}, 'XAU-PERP'));
    await a.event(oid, 'n');
    try {
      h.venue.setInstrumentState('XAU-PERP', 'HALTED');
      const rej = await place(a, limit('B', 1, '4000.0', {}, 'XAU-PERP'));
      expect((await a.event(rej, 'j')).r).toBe('EXCHANGE_CLOSED');
      expect((await a.request({ t: 'x', oid })).res).toEqual({ cxl_rx: false });
      expect((await a.event(oid, 'e')).o.o).toBe('ACCEPTED');
      h.venue.setInstrumentState('XAU-PERP', 'CLOSED_FROZEN');
      expect((await a.request({ t: 'x', oid })).res).toEqual({ cxl_rx: false });
      h.venue.setInstrumentState('XAU-PERP', 'CLOSED');
      const rej2 = await place(a, limit('B', 1, '4000.0', {}, 'XAU-PERP'));
      expect((await a.event(rej2, 'j')).r).toBe('EXCHANGE_CLOSED');
      expect((await a.request({ t: 'x', oid })).res).toEqual({ cxl_rx: true });
    } finally {
      h.venue.setInstrumentState('XAU-PERP', 'OPEN');
    }
  });

  it('PRE_OPEN accepts crossing orders without matching, then uncrosses at the open', async () => {
    h.venue.setInstrumentState('SPY-PERP', 'PRE_OPEN');
    const s = await place(a, limit('S', 5, '660.00', {}, 'SPY-PERP'));
    const t = await place(b, limit('B', 3, '661.00', {}, 'SPY-PERP'));
    await b.event(t, 'n');
    expect(b.eventsFor(t).some((f) => f.t === 'f')).toBe(false);
    h.venue.setInstrumentState('SPY-PERP', 'OPEN');
    // Single-price auction: 660.00 and 661.00 both execute 3 (imbalance 2); 661.00 is nearer the
    // settlement (668.12). More cases in auction.test.ts.
    expect((await b.event(t, 'f')).xs).toMatchObject({ q: 3, p: '661.00' });
    expect((await a.event(s, 'p')).o.rq).toBe(2);
  });
});

describe('order WS: post-only and self-trade prevention', () => {
  beforeEach(async () => {
    await place(b, limit('S', 100, '1.1410'));
    await place(b, limit('B', 100, '1.1390'));
  });

  it('rb rej rejects a crossing post-only order with r null', async () => {
    const oid = await place(a, { ...limit('B', 100, '1.1410'), po: true, rb: 'rej' });
    const j = await a.event(oid, 'j');
    expect(j.r).toBeNull();
    expect(j.txt).toBe('post-only order would cross the book');
  });

  it('rb bo reprices one tick behind the opposite best', async () => {
    const oid = await place(a, { ...limit('B', 100, '1.1420'), po: true, rb: 'bo' });
    expect((await a.event(oid, 'n')).o.p).toBe('1.1409');
  });

  it('rb tbl joins the same-side best; falls back to bo when that side is empty', async () => {
    const oid = await place(a, { ...limit('B', 100, '1.1420'), po: true, rb: 'tbl' });
    expect((await a.event(oid, 'n')).o.p).toBe('1.1390');
    await b.request({ t: 'X' });
    await place(b, limit('S', 100, '1.1410'));
    await a.request({ t: 'X' });
    const lone = await place(a, { ...limit('B', 100, '1.1420'), po: true, rb: 'tbl' });
    expect((await a.event(lone, 'n')).o.p).toBe('1.1409');
  });

  it('a non-crossing post-only order rests at its price', async () => {
    const oid = await place(a, { ...limit('B', 100, '1.1395'), po: true });
    expect((await a.event(oid, 'n')).o).toMatchObject({ p: '1.1395', po: true, rb: 'rej' });
  });

  for (const [st, cancelsTaker, cancelsMaker] of [
    ['CancelIncoming', true, false],
    ['xi', true, false],
    ['CancelResting', false, true],
    ['xr', false, true],
    ['CancelBoth', true, true],
    ['xb', true, true],
  ] as const) {
    it(`self-trade ${st}`, async () => {
      const maker = await place(b, limit('S', 100, '1.1405'));
      await b.event(maker, 'n');
      const taker = await place(b, limit('B', 100, '1.1405', { st }));
      await b.event(taker, 'n');
      await b.request({ t: 'o' });
      expect(b.eventsFor(taker).some((f) => f.t === 'c')).toBe(cancelsTaker);
      expect(b.eventsFor(maker).some((f) => f.t === 'c')).toBe(cancelsMaker);
      expect(b.eventsFor(taker).some((f) => f.t === 'f' || f.t === 'p')).toBe(false);
      // The aggressor proceeds after CancelResting: with nothing else crossing, it rests.
      if (!cancelsTaker) expect((await b.request({ t: 's', oid: taker })).res.status.state).toBe('ACCEPTED');
    });
  }
});

describe('order WS: replace and client order ids', () => {
  it('replace: new oid, inherited cid and tag, original REPLACED rq 0, new time priority', async () => {
    const first = await place(a, limit('B', 200, '1.1300', { cid: 10075, tag: 'mm1' }));
    const other = await place(b, limit('B', 100, '1.1300'));
    await b.event(other, 'n');
    const r = await a.request({ t: 'r', oid: first, p: '1.1300', q: 100 });
    const newOid = r.res.oid as string;
    expect(newOid).not.toBe(first);
    const ev = await a.event(newOid, 'r');
    expect(ev.ro).toMatchObject({ oid: first, o: 'REPLACED', rq: 0, cid: '10075' });
    expect(ev.no).toMatchObject({ oid: newOid, o: 'ACCEPTED', q: 100, rq: 100, cid: '10075', tag: 'mm1' });
    expect(ev.noid).toBe(newOid);
    // New time priority: the other account's order at the same price now fills first.
    const taker = await place(a, { ...limit('S', 100, '1.1300', {}, 'EURUSD-PERP'), tif: 'IOC', st: 'xr' });
    await a.waitFor((f) => f.o?.oid === taker && (f.t === 'f' || f.t === 'x'));
    expect((await b.event(other, 'f')).xs.q).toBe(100);
  });

  it('replacement matching immediately reports its fills', async () => {
    await place(b, limit('S', 100, '1.1410'));
    const oid = await place(a, limit('B', 100, '1.1300'));
    await a.event(oid, 'n');
    const r = await a.request({ t: 'r', oid, p: '1.1410' });
    expect((await a.event(r.res.oid, 'f')).o).toMatchObject({ xq: 100, rq: 0, o: 'FILLED' });
  });

  it('replace by cid and on an unknown order', async () => {
    await a.event(await place(a, limit('B', 100, '1.1200', { cid: 5 })), 'n'); // a replace inside the ack latency answers 409
    const r = await a.request({ t: 'r', cid: 5, p: '1.1201' });
    expect((await a.event(r.res.oid, 'r')).no.p).toBe('1.1201');
    expect((await a.request({ t: 'r', oid: 'O-01ARZ3NDEKTSV4RRFFQ69G5FAV', p: '1.1' })).err.code).toBe(404);
  });

  it('a rejected replacement leaves the original working', async () => {
    const oid = await place(a, limit('B', 100, '1.1200'));
    await a.event(oid, 'n');
    const r = await a.request({ t: 'r', oid, p: '1.30' });
    expect((await a.event(r.res.oid, 'j')).r).toBe('PRICE_OUT_OF_BOUNDS');
    const st = await a.request({ t: 's', oid });
    expect(st.res.status.state).toBe('ACCEPTED');
  });

  it('cid must be unique among open orders; reusable after the order ends; u64 kept exact', async () => {
    const big = '18446744073709551615';
    const first = await a.request(limit('B', 100, '1.1200', { cid: 1 }), (t) => t.replace('"cid":1', `"cid":${big}`));
    const n = await a.event(first.res.oid, 'n');
    expect(n.o.cid).toBe(big);
    const dup = await a.request(limit('B', 100, '1.1201', { cid: 1 }), (t) => t.replace('"cid":1', `"cid":${big}`));
    expect((await a.event(dup.res.oid, 'j')).r).toBe('DUPLICATE_CLIENT_ORDER_ID');
    // Another account has its own cid namespace.
    const other = await b.request(limit('B', 100, '1.1200', { cid: 1 }), (t) => t.replace('"cid":1', `"cid":${big}`));
    expect((await b.event(other.res.oid, 'n')).o.cid).toBe(big);
    await a.request({ t: 'x', oid: first.res.oid });
    const again = await a.request(limit('B', 100, '1.1202', { cid: 1 }), (t) => t.replace('"cid":1', `"cid":${big}`));
    expect((await a.event(again.res.oid, 'n')).o.cid).toBe(big);
  });

  it('DAY orders end DONE_FOR_DAY at the session end', async () => {
    const oid = await place(a, { ...limit('B', 100, '1.1100'), tif: 'DAY' });
    await a.event(oid, 'n');
    h.venue.endOfDay();
    expect((await a.event(oid, 'd')).o).toMatchObject({ o: 'DONE_FOR_DAY', rq: 0 });
  });
});
