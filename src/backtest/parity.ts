import type { OwnExecution, RoundTripOp } from '../record/format.ts';
import { KIND } from '../record/format.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import { ASK, BID, DenseBook } from './dense-book.ts';
import { MarkoutTracker } from '../strategy/estimators/markout-tracker.ts';
import { HEADLINE_HORIZONS } from './fill-markouts.ts';
import { feeSchedule, SymbolLedger } from './ledger.ts';
import type { BacktestRun } from './runner.ts';

/** The figures compared live vs replay (USD as numbers rounded to 6 decimals; markouts in bps). */
export interface ParityFigures {
  readonly fills: number;
  readonly maker_fills: number;
  readonly volume: number;
  readonly notional_usd: number;
  readonly spread_capture_usd: number;
  readonly inventory_pnl_usd: number;
  readonly fees_usd: number;
  /** Notional-weighted mean markout per horizon (MarkoutTracker): side × (mid(t + h) − mid(t)) / mid(t), bps; null when none matured. */
  readonly markouts_bps: Readonly<Record<string, number | null>>;
}

/** One figure side by side: difference = replay − live; divergence = difference / |live| (null when live is 0 and replay is not). */
export interface ParityRow {
  readonly figure: string;
  readonly live: number;
  readonly replay: number;
  readonly difference: number;
  readonly divergence: number | null;
}

/** report.json `parity`. */
export interface ParityReport {
  readonly live: ParityFigures;
  readonly replay: ParityFigures;
  readonly rows: readonly ParityRow[];
  /** The figures held to `tolerance` (relative), and whether they all are within it. */
  readonly checked: readonly string[];
  readonly tolerance: number;
  readonly within_tolerance: boolean;
  /** The live run's measured round trips (ms) per request kind: count, p50, p90. */
  readonly live_round_trips: Readonly<Record<string, { count: number; p50_ms: number; p90_ms: number }>>;
  readonly order_latency: 'recorded' | 'model';
}

/**
 * Figures held to the tolerance by default: what a user checks first. Spread capture is held per
 * contract: its total also moves with the fill count, which `fills` already holds, so a 18 % fill
 * gap read as a 26 % spread gap; per contract it measures the edge the replay books on each fill.
 */
export const PARITY_CHECKED: readonly string[] = ['fills', 'spread_capture_per_contract_usd'];

const r6 = (x: number): number => (Number.isFinite(x) ? Number(x.toFixed(6)) : 0);

/** The recording's mid path per symbol (exchange time, ticks), rebuilt from its book rows. */
export class MidPath {
  readonly t: number[][];
  readonly mid: number[][];

  constructor(col: ColumnarRecording) {
    const books = col.instruments.map((_, s) => new DenseBook(col.minTick[s]!, col.maxTick[s]!, 64));
    this.t = col.instruments.map(() => []);
    this.mid = col.instruments.map(() => []);
    let xt = -Infinity;
    for (let i = 0; i < col.length; i++) {
      const k = col.kind[i];
      if (k !== KIND.bookDelta && k !== KIND.bookSnapshot) continue;
      const s = col.sym[i]!;
      const book = books[s]!;
      const start = col.a[i]!;
      const nb = col.b[i]!;
      const na = col.c[i]!;
      if (k === KIND.bookSnapshot) book.load(col.levels, start, nb, na);
      else for (let j = start; j < start + nb + na; j++) book.set(j - start < nb ? BID : ASK, col.levels[2 * j]!, col.levels[2 * j + 1]!);
      // Exchange time as the runner clamps it: monotone, never after receipt.
      xt = Math.max(xt, Math.min(col.tsEvent[i]!, col.tsRecv[i]!));
      const m = (book.bestBid() + book.bestAsk()) / 2;
      if (!Number.isFinite(m)) continue;
      const ts = this.t[s]!;
      const ms = this.mid[s]!;
      if (ts.length > 0 && ts[ts.length - 1] === xt) ms[ms.length - 1] = m;
      else if (ms.length === 0 || ms[ms.length - 1] !== m) {
        ts.push(xt);
        ms.push(m);
      }
    }
  }

  /** Mid of symbol `s` as of just before `t` (the book the match met), NaN before the first book. */
  before(s: number, t: number): number {
    return this.#at(s, t, true);
  }

