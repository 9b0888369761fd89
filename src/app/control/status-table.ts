/** The subset of GET /api/v1/state the status table reads. */
export interface StatusState {
  readonly running: boolean;
  readonly killSwitch: { readonly tripped: boolean; readonly reason: string | null; readonly detail: string | null };
  readonly connections: Record<string, boolean>;
  readonly strategies: readonly { readonly id: string; readonly strategy: string; readonly paused: boolean; readonly operatorReason: string; readonly error: string | null; readonly params: Record<string, unknown> }[];
  readonly symbols: readonly {
    readonly symbol: string;
    readonly strategyId: string;
    readonly bestBid: string | null;
    readonly bestAsk: string | null;
    readonly quotes: { readonly bids: readonly { price: string | null; qty: number }[]; readonly asks: readonly { price: string | null; qty: number }[] };
    readonly working: readonly unknown[];
    readonly position: { readonly qty: number; readonly avgPrice: string | null };
    readonly pnl: { readonly total: string; readonly fees: string; readonly funding: string };
    readonly tradingState: string;
    readonly tradingReason: string;
    /** Whole seconds the symbol should have quoted with no order at the venue (0: quoting or not expected to); absent from older daemons. */
    readonly noQuotesForS?: number | null;
  }[];
  readonly pnl: { readonly total: string; readonly fees: string; readonly funding: string; readonly rewards: string };
  readonly counters: { readonly fills: number };
  readonly execution: { readonly budgets: readonly { readonly name: string; readonly available: number; readonly ratePerSec: number; readonly configuredPerSec: number }[] };
  readonly alerts?: readonly { readonly tsMs: number; readonly level: string; readonly text: string }[];
}

/** A gap shorter than this is a requote or a reconnect, not worth a word in the table. */
const NO_QUOTES_SHOWN_AFTER_S = 10;

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd());
}

/** `mmbot status`'s compact view of a daemon: one row per strategy symbol, then totals, budgets and alerts. */
export function formatStatusTable(s: StatusState, url: string): string {
  const lines: string[] = [];
  const conns = Object.entries(s.connections).map(([k, v]) => `${k} ${v ? 'up' : 'DOWN'}`).join(', ') || 'no streams yet';
  const kill = s.killSwitch.tripped ? `KILL SWITCH TRIPPED: ${s.killSwitch.reason ?? '?'} ${s.killSwitch.detail ?? ''}`.trimEnd() : 'kill switch armed';
  lines.push(`mmbot at ${url}: ${s.running ? 'running' : 'STOPPED'}; ${kill}; ${conns}`);
  const rows: string[][] = [['STRATEGY', 'SYMBOL', 'STATE', 'BOOK', 'QUOTES (best bid / ask)', 'ORDERS', 'POSITION', 'PNL USD']];
  for (const sym of s.symbols) {
    const st = s.strategies.find((x) => x.id === sym.strategyId);
    // ACTIVE with nothing at the venue for a while is not "active": say so (issue 35 #8).
    const silent = sym.noQuotesForS ?? 0;
    const active = silent >= NO_QUOTES_SHOWN_AFTER_S ? `ACTIVE, NO QUOTES for ${silent} s` : 'active';
    const state = st?.error ? 'ERROR' : sym.tradingState === 'ACTIVE' ? active : `${sym.tradingState.toLowerCase()}${sym.tradingReason ? ` (${sym.tradingReason})` : ''}`;
    const b = sym.quotes.bids[0];
    const a = sym.quotes.asks[0];
    const quotes = b || a ? `${b ? `${b.qty}@${b.price}` : '-'} / ${a ? `${a.qty}@${a.price}` : '-'}` : '-';
    const pos = sym.position.qty === 0 ? 'flat' : `${sym.position.qty > 0 ? '+' : ''}${sym.position.qty}${sym.position.avgPrice ? `@${sym.position.avgPrice}` : ''}`;
    rows.push([sym.strategyId, sym.symbol, state, `${sym.bestBid ?? '-'} / ${sym.bestAsk ?? '-'}`, quotes, String(sym.working.length), pos, sym.pnl.total]);
  }
  lines.push(...table(rows));
  lines.push(`total pnl ${s.pnl.total} USD (fees ${s.pnl.fees}, funding ${s.pnl.funding}, rewards ${s.pnl.rewards}); ${s.counters.fills} fills`);
  const budgets = s.execution.budgets.map((b) => `${b.name} ${Math.floor(b.available)} left, ${b.ratePerSec.toFixed(1)}/${b.configuredPerSec.toFixed(1)} per s`);
  if (budgets.length) lines.push(`rate budget: ${budgets.join('; ')}`);
  for (const st of s.strategies) if (st.error) lines.push(`! ${st.id}: ${st.error}`);
  const alerts = (s.alerts ?? []).slice(-3);
  for (const a of alerts) lines.push(`${new Date(a.tsMs).toISOString().slice(11, 19)} ${a.level.toUpperCase()} ${a.text}`);
  return lines.join('\n');
}
