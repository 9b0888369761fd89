import type { HedgeFigures } from './net-delta.ts';
import type { Leg } from './scenarios.ts';

/** One line of the strategy benchmark. Money in USD, markouts in bps (positive = good for us). */
export interface BenchRow {
  readonly preset: string;
  readonly strategy: string;
  readonly symbol: string;
  readonly netUsd: number;
  readonly maxDrawdownUsd: number;
  /** Net PnL / max drawdown (a drawdown of 0 counts as 1 cent). */
  readonly pnlOverDrawdown: number;
  readonly p95AbsInventory: number;
  readonly fills: number;
  readonly markout1sBps: number | null;
  readonly markout10sBps: number | null;
  readonly markout60sBps: number | null;
  /** Mean estimated share of the reward program's score while quoting, in [0, 1]. */
  readonly rewardShare: number;
  readonly hedgeCostUsd: number | null;
  /** Share of the time the net delta stayed inside the hedge band (hedged strategies only). */
  readonly inBandShare: number | null;
  readonly error?: string;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);
const opt = (v: unknown): number | null => (v === undefined || v === null ? null : num(v));

/** Reads the figures the table shows out of a backtest's report.json. */
export function rowOf(preset: string, leg: Leg, report: Record<string, any>, hedge: HedgeFigures | null = null): BenchRow {
  const t = report['total'] ?? {};
  // Inventory, fills and reward share of the quoted leg (the report's total shows the first recorded symbol's).
  const leg0 = report['by_symbol']?.[leg.symbols[0]!] ?? t;
  const net = num(t.pnl?.net);
  const dd = num(t.max_drawdown_usd);
  const m = t.markouts_bps ?? {};
  const pick = (h: string): number | null => {
    const v = m[h];
    return v === undefined || v === null ? null : typeof v === 'object' ? opt(v.mean ?? v.all ?? v.overall) : num(v);
  };
  return {
    preset,
    strategy: leg.strategy,
    symbol: leg.symbols.join('+'),
    netUsd: net,
    maxDrawdownUsd: dd,
    pnlOverDrawdown: net / Math.max(dd, 0.01),
    p95AbsInventory: num(leg0.inventory?.p95_abs),
    fills: num(t.fills?.count),
    markout1sBps: pick('1s'),
    markout10sBps: pick('10s'),
    markout60sBps: pick('60s'),
    rewardShare: num(leg0.quoting?.mean_reward_share ?? 0),
    hedgeCostUsd: t.hedges && t.hedges.sent > 0 ? num(t.hedges.cost_usd) : (hedge?.hedgeCostUsd ?? null),
    inBandShare: hedge?.inBandShare ?? null,
  };
}

const f = (v: number | null, digits = 2): string => (v === null || Number.isNaN(v) ? '–' : v.toFixed(digits));

/** A Markdown table, grouped by preset. */
export function formatTable(rows: readonly BenchRow[]): string {
  const head = ['preset', 'strategy', 'symbol', 'net USD', 'PnL/maxDD', 'p95 \\|inv\\|', 'fills', 'mk 1s', 'mk 10s', 'mk 60s', 'reward share', 'hedge cost USD', 'Δ in band'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) {
    if (r.error) {
      lines.push(`| ${r.preset} | ${r.strategy} | ${r.symbol} | failed: ${r.error.replace(/\|/g, '/')} |${' |'.repeat(head.length - 4)}`);
      continue;
    }
    lines.push(
      `| ${r.preset} | ${r.strategy} | ${r.symbol} | ${f(r.netUsd)} | ${f(r.pnlOverDrawdown)} | ${f(r.p95AbsInventory, 0)} | ${r.fills} | ${f(r.markout1sBps)} | ${f(r.markout10sBps)} | ${f(r.markout60sBps)} | ${f(r.rewardShare, 3)} | ${f(r.hedgeCostUsd)} | ${r.inBandShare === null ? '–' : `${(r.inBandShare * 100).toFixed(1)}%`} |`,
    );
  }
  return lines.join('\n');
}
