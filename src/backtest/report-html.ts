import type { BacktestReport, SectionReport } from './report.ts';
import type { BacktestRun } from './runner.ts';
import { GLOSSARY, GLOSSARY_TERMS, type GlossaryKey } from './report-glossary.ts';
import { orderLatencyText, queueModelText } from './report-settings.ts';
import { formatRatio } from './report-stats.ts';
import { off } from './report-stops.ts';
import { bps, pct, usd } from './summary-format.ts';
import { lineChart } from './svg-chart.ts';

const nan = (v: number | null): number => (v === null ? NaN : v);
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Contracts and counts with thousands separators (fixed, locale-free: byte-stable output). */
const int = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
/** Seconds with one decimal. */
const sec = (s: number): string => `${s.toFixed(1)} s`;
/** A fee rate (fraction of notional) in bps. */
const rateBps = (r: number): string => `${(r * 1e4).toFixed(2)} bps`;

/** A table row: label, value, and the glossary entry its tooltip and footnote explain it by. */
type Row = readonly [label: string, value: string, def?: GlossaryKey];

function table(rows: readonly Row[]): string {
  const th = (label: string, def?: GlossaryKey): string => (def ? `<th title="${esc(GLOSSARY[def])}">${esc(label)}</th>` : `<th>${esc(label)}</th>`);
  return `<table>${rows.map(([k, v, d]) => `<tr>${th(k, d)}<td>${esc(v)}</td></tr>`).join('')}</table>`;
}

/** The markout curve (0–120 s after our fills): overall, buys, sells, with the zero line. */
export function markoutChart(title: string, m: SectionReport['markouts']): string {
  const x = m.curve.map((p) => p.horizon_s * 1000);
  return lineChart(title, x, [
    { label: 'zero', color: '#bbb', y: x.map(() => 0) },
    { label: 'all fills', color: '#1f6feb', y: m.curve.map((p) => nan(p.mean_bps)) },
    { label: 'buys', color: '#2da44e', y: m.curve.map((p) => nan(p.buy_bps)) },
    { label: 'sells', color: '#cf222e', y: m.curve.map((p) => nan(p.sell_bps)) },
  ]);
}

/** PnL, fills, inventory, markouts and quoting of one symbol or of the total, in human units. */
function sectionTable(s: SectionReport): string {
  const m = s.markouts;
  const inv = s.inventory;
  return table([
    ['spread capture (USD)', usd(s.pnl.spread_capture), 'spread_capture'],
    ['inventory (USD)', usd(s.pnl.inventory), 'inventory'],
    ['fees (USD)', usd(s.pnl.fees), 'fees'],
    ['funding (USD)', usd(s.pnl.funding), 'funding'],
    ['net (USD)', usd(s.pnl.net), 'net'],
    ['estimated rewards (USD)', usd(s.pnl.estimated_rewards), 'rewards'],
    ['fills', `${int(s.fills.count)} (${int(s.fills.maker)} maker, ${int(s.fills.taker)} taker)`, 'fills'],
    ['maker share', pct(s.fills.maker_share), 'maker_share'],
    ['volume (contracts) / share of the market\'s', `${int(s.fills.volume)} / ${pct(s.fills.volume_share)} of ${int(s.fills.market_volume)}`, 'volume'],
    ['volume from book crossings, not prints (contracts / share)', `${int(s.fills.cross_volume)} / ${pct(s.fills.cross_share)}`, 'cross_share'],
    ['inventory mean |q| / max long / max short / final (contracts)', `${inv.mean_abs.toFixed(1)} / ${int(inv.max_long)} / ${int(inv.max_short)} / ${int(inv.final)}`, 'inventory_stats'],
    ['|inventory| p50 / p95 (contracts)', `${int(inv.p50_abs)} / ${int(inv.p95_abs)}`, 'inventory_pct'],
    ['time at the position limit', inv.position_limit > 0 ? `${pct(inv.time_at_limit)} (limit ${int(inv.position_limit)})` : 'no limit set', 'time_at_limit'],
    ['markout 1 s / 10 s / 60 s (bps, + = good)', `${['1s', '10s', '60s'].map((k) => bps(s.markouts_bps[k])).join(' / ')} (${int(m.measured['60s'] ?? 0)} fills at 60 s)`, 'markouts'],
    ['markout buys / sells 60 s (bps)', `${bps(m.buy_bps['60s'])} / ${bps(m.sell_bps['60s'])}`, 'markouts_side'],
    ['edge at fill vs mid (bps)', bps(m.edge_bps), 'edge'],
    ['quote uptime two-sided / any side', `${pct(s.quoting.uptime_two_sided)} / ${pct(s.quoting.uptime_any_side)}`, 'uptime'],
    ['two-sided inside the reward spread', pct(s.quoting.two_sided_inside_reward_spread), 'reward_spread'],
    ['mean reward share', `${(s.quoting.mean_reward_share * 100).toFixed(2)}% (${s.quoting.scored_minutes} minutes scored)`, 'reward_share'],
  ]);
}

