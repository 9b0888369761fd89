import { Decimal } from '../../core/decimal.ts';
import type { VenuePluginContext } from '../plugin.ts';
import { requirePermission, resolveAccount } from './access.ts';
import { HttpError, ok, type RouteContext } from './http-kit.ts';
import { intParam, pageByCursor, requiredRange, sortParam } from './query-params.ts';
import { asObject } from './request-parse.ts';
import { money, rfc3339Ns, toWireFill } from './wire-out.ts';

/** Portfolio reads (balances, positions, risk, fills, transactions, liquidations) and sandbox funds. */
export function registerPortfolioRoutes({ router, venue }: VenuePluginContext): void {
  const readable = (ctx: RouteContext, requested: unknown) => {
    const acc = resolveAccount(venue, ctx.session!, requested);
    requirePermission(acc, 'can_read');
    return venue.accounts.account(acc.accountId)!;
  };

  router.get('/api/balances', (ctx) => {
    const a = readable(ctx, ctx.query.get('account_id'));
    return ok({ balances: [{ account_id: a.id, symbol: 'USD', amount: money(a.balance) }], usd_borrow: '0' });
  });

  router.get('/api/positions', (ctx) => {
    const a = readable(ctx, ctx.query.get('account_id'));
    const positions = [...a.positions.entries()]
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([symbol, p]) => ({
        account_id: a.id,
        symbol,
        signed_quantity: p.signedQty,
        signed_cost_basis: money(p.costBasis),
        signed_notional: money(p.costBasis),
        timestamp: rfc3339Ns(p.lastFillNs),
        realized_pnl: money(p.realizedPnl),
      }));
    return ok({ positions });
  });

  router.get('/api/risk-snapshot', (ctx) => {
    const a = readable(ctx, ctx.query.get('account_id'));
    const r = venue.risk(a.id)!;
    const per: Record<string, object> = {};
    for (const s of r.perSymbol) {
      const flat = s.signedQty === 0;
      const mm = s.mm;
      per[s.symbol] = {
        signed_quantity: s.signedQty,
        signed_cost_basis: s.costBasis.toFixed(),
        signed_notional: s.costBasis.toFixed(),
        mark_price: s.mark.toFixed(),
        signed_usd_notional: s.signedUsdNotional.toFixed(),
        average_price: s.averagePrice === null ? null : s.averagePrice.toFixed(),
        initial_margin_required_position: s.imPosition.toFixed(),
        initial_margin_required_open_orders: s.imOrders.toFixed(),
        initial_margin_required_total: s.imPosition.plus(s.imOrders).toFixed(),
        maintenance_margin_required: mm.toFixed(),
        unrealized_pnl: s.unrealized.toFixed(),
        liquidation_price: flat ? null : liquidationPrice(r.equity, r.mm, s.signedQty, s.mark).toFixed(),
      };
    }
    return ok({
      risk_snapshot: {
        account_id: a.id,
        timestamp_ns: new Date(venue.clock.nowMs()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        per_symbol: per,
        initial_margin_required_for_positions: r.imPositions.toFixed(),
        initial_margin_required_for_open_orders: r.imOrders.toFixed(),
        initial_margin_required_total: r.imTotal.toFixed(),
        maintenance_margin_required: r.mm.toFixed(),
        unrealized_pnl: r.unrealized.toFixed(),
        equity: r.equity.toFixed(),
        initial_margin_available: r.equity.minus(r.imTotal).toFixed(),
        maintenance_margin_available: r.equity.minus(r.mm).toFixed(),
        balance_usd: r.balance.toFixed(),
      },
    });
  });

  router.get('/api/fills', (ctx) => {
    const q = ctx.query;
    const range = requiredRange(q);
    const a = readable(ctx, q.get('account_id'));
    const symbol = q.get('symbol');
    const rows = a.fills.filter((f) => f.tsNs >= range.start && f.tsNs < range.end && (!symbol || f.symbol === symbol));
    const lim = intParam(q, 'limit', 100, 1000);
    const { page, next } = pageByCursor(rows, (f) => ({ ts: f.tsNs, id: f.tradeId }), sortParam(q), lim, q.get('cursor'));
    return ok({ fills: page.map(toWireFill), limit: lim, total_count: rows.length, ...(next ? { next_cursor: next } : {}) });
  });

  router.get('/api/transactions', (ctx) => {
    const q = ctx.query;
    if (q.getAll('transaction_types').length > 1) throw new HttpError(400, 'transaction_types must be given once, as a comma-separated list');
    const range = requiredRange(q);
    const a = readable(ctx, q.get('account_id'));
    const types = (q.get('transaction_types') ?? '').split(',').filter((t) => t !== '');
    const rows = a.ledger.filter((e) => e.tsNs >= range.start && e.tsNs < range.end && (types.length === 0 || types.includes(e.type)));
    const lim = intParam(q, 'limit', 100, 1000);
    const { page, next } = pageByCursor(rows, (e) => ({ ts: e.tsNs, id: String(e.seq).padStart(12, '0') }), sortParam(q), lim, q.get('cursor'));
    return ok({
      transactions: page.map((e) => ({
        account_id: e.accountId,
        event_id: e.eventId,
        symbol: e.symbol,
        timestamp: rfc3339Ns(e.tsNs),
        amount: money(e.amount),
        transaction_type: e.type,
        reference_id: e.referenceId,
        initiated_by_user_id: e.initiatedByUserId,
      })),
      ...(next ? { next_cursor: next } : {}),
      limit: lim,
      total_count: rows.length,
    });
  });

  router.get('/api/liquidations', (ctx) => {
    const q = ctx.query;
    const range = requiredRange(q);
    const a = readable(ctx, q.get('account_id'));
    const rows = (a.liquidations.toArray() as { tsNs?: bigint }[]).filter((l) => l.tsNs === undefined || (l.tsNs >= range.start && l.tsNs < range.end));
    const lim = intParam(q, 'limit', 100, 1000);
    return ok({ liquidations: rows.slice(0, lim).map(({ tsNs: _t, ...rest }) => rest), limit: lim, total_count: rows.length });
  });

  const funds = (kind: 'deposit' | 'withdrawal') => (ctx: RouteContext) => {
    const b = asObject(ctx.body);
    const acc = resolveAccount(venue, ctx.session!, b['account_id']);
    requirePermission(acc, 'can_trade');
    if (b['symbol'] !== 'USD') throw new HttpError(400, 'symbol must be USD');
    if (typeof b['amount'] !== 'string' || !/^[0-9]+(\.[0-9]+)?$/.test(b['amount']) || new Decimal(b['amount']).lte(0)) throw new HttpError(400, 'amount must be a positive decimal string');
    const amt = new Decimal(b['amount']);
    const a = venue.accounts.account(acc.accountId)!;
    if (kind === 'withdrawal') {
      const r = venue.risk(a.id)!;
      if (amt.gt(r.equity.minus(r.imTotal))) throw new HttpError(400, 'amount exceeds the available balance');
    }
    const e = venue.accounts.post(a.id, 'USD', kind === 'deposit' ? amt : amt.neg(), kind, `sandbox://${kind}`, ctx.session!.userId);
    return ok({ account_id: a.id, symbol: 'USD', amount: money(e.amount), balance: money(a.balance) });
  };
  router.post('/api/sandbox/deposit', funds('deposit'));
  router.post('/api/sandbox/withdraw', funds('withdrawal'));
}

/** Price at which equity would fall to maintenance margin if only this symbol moved (approximation). */
function liquidationPrice(equity: Decimal, mm: Decimal, qty: number, mark: Decimal): Decimal {
  const px = mark.minus(equity.minus(mm).div(qty));
  return Decimal.max(px, 0);
}
