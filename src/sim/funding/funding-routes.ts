import type { Decimal } from '../../core/decimal.ts';
import { resolveAccount, requirePermission } from '../server/access.ts';
import { HttpError, ok, type RouteContext, type Router } from '../server/http-kit.ts';
import { cursorPage, requireParam } from '../md/paging.ts';
import { fundingSlotsReport, wireEstimate } from './funding-estimate.ts';
import { FundingService } from './funding-service.ts';

const dec = (d: Decimal): string => d.toFixed(12);
const rfc3339Ns = (ns: bigint): string => {
  const ms = Number(ns / 1_000_000n);
  const frac = String(ns % 1_000_000_000n).padStart(9, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
};

/** Registers funding REST endpoints and the order-WS `ef` hook. */
export function registerFundingRoutes(router: Router, svc: FundingService): void {
  const venue = svc.venue;
  const perp = (ctx: RouteContext) => {
    const s = requireParam(ctx.query, 'symbol');
    const ins = venue.catalog.get(s);
    if (!ins) throw new HttpError(404, `Symbol ${s} is not available`);
    return ins;
  };

  router.get('/api/funding-rates', (ctx) => {
    const ins = perp(ctx);
    const rows = svc.store.rates.filter((r) => r.symbol === ins.symbol);
    const page = cursorPage(rows, (r) => r.tsNs, (r) => `${r.tsNs}:settlement://${r.symbol}/${r.tsNs}`, ctx.query, 100, 1000);
    return ok({
      funding_rates: page.items.map((r) => ({
        symbol: r.symbol,
        timestamp_ns: Number(r.tsNs),
        funding_rate: dec(r.rate),
        funding_amount: dec(r.amount),
        benchmark_price: dec(r.benchmark),
        settlement_price: dec(r.settlementPrice),
      })),
      ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
      limit: page.limit,
      total_count: page.totalCount,
    });
  });

  router.get('/api/funding-transactions', (ctx) => {
    const access = resolveAccount(venue, ctx.session!, ctx.query.get('account_id') ?? undefined);
    requirePermission(access, 'can_read');
    const symbol = ctx.query.get('symbol');
    const rows = svc.store.txns.filter((t) => t.accountId === access.accountId && (!symbol || t.symbol === symbol));
    const page = cursorPage(rows, (t) => t.tsNs, (t) => `${t.tsNs}:${String(t.seq).padStart(10, '0')}:${t.accountId}`, ctx.query, 100, 1000);
    return ok({
      funding_transactions: page.items.map((t) => ({
        account_id: t.accountId,
        currency: 'USD',
        timestamp: rfc3339Ns(t.tsNs),
        transaction_type: t.type,
        amount: dec(t.amount),
        event_id: t.eventId,
        sequence_number: t.seq,
        reference_id: t.referenceId,
        symbol: t.symbol,
        ...(t.type === 'funding' ? { funding_rate: dec(t.rate!), funding_amount: dec(t.fundingAmount!), benchmark_price: dec(t.benchmark!) } : {}),
        settlement_price: dec(t.settlementPrice),
      })),
      limit: page.limit,
      ...(page.nextCursor ? { next_cursor: page.nextCursor } : {}),
      total_count: page.totalCount,
    });
  });

  router.get('/api/estimated-funding-rate', (ctx) => {
    const ins = perp(ctx);
    if (!ins.estimatedFundingSupported) throw new HttpError(404, 'estimated funding rate is not available for this symbol');
    return ok(wireEstimate(svc, ins, venue.clock.nowMs()));
  });

  router.get('/api/funding-slots', (ctx) => {
    const ins = perp(ctx);
    if (!ins.fundingSchedule) throw new HttpError(404, `${ins.symbol} has no funding schedule`);
    const date = ctx.query.get('date') || FundingService.dateOf(ins, venue.clock.nowMs());
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new HttpError(400, `date must be YYYY-MM-DD, got ${JSON.stringify(date)}`);
    return ok(fundingSlotsReport(svc, ins, date, venue.clock.nowMs()));
  });

  venue.fundingEstimate = (symbol) => {
    const ins = venue.catalog.get(symbol);
    if (!ins || !ins.estimatedFundingSupported) return null;
    return { ...wireEstimate(svc, ins, venue.clock.nowMs()) };
  };
}
