/** Rows and Markdown tables of the real-market benchmark (run-real.ts). Pure. */

/** One backtest of a built-in on a window of a real recording. Money in USD. */
export interface RealRow {
  readonly market: string;
  readonly window: string;
  /** What ran: the strategy, or an ablation's label. */
  readonly label: string;
  readonly netUsd: number;
  /** Fees paid (negative = rebate earned). */
  readonly feesPaidUsd: number;
  readonly spreadCaptureUsd: number;
  readonly inventoryPnlUsd: number;
  readonly fills: number;
  readonly maxDrawdownUsd: number;
  /** Net / max drawdown (a drawdown of 0 counts as 1 cent). */
  readonly netOverDrawdown: number;
  readonly markout10sBps: number | null;
  readonly p95AbsInventory: number;
  readonly estimatedRewardsUsd: number;
  readonly netWithRewardsUsd: number;
  readonly error?: string;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN);

/** Reads a row out of a backtest's report.json. */
export function realRowOf(market: string, window: string, label: string, report: Record<string, any>): RealRow {
  const t = report['total'] ?? {};
  const p = t.pnl ?? {};
  const net = num(p.net);
  const dd = num(t.max_drawdown_usd);
  const m10 = t.markouts_bps?.['10s'];
  return {
    market,
    window,
    label,
    netUsd: net,
    // The report's `fees` is what fees added to PnL (a rebate is positive): paid is its negation.
    feesPaidUsd: -num(p.fees),
    spreadCaptureUsd: num(p.spread_capture),
    inventoryPnlUsd: num(p.inventory),
    fills: num(t.fills?.count),
    maxDrawdownUsd: dd,
    netOverDrawdown: net / Math.max(dd, 0.01),
    markout10sBps: m10 === undefined || m10 === null ? null : num(m10),
    p95AbsInventory: num(t.inventory?.p95_abs),
    estimatedRewardsUsd: num(p.estimated_rewards ?? 0),
    netWithRewardsUsd: num(p.net_with_rewards ?? p.net),
  };
}

const f = (v: number | null, digits = 2): string => (v === null || Number.isNaN(v) ? '–' : v.toFixed(digits));

function table(head: readonly string[], lines: readonly string[]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...lines].join('\n');
}

/** The main table: net, fees, spread capture, inventory PnL, fills, drawdown, net/maxDD per row. */
export function formatRealTable(rows: readonly RealRow[]): string {
  const head = ['market', 'window', 'strategy', 'net USD', 'fees paid USD', 'spread capture USD', 'inventory PnL USD', 'fills', 'max DD USD', 'net/maxDD', 'mk 10s bps', 'p95 \\|inv\\|'];
  return table(
    head,
    rows.map((r) =>
      r.error
        ? `| ${r.market} | ${r.window} | ${r.label} | failed: ${r.error.replace(/\|/g, '/')} |${' |'.repeat(head.length - 4)}`
        : `| ${r.market} | ${r.window} | ${r.label} | ${f(r.netUsd)} | ${f(r.feesPaidUsd)} | ${f(r.spreadCaptureUsd)} | ${f(r.inventoryPnlUsd)} | ${r.fills} | ${f(r.maxDrawdownUsd)} | ${f(r.netOverDrawdown)} | ${f(r.markout10sBps)} | ${f(r.p95AbsInventory, 0)} |`,
    ),
  );
}

/** The fee-schedule table: net without and with the reward program's estimated rewards. */
export function formatRewardTable(rows: readonly RealRow[]): string {
  const head = ['market', 'window', 'strategy', 'net USD', 'fees paid USD', 'est. rewards USD', 'net + rewards USD', 'fills', 'net/maxDD'];
  return table(
    head,
    rows.map((r) =>
      r.error
        ? `| ${r.market} | ${r.window} | ${r.label} | failed: ${r.error.replace(/\|/g, '/')} |${' |'.repeat(head.length - 4)}`
        : `| ${r.market} | ${r.window} | ${r.label} | ${f(r.netUsd)} | ${f(r.feesPaidUsd)} | ${f(r.estimatedRewardsUsd)} | ${f(r.netWithRewardsUsd)} | ${r.fills} | ${f(r.netOverDrawdown)} |`,
    ),
  );
}

/**
 * Per configuration, across the windows of `rows` (hour by hour): the windows it netted > 0, its
 * sum, and in how many windows `reference` netted strictly more than it (paired on the same hour).
 */
export function formatHourlySummary(rows: readonly RealRow[], reference: string, labels: readonly string[]): string {
  const ok = rows.filter((r) => !r.error);
  const byWindow = new Map<string, Map<string, number>>();
  for (const r of ok) (byWindow.get(r.window) ?? byWindow.set(r.window, new Map()).get(r.window)!).set(r.label, r.netUsd);
  const head = ['strategy', 'hours', 'hours net > 0', 'sum of hourly net USD', `hours ${reference} nets more`];
  return table(
    head,
    labels.map((label) => {
      const mine = ok.filter((r) => r.label === label);
      const paired = [...byWindow.values()].filter((w) => w.has(label) && w.has(reference));
      const better = label === reference ? '–' : `${paired.filter((w) => w.get(reference)! > w.get(label)!).length}/${paired.length}`;
      return `| ${label} | ${mine.length} | ${mine.filter((r) => r.netUsd > 0).length} | ${f(mine.reduce((a, r) => a + r.netUsd, 0))} | ${better} |`;
    }),
  );
}