/** Price with our best quotes and fills, and the inventory, of symbol index `k`. */
function symbolCharts(run: BacktestRun, k: number, multi: boolean): string[] {
  const obs = run.observer;
  const ledger = run.exchange.ledgers[k]!;
  const sym = ledger.instrument.symbol;
  const tick = ledger.instrument.grid.tickSize.toNumber();
  const ser = obs.series[k]!;
  const px = (v: number): number => v * tick;
  const fills = run.fills.filter((f) => f.symbol === sym);
  const buys = fills.filter((f) => f.side === 'buy');
  const sells = fills.filter((f) => f.side === 'sell');
  const name = multi ? `${sym}: ` : '';
  return [
    lineChart(
      `${name}Price: mid, our best bid and ask, fills (${sym})`,
      ser.t.toArray(),
      [
        { label: 'mid', color: '#555', y: ser.mid.toArray().map(px) },
        { label: 'our bid', color: '#2da44e', y: ser.quoteBid.toArray().map(px), step: true },
        { label: 'our ask', color: '#cf222e', y: ser.quoteAsk.toArray().map(px), step: true },
      ],
      [
        { label: 'buy fill', color: '#116329', x: buys.map((f) => f.tsExchange), y: buys.map((f) => px(f.priceTicks)), up: true },
        { label: 'sell fill', color: '#82071e', x: sells.map((f) => f.tsExchange), y: sells.map((f) => px(f.priceTicks)), up: false },
      ],
    ),
    lineChart(`${name}Inventory (contracts)`, ser.t.toArray(), [{ label: 'position', color: '#8250df', y: ser.position.toArray(), step: true }]),
  ];
}

/** The value of a series at time `t` (the last sample at or before it; the first one before any). */
function valueAt(ts: readonly number[], ys: readonly number[], t: number): number {
  let i = 0;
  while (i + 1 < ts.length && ts[i + 1]! <= t) i++;
  return ys[i] ?? 0;
}

/** Cumulative PnL over the run, split by source; net is the sum of the first four; kill-switch trips marked. */
function pnlChart(run: BacktestRun, trips: BacktestReport['engine']['kill_switch']['trips']): string {
  const o = run.observer;
  const p = o.pnlParts;
  const ts = o.equityT.toArray();
  const eq = o.equity.toArray();
  const marks = trips.length === 0 ? [] : [{ label: 'kill switch tripped', color: '#000', x: trips.map((k) => k.at_ms), y: trips.map((k) => valueAt(ts, eq, k.at_ms)), up: false }];
  return lineChart('Cumulative PnL by source (USD)', ts, [
    { label: 'net', color: '#1f6feb', y: o.equity.toArray(), bold: true },
    { label: 'spread capture', color: '#2da44e', y: p.spread.toArray() },
    { label: 'inventory', color: '#8250df', y: p.inventory.toArray() },
    { label: 'fees', color: '#cf222e', y: p.fees.toArray() },
    { label: 'funding', color: '#bf8700', y: p.funding.toArray() },
    { label: 'est. rewards (not in net)', color: '#999', y: p.rewards.toArray() },
  ], marks);
}