  /** Mid of symbol `s` at `t` (changes at t included). */
  at(s: number, t: number): number {
    return this.#at(s, t, false);
  }

  #at(s: number, t: number, strict: boolean): number {
    const ts = this.t[s]!;
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const m = (lo + hi) >>> 1;
      if (strict ? ts[m]! < t : ts[m]! <= t) lo = m + 1;
      else hi = m;
    }
    return lo === 0 ? NaN : this.mid[s]![lo - 1]!;
  }
}

interface FillLike {
  readonly sym: number;
  readonly side: 'buy' | 'sell';
  readonly priceTicks: number;
  readonly qty: number;
  readonly tsExchange: number;
}

/**
 * Notional-weighted mean markouts per headline horizon (report.json's `markouts_bps` keys) of
 * `fills`, with the shared `MarkoutTracker` (strategy/estimators) over the recorded mid path:
 * side × (mid(t + h) − mid(t)) / mid(t), bps; mid(t) is the mid just before the fill. Markouts
 * that have not matured by the end of the recording are left out (null when none matured).
 */
export function markoutsBps(fills: readonly FillLike[], path: MidPath, unitUsd: readonly number[], endMs: number): Record<string, number | null> {
  const horizons = HEADLINE_HORIZONS.map((h) => h.ms);
  const trackers = path.t.map(() => new MarkoutTracker({ horizonsMs: horizons }));
  const sorted = [...fills].sort((a, b) => a.tsExchange - b.tsExchange);
  const cursor = path.t.map(() => 0);
  const feed = (s: number, until: number): void => {
    const ts = path.t[s]!;
    const ms = path.mid[s]!;
    const tr = trackers[s]!;
    let k = cursor[s]!;
    for (; k < ts.length && ts[k]! < until; k++) tr.updateMid(ts[k]!, ms[k]!);
    cursor[s] = k;
  };
  for (const f of sorted) {
    feed(f.sym, f.tsExchange);
    trackers[f.sym]!.fill(f.tsExchange, f.side, f.priceTicks, f.priceTicks * f.qty * unitUsd[f.sym]!, path.before(f.sym, f.tsExchange));
  }
  const out: Record<string, number | null> = {};
  HEADLINE_HORIZONS.forEach((h, k) => {
    let w = 0;
    let sum = 0;
    trackers.forEach((tr, s) => {
      feed(s, endMs);
      tr.advance(endMs + 1e-9);
      const st = tr.stats(k);
      w += st.weight;
      sum += st.weightedSumBps;
    });
    out[h.key] = w > 0 ? r6(sum / w) : null;
  });
  return out;
}

/** The live run's fills (`x` lines of kind filled), in venue-time order. */
export function liveFills(col: ColumnarRecording): (OwnExecution & { readonly fill: NonNullable<OwnExecution['fill']> })[] {
  const out = col.session.filter((e): e is OwnExecution & { fill: NonNullable<OwnExecution['fill']> } => e.type === 'execution' && e.kind === 'filled' && e.fill !== null);
  return out.sort((a, b) => a.tsEvent - b.tsEvent);
}

function figures(ledgers: readonly SymbolLedger[], marks: readonly number[], markouts: Record<string, number | null>): ParityFigures {
  let fills = 0;
  let maker = 0;
  let volume = 0;
  let notional = 0;
  let spread = 0;
  let inventory = 0;
  let fees = 0;
  ledgers.forEach((l, k) => {
    fills += l.makerFills + l.takerFills;
    maker += l.makerFills;
    volume += l.volume;
    notional += l.notional.toNumber();
    const sc = l.spreadCapture.toNumber();
    spread += sc;
    inventory += l.tradingPnl(marks[k]!).toNumber() - sc;
    fees += l.fees.toNumber();
  });
  return { fills, maker_fills: maker, volume, notional_usd: r6(notional), spread_capture_usd: r6(spread), inventory_pnl_usd: r6(inventory), fees_usd: r6(fees), markouts_bps: markouts };
}

