import type { Decimal } from '../core/decimal.ts';
import type { RewardLedger } from './fetch-all.ts';
import { totalsByStatus, trendByDay, utcDay, type DayTotal } from './ledger.ts';
import { statusLabel, type RewardQuery } from './types.ts';

/** USD as the report prints it (6 decimals, like the venue). */
export const fmtUsd = (d: Decimal): string => d.toFixed(6);

/** The `mmbot rewards --json` document. Money as decimal strings. */
export interface RewardReportJson {
  readonly query: RewardQuery;
  readonly window: { readonly minDay: string | null; readonly maxDay: string | null };
  readonly symbols: readonly string[];
  readonly totalCount: number;
  readonly summary: { readonly accruedTodayUsd: string; readonly awaitingApprovalUsd: string; readonly paidThisMonthUsd: string; readonly retainedUsd: string };
  readonly totalsByStatus: Readonly<Record<string, string>>;
  readonly totalUsd: string;
  readonly trend: readonly { readonly day: string; readonly finalUsd: string; readonly count: number; readonly byStatus: Readonly<Record<string, string>> }[];
  readonly accruals: readonly {
    readonly id: string;
    readonly epochStart: string;
    readonly epochEnd: string;
    readonly symbol: string;
    readonly accountShare: string;
    readonly rawUsd: string;
    readonly capAdjustmentUsd: string;
    readonly finalUsd: string;
    readonly status: string;
  }[];
}

/** Builds the report document from a fetched ledger. */
export function buildRewardReport(ledger: RewardLedger, query: RewardQuery): RewardReportJson {
  const totals = totalsByStatus(ledger.accruals);
  let total = [...totals.values()].reduce((a, b) => a.plus(b));
  // Retained rewards are forfeited: they are not part of what the account earns.
  total = total.minus(totals.get('retained')!);
  return {
    query,
    window: ledger.window,
    symbols: ledger.symbols,
    totalCount: ledger.totalCount,
    summary: {
      accruedTodayUsd: fmtUsd(ledger.summary.accruedTodayUsd),
      awaitingApprovalUsd: fmtUsd(ledger.summary.awaitingApprovalUsd),
      paidThisMonthUsd: fmtUsd(ledger.summary.paidThisMonthUsd),
      retainedUsd: fmtUsd(ledger.summary.retainedUsd),
    },
    totalsByStatus: Object.fromEntries([...totals].map(([k, v]) => [k, fmtUsd(v)])),
    totalUsd: fmtUsd(total),
    trend: trendByDay(ledger.accruals).map((d: DayTotal) => ({
      day: d.day,
      finalUsd: fmtUsd(d.finalUsd),
      count: d.count,
      byStatus: Object.fromEntries([...d.byStatus].map(([k, v]) => [k, fmtUsd(v)])),
    })),
    accruals: ledger.accruals.map((a) => ({
      id: a.id,
      epochStart: new Date(a.epochStartMs).toISOString(),
      epochEnd: new Date(a.epochEndMs).toISOString(),
      symbol: a.symbol,
      accountShare: a.accountShare.toFixed(6),
      rawUsd: fmtUsd(a.rawUsd),
      capAdjustmentUsd: fmtUsd(a.capAdjustmentUsd),
      finalUsd: fmtUsd(a.finalUsd),
      status: statusLabel(a.status),
    })),
  };
}

/** Renders rows as an aligned text table; `right` marks right-aligned (numeric) columns. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The human-readable report: filters, accruals (up to `maxRows`), totals by status, venue summary, per-day trend. */
export function formatRewardReport(r: RewardReportJson, maxRows = 50): string {
  const out: string[] = [];
  const f = r.query;
  const filters = [
    f.symbol ? `symbol=${f.symbol}` : null,
    f.status ? `status=${f.status}` : null,
    f.startDate ? `from=${f.startDate}` : null,
    f.endDate ? `to=${f.endDate}` : null,
  ].filter((x) => x !== null);
  out.push(`Reward accruals: ${r.totalCount} row(s)${filters.length ? ` (${filters.join(', ')})` : ''}`);
  out.push(`Ledger window: ${r.window.minDay ?? '-'} .. ${r.window.maxDay ?? '-'}; symbols: ${r.symbols.length ? r.symbols.join(', ') : '-'}`);
  out.push('');
  if (r.accruals.length === 0) out.push('No accruals match.');
  else {
    const shown = r.accruals.slice(0, maxRows);
    out.push(
      renderTable(
        ['epoch start (UTC)', 'end', 'symbol', 'share', 'raw usd', 'cap adj usd', 'final usd', 'status'],
        shown.map((a) => [a.epochStart.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''), a.epochEnd.slice(11, 19), a.symbol, a.accountShare, a.rawUsd, a.capAdjustmentUsd, a.finalUsd, a.status]),
        new Set([3, 4, 5, 6]),
      ),
    );
    if (r.accruals.length > shown.length) out.push(`... ${r.accruals.length - shown.length} more (use --json for all)`);
  }
  out.push('', 'Totals by status (final usd):');
  out.push(renderTable(['status', 'usd'], Object.entries(r.totalsByStatus).map(([k, v]) => [k, v]), new Set([1])));
  out.push(`earned (all but retained): ${r.totalUsd}`);
  out.push('', 'Venue summary:');
  out.push(
    renderTable(
      ['accrued today', 'awaiting approval', 'paid this month', 'retained'],
      [[r.summary.accruedTodayUsd, r.summary.awaitingApprovalUsd, r.summary.paidThisMonthUsd, r.summary.retainedUsd]],
      new Set([0, 1, 2, 3]),
    ),
  );
  out.push('', 'Per-day trend (final usd by epoch day):');
  if (r.trend.length === 0) out.push('(none)');
  else {
    const statuses = [...new Set(r.trend.flatMap((d) => Object.keys(d.byStatus)))];
    out.push(
      renderTable(
        ['day', 'rows', 'final usd', ...statuses],
        r.trend.map((d) => [d.day, String(d.count), d.finalUsd, ...statuses.map((s) => d.byStatus[s] ?? '0.000000')]),
        new Set([1, 2, ...statuses.map((_, i) => 3 + i)]),
      ),
    );
  }
  return out.join('\n');
}

/** True for a real YYYY-MM-DD calendar date. */
export const isIsoDate = (s: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && utcDay(Date.parse(`${s}T00:00:00Z`)) === s;
