import { isVenueOrderId } from '../../core/ids.ts';
import { initialMargin } from '../../domain/instrument.ts';
import type { VenuePluginContext } from '../plugin.ts';
import type { SimOrder } from '../types.ts';
import { requireCancel, requireOrderEntry, requirePermission, resolveAccount, type AccountAccess } from './access.ts';
import { HttpError, ok, type RouteContext, type RouteHandler, type Router } from './http-kit.ts';
import { intParam, optionalRange, pageByCursor, requiredRange, sortParam } from './query-params.ts';
import { asObject, parseCid, parsePlace, parseRef, parseReplace } from './request-parse.ts';
import { toWireFill, toWireOrder, toWireStatus } from './wire-out.ts';

/** Registers `path` and, for the older API generation, its underscore spelling. */
function both(router: Router, method: string, path: string, handler: RouteHandler): void {
  router.add(method, path, handler);
  const legacy = path.replace(/-/g, '_');
  if (legacy !== path) router.add(method, legacy, handler);
}

/** HTTP status of an exchange rejection (unknown symbol → 404, the rest → 400). */
const rejectStatus = (o: SimOrder): number => (o.rejectReason === 'UNKNOWN_SYMBOL' ? 404 : 400);

/** The order gateway REST endpoints under /orders/. */
export function registerOrderRoutes({ router, venue, rateLimiter }: VenuePluginContext): void {
  const access = (ctx: RouteContext, requested: unknown): AccountAccess => resolveAccount(venue, ctx.session!, requested);
  const limit = (ctx: RouteContext): void => {
    if (!rateLimiter.take(ctx.session!.userId)) throw new HttpError(429, 'rate limit exceeded; slow down');
  };
  const body = (ctx: RouteContext): Record<string, unknown> => asObject(ctx.body);

  both(router, 'POST', '/orders/place-order', async (ctx) => {
    const b = body(ctx);
    const acc = access(ctx, b['aid'] ?? b['account_id']);
    const spec = parsePlace(b);
    requireOrderEntry(venue, acc, spec.symbol, spec.side, spec.qty);
    limit(ctx);
    const order = await new Promise<SimOrder>((resolve) => venue.place({ userId: ctx.session!.userId, accountId: acc.accountId }, spec, resolve));
    if (order.state === 'REJECTED') throw new HttpError(rejectStatus(order), order.text ?? 'order rejected');
    return ok({ oid: order.oid });
  });

  both(router, 'POST', '/orders/cancel-order', (ctx) => {
    const b = body(ctx);
    const acc = access(ctx, b['aid'] ?? b['account_id']);
    const ref = parseRef(b);
    requireCancel(acc);
    limit(ctx);
    const r = venue.cancel({ userId: ctx.session!.userId, accountId: acc.accountId }, ref);
    if (r.status === 'pending') throw new HttpError(409, 'order not yet acknowledged by exchange; retry shortly');
    return ok({ cxl_rx: r.status === 'accepted' });
  });

  both(router, 'POST', '/orders/replace-order', async (ctx) => {
    const b = body(ctx);
    const acc = access(ctx, b['aid'] ?? b['account_id']);
    const ref = parseRef(b);
    const spec = parseReplace(b);
    const orig = venue.engine.find(acc.accountId, ref);
    if (orig) requireOrderEntry(venue, acc, orig.symbol, orig.side, spec.qty ?? orig.remainingQty);
    limit(ctx);
    const order = await new Promise<SimOrder | null>((resolve) => {
      const r = venue.replace({ userId: ctx.session!.userId, accountId: acc.accountId }, ref, spec, resolve);
      if (r.status === 'pending') throw new HttpError(409, 'order not yet acknowledged by exchange; retry shortly');
      if (r.status !== 'accepted') throw new HttpError(404, 'order not found or no longer open');
    });
    if (order && order.state === 'REJECTED') throw new HttpError(rejectStatus(order), order.text ?? 'replace rejected');
    return ok({ oid: order!.oid });
  });

  both(router, 'POST', '/orders/cancel-all-orders', (ctx) => {
    const b = ctx.body === undefined ? {} : body(ctx);
    const acc = access(ctx, b['account_id'] ?? b['aid']);
    requireCancel(acc);
    if (b['symbol'] !== undefined && typeof b['symbol'] !== 'string') throw new HttpError(400, 'symbol must be a string');
    limit(ctx);
    venue.cancelAll(acc.accountId, b['symbol'] !== undefined ? { symbol: b['symbol'] as string } : {});
    return ok({});
  });

  both(router, 'GET', '/orders/order-status', (ctx) => {
    const q = ctx.query;
    if (q.has('order_id') || q.has('client_order_id')) throw new HttpError(400, 'order_id and client_order_id are no longer accepted; use oid or cid');
    const acc = access(ctx, q.get('account_id') ?? q.get('aid'));
    requirePermission(acc, 'can_read');
    const ref = parseRef({ oid: q.get('oid') ?? undefined, cid: q.get('cid') ?? undefined });
    const o = venue.engine.find(acc.accountId, ref);
    if (!o) throw new HttpError(404, 'order not found');
    return ok({ status: toWireStatus(o) });
  });

  both(router, 'GET', '/orders/open-orders', (ctx) => {
    const q = ctx.query;
    const acc = access(ctx, q.get('account_id') ?? q.get('aid'));
    requirePermission(acc, 'can_read');
    const lim = intParam(q, 'limit', 100, 1000);
    const off = intParam(q, 'offset', 0);
    const sort = sortParam(q);
    const open = [...venue.accounts.account(acc.accountId)!.open.values()];
    open.sort((a, b) => (a.createdNs < b.createdNs ? -1 : a.createdNs > b.createdNs ? 1 : 0) * (sort === 'asc' ? 1 : -1));
    return ok({ orders: open.slice(off, off + lim).map((o) => toWireOrder(venue, o)), total_count: open.length, limit: lim, offset: off });
  });

  router.get('/orders/orders', (ctx) => {
    const q = ctx.query;
    const acc = access(ctx, q.get('account_id') ?? q.get('aid'));
    requirePermission(acc, 'can_read');
    const ids = new Set<string>();
    const one = q.get('order_id');
    if (one) ids.add(one);
    for (const id of (q.get('order_ids') ?? '').split(',')) if (id.trim() !== '') ids.add(id.trim());
    if (ids.size > 100) throw new HttpError(400, `at most 100 order ids may be given (got ${ids.size})`);
    for (const id of ids) if (!isVenueOrderId(id)) throw new HttpError(400, `invalid order id ${JSON.stringify(id)}`);
    const range = ids.size > 0 ? optionalRange(q, false) : requiredRange(q);
    const lim = intParam(q, 'limit', 100, 1000);
    const acct = venue.accounts.account(acc.accountId)!;
    const rows: SimOrder[] = [];
    const source = ids.size > 0 ? [...ids] : acct.orderIds;
    for (const id of source) {
      const o = venue.order(id);
      if (o && o.accountId === acc.accountId && o.createdNs >= range.start && o.createdNs < range.end) rows.push(o);
    }
    const { page, next } = pageByCursor(rows, (o) => ({ ts: o.createdNs, id: o.oid }), 'desc', lim, q.get('cursor'));
    return ok({ orders: page.map((o) => toWireOrder(venue, o)), ...(next ? { next_cursor: next } : {}), limit: lim });
  });

  both(router, 'GET', '/orders/order-fills', (ctx) => {
    const q = ctx.query;
    const oid = q.get('oid') ?? q.get('order_id');
    if (!oid) throw new HttpError(400, 'oid is required');
    if (!isVenueOrderId(oid)) throw new HttpError(400, `invalid order id ${JSON.stringify(oid)}`);
    const acc = access(ctx, q.get('account_id') ?? q.get('aid'));
    requirePermission(acc, 'can_read');
    const fills = venue.accounts.account(acc.accountId)!.fills.filter((f) => f.orderId === oid);
    return ok({ fills: fills.map(toWireFill) });
  });

  both(router, 'POST', '/orders/initial-margin-requirement', (ctx) => {
    const b = body(ctx);
    const acc = access(ctx, b['aid'] ?? b['account_id']);
    requirePermission(acc, 'can_read');
    if (typeof b['q'] === 'number' && b['q'] < 0) throw new HttpError(400, 'q must be >= 0');
    if (b['cid'] !== undefined) parseCid(b['cid']);
    const spec = parsePlace({ po: false, tif: 'GTC', ...b, d: b['d'] ?? b['side'] });
    const m = venue.markets.get(spec.symbol);
    if (!m) throw new HttpError(404, `unknown symbol ${spec.symbol}`);
    let ticks: number;
    try {
      ticks = m.instrument.grid.toTicks(spec.price);
    } catch {
      throw new HttpError(400, `order price ${spec.price} is not a multiple of the tick size ${m.instrument.grid.tickSize.toString()}`);
    }
    const pos = venue.accounts.account(acc.accountId)!.positions.get(spec.symbol)?.signedQty ?? 0;
    return ok({
      im: initialMargin(m.instrument, ticks, spec.qty).toFixed(),
      im_pct: m.instrument.initialMarginPct.toFixed(Math.max(1, m.instrument.initialMarginPct.decimalPlaces())),
      mult: m.instrument.multiplier.toFixed(),
      pos,
    });
  });
}