const divergence = (live: number, replay: number): number | null => (live === 0 ? (replay === 0 ? 0 : null) : r6((replay - live) / Math.abs(live)));

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * Live vs replay for a recording made by `mmbot run` while it traded: the live fills (`x` lines, the
 * ground truth) are booked into the same ledger the replay exchange uses, with the mid of the same
 * recorded book at their venue time, the same fee rates and the same closing mark, so every figure
 * is computed one way for both sides.
 */
export function parityReport(run: BacktestRun, tolerance = 0.2, checked: readonly string[] = PARITY_CHECKED): ParityReport {
  const col = run.input.data;
  const path = new MidPath(col);
  const symIdx = new Map(col.instruments.map((inst, s) => [inst.symbol as string, s]));
  const newLedgers = () =>
    col.instruments.map((inst) => {
      const f = run.fees[inst.symbol]!;
      return new SymbolLedger(inst, feeSchedule(f.maker, f.taker));
    });
  const ledgers = newLedgers();
  const live: FillLike[] = [];
  for (const x of liveFills(col)) {
    const s = symIdx.get(x.symbol);
    if (s === undefined) continue;
    ledgers[s]!.fill(x.side, x.fill.priceTicks, x.fill.qty, x.fill.aggressor, path.before(s, x.tsEvent));
    live.push({ sym: s, side: x.side, priceTicks: x.fill.priceTicks, qty: x.fill.qty, tsExchange: x.tsEvent });
  }
  const marks = run.exchange.ledgers.map((_, k) => run.observer.series[k]!.mid.at(-1) ?? NaN);
  const endMs = col.length > 0 ? Math.max(col.tsEvent[col.length - 1]!, run.endMs) : run.endMs;
  const replayFills: FillLike[] = run.fills.map((f) => ({ sym: symIdx.get(f.symbol)!, side: f.side, priceTicks: f.priceTicks, qty: f.qty, tsExchange: f.tsExchange }));
  // The replay's fills are booked the same way, at the recorded mid just before their venue time:
  // the exchange's own booking used the book as the replay had it (a frame at the fill's instant
  // before a print moved it), which is not the mid live fills are measured against.
  const replayLedgers = newLedgers();
  for (const f of run.fills) {
    const s = symIdx.get(f.symbol)!;
    replayLedgers[s]!.fill(f.side, f.priceTicks, f.qty, f.aggressor, path.before(s, f.tsExchange));
  }
  const units = run.exchange.ledgers.map((l) => l.unit.toNumber());
  const L = figures(ledgers, marks, markoutsBps(live, path, units, endMs));
  const R = figures(replayLedgers, marks, markoutsBps(replayFills, path, units, endMs));
  const rows: ParityRow[] = [];
  for (const key of ['fills', 'maker_fills', 'volume', 'notional_usd', 'spread_capture_usd', 'inventory_pnl_usd', 'fees_usd'] as const)
    rows.push({ figure: key, live: L[key], replay: R[key], difference: r6(R[key] - L[key]), divergence: divergence(L[key], R[key]) });
  const perContract = (x: { spread_capture_usd: number; volume: number }): number => (x.volume > 0 ? Number((x.spread_capture_usd / x.volume).toPrecision(6)) : 0);
  const [lp, rp] = [perContract(L), perContract(R)];
  rows.push({ figure: 'spread_capture_per_contract_usd', live: lp, replay: rp, difference: Number((rp - lp).toPrecision(6)), divergence: divergence(lp, rp) });
  for (const h of Object.keys(L.markouts_bps)) {
    const l = L.markouts_bps[h] ?? null;
    const r = R.markouts_bps[h] ?? null;
    // A horizon nobody's fills reached is no figure to compare.
    if (l !== null || r !== null) rows.push({ figure: `markout_${h}_bps`, live: l ?? 0, replay: r ?? 0, difference: r6((r ?? 0) - (l ?? 0)), divergence: l === null || r === null ? null : divergence(l, r) });
  }
  const within = checked.every((c) => {
    const row = rows.find((r) => r.figure === c);
    return row !== undefined && row.divergence !== null && Math.abs(row.divergence) <= tolerance;
  });
  const byOp = new Map<RoundTripOp, number[]>();
  for (const e of col.session) if (e.type === 'round-trip') (byOp.get(e.op) ?? byOp.set(e.op, []).get(e.op)!).push(e.ms);
  const rts: Record<string, { count: number; p50_ms: number; p90_ms: number }> = {};
  for (const [op, list] of [...byOp].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...list].sort((a, b) => a - b);
    rts[op] = { count: sorted.length, p50_ms: r6(percentile(sorted, 0.5)), p90_ms: r6(percentile(sorted, 0.9)) };
  }
  return { live: L, replay: R, rows, checked, tolerance, within_tolerance: within, live_round_trips: rts, order_latency: run.latency.source };
}

