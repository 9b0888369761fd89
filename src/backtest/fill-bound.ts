import { KIND } from '../record/format.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import type { BacktestFill } from './ledger.ts';

/** One price level and side of our fills against what the market traded at or through it. */
export interface FillBoundRow {
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly priceTicks: number;
  /** Our maker fills at this price and side (prints and book crossings; taker fills are not counted). */
  readonly ours: number;
  /** Of which filled by book crossings (no print backs them). */
  readonly crossed: number;
  /**
   * Contracts the recorded prints traded at or through the price against that side: for our buys
   * at P, sell-aggressor prints at ≤ P; for our sells, buy-aggressor prints at ≥ P.
   */
  readonly market: number;
}

/** The check over a run: rows whose fills exceed the market's traded volume, and the totals. */
export interface FillBoundCheck {
  readonly rows: readonly FillBoundRow[];
  /** Rows where all our fills (crossings included) exceed the market's volume at or through the price. */
  readonly over: readonly FillBoundRow[];
  /** Rows where our fills not counting crossings exceed it. */
  readonly overFromPrints: readonly FillBoundRow[];
  readonly oursTotal: number;
  readonly crossedTotal: number;
}

/**
 * Our fill volume per price level and side against what the market traded at or through that
 * price over the whole recording: a replay that fills more than the market traded at our prices
 * invents volume. Book-crossing fills are counted in `ours` (the strict check, `over`) and apart
 * (`overFromPrints` leaves them out): they fill against displayed volume that crossed us, which no
 * print records.
 */
export function fillBound(col: ColumnarRecording, fills: readonly BacktestFill[]): FillBoundCheck {
  const symIdx = new Map(col.instruments.map((inst, s) => [inst.symbol as string, s]));
  // Per symbol: prints by price, per aggressor side.
  const sells = col.instruments.map(() => new Map<number, number>());
  const buys = col.instruments.map(() => new Map<number, number>());
  for (let i = 0; i < col.length; i++) {
    if (col.kind[i] !== KIND.trade) continue;
    const m = (col.c[i]! > 0 ? buys : sells)[col.sym[i]!]!;
    m.set(col.a[i]!, (m.get(col.a[i]!) ?? 0) + col.b[i]!);
  }
  const ours = new Map<string, { symbol: string; s: number; side: 'buy' | 'sell'; priceTicks: number; qty: number; crossed: number }>();
  for (const f of fills) {
    const s = symIdx.get(f.symbol);
    // Taker fills take displayed liquidity at the prices they walk: no print is theirs to compare with.
    if (s === undefined || f.aggressor) continue;
    const key = `${s} ${f.side} ${f.priceTicks}`;
    let r = ours.get(key);
    if (!r) ours.set(key, (r = { symbol: f.symbol, s, side: f.side, priceTicks: f.priceTicks, qty: 0, crossed: 0 }));
    r.qty += f.qty;
    if (f.source === 'cross') r.crossed += f.qty;
  }
  const rows: FillBoundRow[] = [];
  for (const r of ours.values()) {
    let market = 0;
    // A resting buy at P meets sell aggressors printing at P or below; a sell, buyers at P or above.
    if (r.side === 'buy') for (const [p, q] of sells[r.s]!) market += p <= r.priceTicks ? q : 0;
    else for (const [p, q] of buys[r.s]!) market += p >= r.priceTicks ? q : 0;
    rows.push({ symbol: r.symbol, side: r.side, priceTicks: r.priceTicks, ours: r.qty, crossed: r.crossed, market });
  }
  rows.sort((a, b) => a.symbol.localeCompare(b.symbol) || a.side.localeCompare(b.side) || a.priceTicks - b.priceTicks);
  return {
    rows,
    over: rows.filter((r) => r.ours > r.market),
    overFromPrints: rows.filter((r) => r.ours - r.crossed > r.market),
    oursTotal: rows.reduce((a, r) => a + r.ours, 0),
    crossedTotal: rows.reduce((a, r) => a + r.crossed, 0),
  };
}
