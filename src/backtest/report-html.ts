import type { BacktestReport, SectionReport } from './report.ts';
import type { BacktestRun } from './runner.ts';
import { formatRatio } from './report-stats.ts';
import { lineChart } from './svg-chart.ts';

const orDash = (v: number | null): string => (v === null ? '—' : String(v));
const nan = (v: number | null): number => (v === null ? NaN : v);

/** The markout curve (0–120 s after our fills): overall, buys, sells, with the zero line. */
export function markoutChart(title: string, m: SectionReport['markouts']): string {
  const x = m.curve.map((p) => p.horizon_s * 1000);
  return lineChart(
    title,
    x,
    [
      { label: 'zero', color: '#bbb', y: x.map(() => 0) },
      { label: 'all fills', color: '#1f6feb', y: m.curve.map((p) => nan(p.mean_bps)) },
      { label: 'buys', color: '#2da44e', y: m.curve.map((p) => nan(p.buy_bps)) },
      { label: 'sells', color: '#cf222e', y: m.curve.map((p) => nan(p.sell_bps)) },
    ],
    [],
    (v) => v.toFixed(3),
  );
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function table(rows: readonly (readonly [string, string | number])[]): string {
  return `<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(String(v))}</td></tr>`).join('')}</table>`;
}

function sectionTable(s: SectionReport): string {
  return table([
    ['spread capture (USD)', s.pnl.spread_capture],
    ['inventory (USD)', s.pnl.inventory],
    ['fees (USD)', s.pnl.fees],
    ['funding (USD)', s.pnl.funding],
    ['net (USD)', s.pnl.net],
    ['estimated rewards (USD)', s.pnl.estimated_rewards],
    ['fills (maker / taker)', `${s.fills.count} (${s.fills.maker} / ${s.fills.taker})`],
    ['maker share', s.fills.maker_share],
    ['volume (contracts) / share of the market\'s', `${s.fills.volume} / ${s.fills.volume_share} of ${s.fills.market_volume}`],
    ['volume from book crossings, not prints (contracts / share)', `${s.fills.cross_volume} / ${s.fills.cross_share}`],
    ['inventory mean |q| / max long / max short / final', `${s.inventory.mean_abs} / ${s.inventory.max_long} / ${s.inventory.max_short} / ${s.inventory.final}`],
    ['|inventory| p50 / p95 (contracts)', `${s.inventory.p50_abs} / ${s.inventory.p95_abs}`],
    ['time at the position limit', `${s.inventory.time_at_limit} (limit ${s.inventory.position_limit})`],
    ['markout 1 s / 10 s / 60 s (bps, + = good)', ['1s', '10s', '60s'].map((k) => orDash(s.markouts_bps[k] ?? null)).join(' / ')],
    ['markout buys / sells 60 s (bps)', `${orDash(s.markouts.buy_bps['60s'] ?? null)} / ${orDash(s.markouts.sell_bps['60s'] ?? null)}`],
    ['edge at fill vs mid (bps)', orDash(s.markouts.edge_bps)],
    ['quote uptime two-sided / any side', `${s.quoting.uptime_two_sided} / ${s.quoting.uptime_any_side}`],
    ['two-sided inside reward spread', s.quoting.two_sided_inside_reward_spread],
    ['mean reward share', s.quoting.mean_reward_share],
  ]);
}

/**
 * report.html: one self-contained page (inline CSS and SVG, no scripts, no external URLs) with the
 * summary, the equity curve and the markout curve, and per symbol the price with our quotes and
 * fills and the inventory (and its markout curve when there are several symbols).
 */
export function reportHtml(run: BacktestRun, report: BacktestReport): string {
  const obs = run.observer;
  const parts: string[] = [];
  parts.push('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mmbot backtest report</title>');
  parts.push('<style>body{font-family:sans-serif;margin:24px;max-width:1000px;color:#222}table{border-collapse:collapse;margin:8px 0 16px}th,td{border:1px solid #ddd;padding:3px 8px;font-size:13px;text-align:left}th{background:#f6f6f6;font-weight:normal}td{font-family:monospace}h2{margin-top:28px}</style></head><body>');
  parts.push('<h1>mmbot backtest report</h1>');
  const t = report.total;
  parts.push(
    table([
      ['window', `${new Date(report.window.start_ms).toISOString()} → ${new Date(report.window.end_ms).toISOString()} (${report.window.duration_s} s)`],
      ['strategies', report.strategies.map((x) => `${x.id} (${x.symbols.join(' + ')})`).join(', ')],
      ['events replayed / delivered to engine', `${report.events.replayed} / ${report.events.delivered_to_engine}`],
      ['queue model / order latency', `${run.exchange.l3.some((l) => l !== null) ? 'l3-fifo (order-level recording)' : run.exchange.queueModelName} / ${report.venue.order_latency === 'recorded' ? `recorded (${report.venue.recorded_round_trips} round trips)` : JSON.stringify(run.input.settings.orderLatency)}`],
      ['fee rates (maker / taker)', Object.entries(report.fees).map(([sym, f]) => `${sym} ${f.maker} / ${f.taker} (${f.source})`).join('; ')],
      ['venue rate limit / 429 answers', `${report.venue.rate_limit ? `${report.venue.rate_limit.burst} burst, ${report.venue.rate_limit.per_second}/s` : 'off'} / ${report.venue.rate_limited_429}`],
      ['net PnL (USD)', t.pnl.net],
      ['net with estimated rewards (USD)', t.pnl.net_with_rewards],
      ['Sharpe (one day, from per-minute PnL)', `${formatRatio(t.sharpe, t.pnl_periods)}${t.sharpe === null ? '' : ` (${t.pnl_periods} minutes)`}`],
      ['Sortino (one day, downside deviation of per-minute PnL)', formatRatio(t.sortino, t.pnl_periods)],
      ['max drawdown (USD) / duration', `${t.max_drawdown_usd} / ${t.max_drawdown_duration_s} s${t.max_drawdown_recovered ? '' : ' (not recovered)'}`],
      ['orders placed / cancels', `${t.orders.placed} / ${t.orders.cancels}`],
      ['fill ratio (fills / placed) / filled-order share / cancel-to-fill', `${t.orders.fill_ratio} / ${t.orders.filled_order_share} / ${t.orders.cancel_to_fill}`],
    ]),
  );
  parts.push('<h2>Total</h2>', sectionTable(t));
  parts.push(lineChart('Equity (net PnL, USD)', obs.equityT, [{ label: 'equity', color: '#1f6feb', y: obs.equity }]));
  parts.push(markoutChart('Markout curve: mid move after our fills (bps, + = good; x = seconds after the fill)', t.markouts));
  parts.push(`<p style="font-size:12px;color:#555">${esc(t.markouts.basis)}</p>`);
  const multi = run.exchange.ledgers.length > 1;
  run.exchange.ledgers.forEach((ledger, k) => {
    const sym = ledger.instrument.symbol;
    const grid = ledger.instrument.grid;
    const tick = grid.tickSize.toNumber();
    const ser = obs.series[k]!;
    const px = (v: number): number => v * tick;
    const fills = run.fills.filter((f) => f.symbol === sym);
    const buys = fills.filter((f) => f.side === 'buy');
    const sells = fills.filter((f) => f.side === 'sell');
    parts.push(`<h2>${esc(sym)}</h2>`, sectionTable(report.by_symbol[sym]!));
    parts.push(
      lineChart(
        `${sym}: mid, our quotes and fills`,
        ser.t,
        [
          { label: 'mid', color: '#555', y: ser.mid.map(px) },
          { label: 'our bid', color: '#2da44e', y: ser.quoteBid.map(px), step: true },
          { label: 'our ask', color: '#cf222e', y: ser.quoteAsk.map(px), step: true },
        ],
        [
          { label: 'buy fill', color: '#116329', x: buys.map((f) => f.tsExchange), y: buys.map((f) => px(f.priceTicks)), up: true },
          { label: 'sell fill', color: '#82071e', x: sells.map((f) => f.tsExchange), y: sells.map((f) => px(f.priceTicks)), up: false },
        ],
        (v) => v.toFixed(grid.decimals),
      ),
    );
    parts.push(lineChart(`${sym}: inventory (contracts)`, ser.t, [{ label: 'position', color: '#8250df', y: ser.position, step: true }], [], (v) => v.toFixed(0)));
    if (multi) parts.push(markoutChart(`${sym}: markout curve (bps)`, report.by_symbol[sym]!.markouts));
  });
  parts.push('</body></html>\n');
  return parts.join('\n');
}