/** The side-by-side table as fixed-width text (the CLI prints it). */
export function parityTable(p: ParityReport): string {
  const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(4));
  const rows = p.rows.map((r) => [r.figure, fmt(r.live), fmt(r.replay), fmt(r.difference), r.divergence === null ? 'n/a' : `${(r.divergence * 100).toFixed(1)}%`, p.checked.includes(r.figure) ? (r.divergence !== null && Math.abs(r.divergence) <= p.tolerance ? 'ok' : 'BEYOND') : '']);
  const head = ['figure', 'live', 'replay', 'difference', 'divergence', `±${(p.tolerance * 100).toFixed(0)}%`];
  const w = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: readonly string[]): string => cells.map((x, c) => (c === 0 ? x.padEnd(w[c]!) : x.padStart(w[c]!))).join('  ').trimEnd();
  const rt = Object.entries(p.live_round_trips).map(([op, s]) => `${op} ${s.count}× p50 ${s.p50_ms.toFixed(2)} ms p90 ${s.p90_ms.toFixed(2)} ms`).join('; ');
  return [
    line(head),
    line(w.map((n) => '-'.repeat(n))),
    ...rows.map(line),
    `order latency: ${p.order_latency}${rt ? ` (live round trips: ${rt})` : ''}`,
    `parity ${p.within_tolerance ? 'within' : 'BEYOND'} ±${(p.tolerance * 100).toFixed(0)}% on ${p.checked.join(', ')}`,
  ].join('\n');
}

/** parity.html: the table as a self-contained page (no scripts, no external URLs). */
export function parityHtml(p: ParityReport): string {
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const cell = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(4));
  const rows = p.rows
    .map((r) => {
      const div = r.divergence === null ? 'n/a' : `${(r.divergence * 100).toFixed(1)}%`;
      const bad = p.checked.includes(r.figure) && (r.divergence === null || Math.abs(r.divergence) > p.tolerance);
      return `<tr><th>${esc(r.figure)}</th><td>${cell(r.live)}</td><td>${cell(r.replay)}</td><td>${cell(r.difference)}</td><td${bad ? ' style="color:#cf222e"' : ''}>${div}</td></tr>`;
    })
    .join('\n');
  const rts = Object.entries(p.live_round_trips)
    .map(([op, s]) => `<tr><th>${esc(op)}</th><td>${s.count}</td><td>${s.p50_ms.toFixed(3)}</td><td>${s.p90_ms.toFixed(3)}</td></tr>`)
    .join('\n');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mmbot parity: live vs replay</title>',
    '<style>body{font-family:sans-serif;margin:24px;max-width:900px;color:#222}table{border-collapse:collapse;margin:8px 0 16px}th,td{border:1px solid #ddd;padding:3px 8px;font-size:13px;text-align:left}th{background:#f6f6f6;font-weight:normal}td{font-family:monospace;text-align:right}</style></head><body>',
    '<h1>Live vs replay</h1>',
    `<p>Difference = replay − live; divergence = difference / |live| (near-zero figures such as markouts are better read by their difference). Held to ±${(p.tolerance * 100).toFixed(0)}%: ${esc(p.checked.join(', '))} — <b>${p.within_tolerance ? 'within' : 'beyond'}</b>. Order latency: ${p.order_latency}.</p>`,
    `<table><tr><th>figure</th><th>live</th><th>replay</th><th>difference</th><th>divergence</th></tr>\n${rows}\n</table>`,
    `<h2>Live round trips (ms)</h2><table><tr><th>request</th><th>count</th><th>p50</th><th>p90</th></tr>\n${rts}\n</table>`,
    '</body></html>\n',
  ].join('\n');
}
