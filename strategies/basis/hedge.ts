import { bookMid, type HedgeOrder, type SymbolView } from '../../src/index.ts';

/** Net delta of the pair in units of the underlying: q_F·m_F + q_P·m_P (docs/strategy-models.md §4.6). */
export function netDelta(quoted: SymbolView, hedge: SymbolView): number {
  return quoted.position.qty * quoted.instrument.multiplier.toNumber() + hedge.position.qty * hedge.instrument.multiplier.toNumber();
}

/** The hedge-cost budget: what a rolling hour allows and what it has spent, USD. */
export interface HedgeBudget {
  readonly usdPerHour: number;
  readonly spentUsd: number;
}

/** A planned hedge and its estimated cost (half-spread crossed + taker fee), USD. */
export interface PlannedHedge {
  readonly order: HedgeOrder;
  readonly costUsd: number;
}

/**
 * When |delta| exceeds `band` (underlying units), an IOC on the hedge leg sized to bring |delta|
 * back to band/2, priced `slippageTicks` through the touch; null inside the band, without a book,
 * below the leg's minimum size, or when its estimated cost would exceed the budget.
 */
export function planHedge(hedge: SymbolView, delta: number, band: number, slippageTicks: number, takerFeeBps: number, budget: HedgeBudget): PlannedHedge | null {
  if (Math.abs(delta) <= band) return null;
  const book = hedge.book;
  const mid = bookMid(book);
  if (book === null || mid === null) return null;
  const m = hedge.instrument.multiplier.toNumber();
  const target = Math.sign(delta) * (band / 2);
  const qty = Math.floor(Math.abs(delta - target) / m);
  if (qty < hedge.instrument.minOrderSize || qty <= 0) return null;
  const side = delta > 0 ? 'sell' : 'buy';
  const touch = side === 'buy' ? book.asks[0]!.priceTicks : book.bids[0]!.priceTicks;
  const limitTicks = side === 'buy' ? touch + slippageTicks : touch - slippageTicks;
  const tick = hedge.instrument.grid.tickSize.toNumber();
  const crossedUsd = Math.abs(touch - mid) * tick * qty * m;
  const feeUsd = (touch * tick * qty * m * takerFeeBps) / 10_000;
  const costUsd = crossedUsd + feeUsd;
  if (budget.spentUsd + costUsd > budget.usdPerHour) return null;
  return { order: { symbol: hedge.symbol, side, qty, limitTicks: Math.max(1, limitTicks) }, costUsd };
}

/** Sums costs over a rolling window (a ring of timestamps; hedges are rare, so a plain array). */
export class HedgeCostWindow {
  readonly #entries: { tsMs: number; usd: number }[] = [];

  constructor(readonly windowMs: number) {}

  add(usd: number, nowMs: number): void {
    this.#entries.push({ tsMs: nowMs, usd });
  }

  /** USD spent in the window ending at `nowMs`. */
  spent(nowMs: number): number {
    while (this.#entries.length > 0 && this.#entries[0]!.tsMs <= nowMs - this.windowMs) this.#entries.shift();
    let s = 0;
    for (const e of this.#entries) s += e.usd;
    return s;
  }
}