/** Where the data came from, the limits applied and, in red, every kill-switch trip: above the charts, never hidden. */
function stopsBanner(report: BacktestReport): string {
  const parts: string[] = [];
  const data = report.data.map((d) => `${d.kind} data (${d.origin}; L${d.book_level}; ${d.symbols.join(', ')})`).join('; ');
  parts.push(`<p class="sub" id="provenance">${esc(data)}</p>`);
  const ks = report.engine.kill_switch;
  if (ks.trips.length > 0) {
    const items = ks.trips.map((t) => {
      const until = t.cleared_at_ms === null ? 'to the end of the window' : `until ${new Date(t.cleared_at_ms).toISOString()} (${t.cleared_by ?? ''})`;
      return `<li>${esc(new Date(t.at_ms).toISOString())} (+${((t.at_ms - report.window.start_ms) / 1000).toFixed(1)} s): <b>${esc(t.reason)}</b>: ${esc(t.detail)}; action ${esc(t.action)}; ${esc(until)}</li>`;
    });
    parts.push(
      `<div class="stop" id="kill-switch"><b>Kill switch tripped ${ks.trips.length} time(s): the bot was stopped for ${ks.paused_s.toFixed(1)} s, ${pct(ks.paused_share)} of the window.</b> The figures below cover only the time it quoted.<ul>${items.join('')}</ul></div>`,
    );
  }
  const rejects = Object.entries(report.engine.rejects_by_reason).sort((a, b) => b[1] - a[1]);
  if (rejects.length > 0) parts.push(`<p class="sub" id="rejects">rejects by reason: ${esc(rejects.map(([why, n]) => `${why} ×${n}`).join('; '))}</p>`);
  return parts.join('\n');
}

/** The live limits the replay applied, as table rows. */
function limitRows(l: BacktestReport['limits']): Row[] {
  return [
    ['limits applied (as live): position / order qty / order notional', `${int(l.max_position)} / ${int(l.max_order_qty)} / ${int(l.max_order_notional_usd)} USD`, 'limits'],
    ['kill switch: drawdown / daily loss (USD) / reject storm / orders per minute', `${off(l.kill_switch.max_drawdown_usd)} / ${off(l.kill_switch.max_daily_loss_usd)} / ${l.kill_switch.reject_storm} / ${off(l.kill_switch.max_orders_per_minute)}`, 'kill_switch_limits'],
  ];
}

const STYLE =
  'body{font-family:sans-serif;margin:24px;max-width:1000px;color:#222}table{border-collapse:collapse;margin:8px 0 16px}' +
  'th,td{border:1px solid #ddd;padding:3px 8px;font-size:13px;text-align:left}th{background:#f6f6f6;font-weight:normal}' +
  'th[title]{text-decoration:underline dotted #999;cursor:help}td{font-family:monospace}h2{margin-top:28px}' +
  '.sub{color:#555;font-size:13px}.note{font-size:12px;color:#555}dt{font-weight:bold;font-size:13px;margin-top:6px}dd{font-size:13px;margin-left:16px;color:#333}' +
  '.stop{border:2px solid #cf222e;background:#ffebe9;padding:8px 12px;margin:12px 0;font-size:14px}';

/**
 * report.html: one self-contained page (inline CSS and SVG, no scripts, no external URLs). Charts
 * first (price with our quotes and fills, inventory, cumulative PnL by source, markout curve), then
 * the results, the total's figures, the run's set-up, a section per symbol only when there are
 * several, and the definitions every row's tooltip gives.
 */
