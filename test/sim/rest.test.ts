import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeBalancesResponse,
  decodeCancelOrderResponse,
  decodeEmpty,
  decodeFillsResponse,
  decodeHealthResponse,
  decodeInitialMarginResponse,
  decodeLiquidationsResponse,
  decodeOpenOrdersResponse,
  decodeOrderFillsResponse,
  decodeOrderHistoryResponse,
  decodeOrderIdResponse,
  decodeOrderStatusResponse,
  decodePositionsResponse,
  decodeRiskSnapshotResponse,
  decodeTransactionsResponse,
} from '../../src/wire/index.ts';
import { limit, setup, type Harness } from './helpers.ts';

let h: Harness;
const DAY_NS = 86_400_000_000_000n;
const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;
const range = (fromNs: bigint, toNs: bigint): string => `start_timestamp_ns=${fromNs}&end_timestamp_ns=${toNs}`;
const recent = (): string => range(nowNs() - DAY_NS, nowNs() + DAY_NS);

beforeAll(async () => {
  h = await setup({ config: { rate_limit: { enabled: false } } });
});
afterAll(() => h.close());

describe('order gateway REST', () => {
  it('health endpoints need no token', async () => {
    expect((await h.rest('GET', '/api/health', undefined, null, decodeHealthResponse)).body.status).toBe('ok');
    expect((await h.rest('GET', '/orders/health', undefined, null, decodeHealthResponse)).status).toBe(200);
  });

  it('place, status, cancel (hyphenated and legacy underscore paths)', async () => {
    const p = await h.rest('POST', '/orders/place-order', { ...limit('B', 100, '1.1300'), cid: 42 }, h.token, decodeOrderIdResponse);
    const oid = p.body.oid as string;
    const st = await h.rest('GET', `/orders/order-status?oid=${oid}`, undefined, h.token, decodeOrderStatusResponse);
    expect(st.body.status).toMatchObject({ order_id: oid, state: 'ACCEPTED', clord_id: 42 });
    expect((await h.rest('GET', '/orders/order-status?cid=42')).body.status.order_id).toBe(oid);
    expect((await h.rest('POST', '/orders/cancel_order', { cid: 42 }, h.token, decodeCancelOrderResponse)).body).toEqual({ cxl_rx: true });
    expect((await h.rest('POST', '/orders/cancel-order', { oid }, h.token, decodeCancelOrderResponse)).body).toEqual({ cxl_rx: false });
    const p2 = await h.rest('POST', '/orders/place_order', limit('B', 100, '1.1300'), h.token, decodeOrderIdResponse);
    expect(p2.status).toBe(200);
    expect((await h.rest('POST', '/orders/cancel_all_orders', { symbol: 'EURUSD-PERP' }, h.token, decodeEmpty)).status).toBe(200);
  });

  it('exchange rejections map to 400/404 with the reject message', async () => {
    expect(await h.rest('POST', '/orders/place-order', limit('B', 100, '1.2600'))).toEqual({ status: 400, body: { error: "order price is above the exchange's maximum price limit" } });
    expect((await h.rest('POST', '/orders/place-order', limit('B', 1, '1.0', {}, 'NOPE-PERP'))).status).toBe(404);
    expect((await h.rest('POST', '/orders/place-order', { s: 'EURUSD-PERP' })).status).toBe(400);
  });

  it('replace returns the new oid; unknown order 404; invalid id 400', async () => {
    const oid = (await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1300'))).body.oid;
    const r = await h.rest('POST', '/orders/replace-order', { oid, p: '1.1301' }, h.token, decodeOrderIdResponse);
    expect(r.body.oid).not.toBe(oid);
    expect((await h.rest('GET', `/orders/order-status?oid=${oid}`)).body.status.state).toBe('REPLACED');
    expect((await h.rest('POST', '/orders/replace_order', { oid, p: '1.1302' })).status).toBe(404);
    expect((await h.rest('POST', '/orders/replace-order', { oid: 'bad', p: '1.1' })).body.error).toMatch(/invalid order id/);
    await h.rest('POST', '/orders/cancel-all-orders', {});
  });

  it('order-status: old parameter names → 400', async () => {
    expect((await h.rest('GET', '/orders/order-status?order_id=O-01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(400);
    expect((await h.rest('GET', '/orders/order-status?client_order_id=1')).status).toBe(400);
    expect((await h.rest('GET', '/orders/order-status?oid=O-01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
  });

  it('open-orders pages with limit/offset and sorts by time (desc default)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.rest('POST', '/orders/place-order', limit('B', 100, `1.12${i}0`))).body.oid);
    const d = await h.rest('GET', '/orders/open-orders?limit=2&offset=1', undefined, h.token, decodeOpenOrdersResponse);
    expect(d.body).toMatchObject({ total_count: 5, limit: 2, offset: 1 });
    expect(d.body.orders.map((o: { oid: string }) => o.oid)).toEqual([ids[3], ids[2]]);
    const a = await h.rest('GET', '/orders/open_orders?sort_ts=asc&limit=1');
    expect(a.body.orders[0].oid).toBe(ids[0]);
    expect((await h.rest('GET', '/orders/open-orders?sort_ts=sideways')).status).toBe(400);
    expect((await h.rest('GET', '/orders/open-orders?limit=-1')).status).toBe(400);
    await h.rest('POST', '/orders/cancel-all-orders', {});
  });

  it('order history: range required and ≤ 7 days without ids; ids ≤ 100 make it optional', async () => {
    const oid = (await h.rest('POST', '/orders/place-order', limit('B', 100, '1.1100'))).body.oid;
    expect((await h.rest('GET', '/orders/orders')).status).toBe(400);
    expect((await h.rest('GET', `/orders/orders?${range(nowNs() - 8n * DAY_NS, nowNs())}`)).status).toBe(400);
    expect((await h.rest('GET', `/orders/orders?${range(nowNs(), nowNs() - 1n)}`)).status).toBe(400);
    const inRange = await h.rest('GET', `/orders/orders?${recent()}`, undefined, h.token, decodeOrderHistoryResponse);
    expect(inRange.body.orders.map((o: { oid: string }) => o.oid)).toContain(oid);
    const byId = await h.rest('GET', `/orders/orders?order_id=${oid}&order_ids=${oid}`, undefined, h.token, decodeOrderHistoryResponse);
    expect(byId.body.orders).toHaveLength(1);
    const many = Array.from({ length: 101 }, (_, i) => `O-01ARZ3NDEKTSV4RRFFQ69G5${String(i).padStart(3, '0').replace(/[ILOU]/g, '0')}`);
    expect((await h.rest('GET', `/orders/orders?order_ids=${many.join(',')}`)).body.error).toMatch(/at most 100/);
    const page1 = await h.rest('GET', `/orders/orders?${recent()}&limit=1`);
    expect(page1.body.next_cursor).toMatch(/^\d+:O-/);
    const page2 = await h.rest('GET', `/orders/orders?${recent()}&limit=1&cursor=${page1.body.next_cursor}`);
    expect(page2.body.orders[0].oid).not.toBe(page1.body.orders[0].oid);
    await h.rest('POST', '/orders/cancel-all-orders', {});
  });

  it('initial-margin-requirement mirrors the captured preview', async () => {
    const r = await h.rest('POST', '/orders/initial-margin-requirement', { s: 'EURUSD-PERP', d: 'B', q: 100, p: '1.1383', tif: 'GTC', po: false }, h.token, decodeInitialMarginResponse);
    expect(r.body).toEqual({ im: '6.8298', im_pct: '6.0', mult: '1', pos: 0 });
    expect((await h.rest('POST', '/orders/initial-margin-requirement', { s: 'NOPE', d: 'B', q: 1, p: '1' })).status).toBe(404);
  });
});

describe('portfolio REST after a trade', () => {
  let makerOid = '';
  beforeAll(async () => {
    makerOid = (await h.rest('POST', '/orders/place-order', { ...limit('S', 100, '1.1388'), aid: h.account2 })).body.oid;
    await h.rest('POST', '/orders/place-order', { ...limit('B', 100, '1.1408'), tif: 'IOC' });
    await h.rest('POST', '/orders/place-order', { ...limit('B', 100, '1.1384'), aid: h.account2 });
    await h.rest('POST', '/orders/place-order', { ...limit('S', 100, '1.1384'), tif: 'IOC' });
  });

  it('fills carry fees (taker 2 bp, maker 0) and realized PnL excluding fees', async () => {
    const f = await h.rest('GET', `/api/fills?${recent()}`, undefined, h.token, decodeFillsResponse);
    expect(f.body.total_count).toBe(2);
    const [close, open] = f.body.fills;
    expect(open).toMatchObject({ price: '1.1388', quantity: 100, is_taker: true, fee: '0.022776', side: 'B', realized_pnl: null });
    expect(close).toMatchObject({ price: '1.1384', side: 'S', realized_pnl: '-0.04' });
    const mf = await h.rest('GET', `/orders/order-fills?oid=${makerOid}&account_id=${h.account2}`, undefined, h.token, decodeOrderFillsResponse);
    expect(mf.body.fills[0]).toMatchObject({ is_taker: false, fee: '0' });
    expect((await h.rest('GET', `/orders/order-fills?order_id=${makerOid}&account_id=${h.account2}`)).body.fills).toHaveLength(1);
  });

  it('positions, balances, risk snapshot and transactions agree', async () => {
    const pos = await h.rest('GET', '/api/positions', undefined, h.token, decodePositionsResponse);
    expect(pos.body.positions[0]).toMatchObject({ symbol: 'EURUSD-PERP', signed_quantity: 0, realized_pnl: '-0.040000000000' });
    const bal = await h.rest('GET', '/api/balances', undefined, h.token, decodeBalancesResponse);
    // 1,000,000 − 0.04 PnL − fees 0.022776 − 0.022768
    expect(bal.body.balances[0].amount).toBe('999999.914456000000');
    const risk = await h.rest('GET', `/api/risk-snapshot?account_id=${h.account2}`, undefined, h.token, decodeRiskSnapshotResponse);
    expect(risk.body.risk_snapshot.per_symbol['EURUSD-PERP']).toMatchObject({ signed_quantity: 0, mark_price: '1.1384' });
    const tx = await h.rest('GET', `/api/transactions?${recent()}&transaction_types=fee,pnl`, undefined, h.token, decodeTransactionsResponse);
    expect(tx.body.transactions.map((t: { transaction_type: string }) => t.transaction_type).sort()).toEqual(['fee', 'fee', 'pnl']);
    expect(tx.body.transactions[0].reference_id).toMatch(/^ax-fill:\/\/T-/);
  });

  it('fills, transactions and liquidations need an explicit range of at most 7 days', async () => {
    for (const p of ['/api/fills', '/api/transactions', '/api/liquidations']) {
      // One clock reading: two could straddle a millisecond and make an empty range non-empty.
      const now = nowNs();
      expect((await h.rest('GET', p)).status).toBe(400);
      expect((await h.rest('GET', `${p}?start_timestamp_ns=1`)).status).toBe(400);
      expect((await h.rest('GET', `${p}?${range(now - 8n * DAY_NS, now)}`)).status).toBe(400);
      expect((await h.rest('GET', `${p}?${range(now, now)}`)).status).toBe(400);
    }
    expect((await h.rest('GET', `/api/liquidations?${recent()}`, undefined, h.token, decodeLiquidationsResponse)).body.liquidations).toEqual([]);
  });

  it('sandbox deposit and withdraw move the balance; over-withdrawal is refused', async () => {
    const d = await h.rest('POST', '/api/sandbox/deposit', { symbol: 'USD', amount: '100' });
    expect(d.status).toBe(200);
    const w = await h.rest('POST', '/api/sandbox/withdraw', { symbol: 'USD', amount: '100', account_id: h.account });
    expect(w.body.balance).toBe('999999.914456000000');
    expect((await h.rest('POST', '/api/sandbox/withdraw', { symbol: 'USD', amount: '99999999' })).status).toBe(400);
    expect((await h.rest('POST', '/api/sandbox/withdraw', { symbol: 'EUR', amount: '1' })).status).toBe(400);
  });
});