export function reportHtml(run: BacktestRun, report: BacktestReport): string {
  const t = report.total;
  const w = report.window;
  const multi = run.exchange.ledgers.length > 1;
  const parts: string[] = [];
  parts.push('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mmbot backtest report</title>');
  parts.push(`<style>${STYLE}</style></head><body>`);
  parts.push('<h1>mmbot backtest report</h1>');
  parts.push(
    `<p class="sub">${esc(report.strategies.map((x) => `${x.id} (${x.symbols.join(' + ')})`).join(', '))} · ${esc(new Date(w.start_ms).toISOString())} → ${esc(new Date(w.end_ms).toISOString())} (${sec(w.duration_s)}) · net ${usd(t.pnl.net)} USD</p>`,
  );
  parts.push(stopsBanner(report));
  run.exchange.ledgers.forEach((_, k) => parts.push(...symbolCharts(run, k, multi)));
  parts.push(pnlChart(run, report.engine.kill_switch.trips));
  parts.push(markoutChart('Markout curve: mid move after our fills (bps, + = good; x = time after the fill)', t.markouts));
  parts.push(`<p class="note">${esc(t.markouts.basis)}</p>`);
  parts.push('<h2>Results</h2>');
  parts.push(
    table([
      ['net PnL (USD)', usd(t.pnl.net), 'net'],
      ['net with estimated rewards (USD)', usd(t.pnl.net_with_rewards), 'rewards'],
      ['Sharpe (one day, from per-minute PnL)', `${formatRatio(t.sharpe, t.pnl_periods)}${t.sharpe === null ? '' : ` (${t.pnl_periods} minutes)`}`, 'sharpe'],
      ['Sortino (one day, from per-minute PnL)', `${formatRatio(t.sortino, t.pnl_periods)}${t.sortino === null ? '' : ` (${t.pnl_periods} minutes)`}`, 'sortino'],
      ['max drawdown (USD) / duration', `${usd(t.max_drawdown_usd)} / ${sec(t.max_drawdown_duration_s)}${t.max_drawdown_recovered ? '' : ' (not recovered)'}`, 'drawdown'],
      ['orders placed / cancels', `${int(t.orders.placed)} / ${int(t.orders.cancels)}`, 'orders'],
      ['fill ratio (fills per order placed)', t.orders.fill_ratio.toFixed(2), 'fill_ratio'],
      ['filled-order share', pct(t.orders.filled_order_share), 'filled_order_share'],
      ['cancel-to-fill (cancels per fill)', t.orders.cancel_to_fill.toFixed(2), 'cancel_to_fill'],
    ]),
  );
  parts.push(multi ? '<h2>Total (all symbols; inventory and quoting of the primary symbol)</h2>' : '<h2>PnL, fills and quoting</h2>', sectionTable(t));
  parts.push('<h2>Run</h2>');
  const s = run.input.settings;
  parts.push(
    table([
      ['events replayed / delivered to the engine', `${int(report.events.replayed)} / ${int(report.events.delivered_to_engine)}`, 'events'],
      ['queue model', queueModelText(s, run.exchange.queueModelName, run.exchange.l3.some((l) => l !== null)), 'queue_model'],
      ['order latency', orderLatencyText(s, report.venue.order_latency, report.venue.recorded_round_trips), 'order_latency'],
      ['fee rates (maker / taker)', Object.entries(report.fees).map(([sym, f]) => `${sym} ${rateBps(f.maker)} / ${rateBps(f.taker)} (${f.source})`).join('; '), 'fee_rates'],
      ...limitRows(report.limits),
      ['venue rate limit / 429 answers', `${report.venue.rate_limit ? `${report.venue.rate_limit.burst} burst, ${report.venue.rate_limit.per_second} per s` : 'off'} / ${int(report.venue.rate_limited_429)}`, 'rate_limit'],
    ]),
  );
  if (multi) {
    for (const [sym, one] of Object.entries(report.by_symbol)) {
      parts.push(`<h2>${esc(sym)}</h2>`, sectionTable(one));
      parts.push(markoutChart(`${sym}: markout curve (bps)`, one.markouts));
    }
  }
  parts.push('<h2>Definitions</h2><dl>');
  for (const k of Object.keys(GLOSSARY) as GlossaryKey[]) parts.push(`<dt>${esc(GLOSSARY_TERMS[k])}</dt><dd>${esc(GLOSSARY[k])}</dd>`);
  parts.push('</dl>');
  parts.push('</body></html>\n');
  return parts.join('\n');
}
