import { asSymbol, Decimal } from '../../src/core/index.ts';
import type { FeeRates } from '../../src/domain/fee-rates.ts';
import { TickGrid, type Book, type Instrument, type TradePrinted } from '../../src/domain/index.ts';
import { Rng } from '../../src/sim/market/rng.ts';
import { buildContext, flatPosition, type OwnFill, type Strategy, type StrategyContext, type WorkingOrder } from '../../src/strategy/index.ts';

/** Test instrument: 0.0001 ticks, multiplier 1, minimum order 1 contract. */
export const SYM = asSymbol('EURUSD-PERP');
export const INSTRUMENT = { symbol: SYM, grid: new TickGrid('0.0001'), multiplier: new Decimal(1), minOrderSize: 1, fundingSchedule: null } as unknown as Instrument;

/** A one-level book. */
export const book = (bid: number, ask: number, bq = 10, aq = 10): Book => ({ symbol: SYM, bids: [{ priceTicks: bid, qty: bq }], asks: [{ priceTicks: ask, qty: aq }], tsEvent: 0, tsRecv: 0 });

/** A context over `book` with position `q`, working orders, trades, our fills and fee rates (default none). */
export function ctxAt(
  nowMs: number,
  b: Book | null,
  q = 0,
  extra: { trades?: readonly TradePrinted[]; workingOrders?: readonly WorkingOrder[]; fills?: readonly OwnFill[]; fees?: FeeRates } = {},
): StrategyContext {
  return buildContext({
    symbol: SYM,
    instrument: INSTRUMENT,
    nowMs,
    book: b,
    position: flatPosition(q),
    trades: extra.trades ?? [],
    workingOrders: extra.workingOrders ?? [],
    ...(extra.fills ? { fills: extra.fills } : {}),
    ...(extra.fees ? { fees: extra.fees } : {}),
  });
}

/**
 * Drives `s` through `durationS` of a synthetic market: the mid random-walks (σ ticks/√s, on the
 * half-tick grid, spread `spreadTicks`), trades arrive at A/s with distance from the mid
 * half-spread + Exp(k). Calls `quote` every 100 ms; returns the last mid and time.
 */
export function warmUp(s: Strategy, opts: { seed?: number; durationS?: number; sigma?: number; aPerS?: number; k?: number; spreadTicks?: number; startMid?: number; qty?: number } = {}): { mid: number; nowMs: number } {
  const rng = new Rng(opts.seed ?? 1);
  const sigma = opts.sigma ?? 1;
  const spread = opts.spreadTicks ?? 1;
  let mid = opts.startMid ?? 10_000.5;
  let t = 0;
  let nextTrade = rng.exponential(1000 / (opts.aPerS ?? 2));
  const end = (opts.durationS ?? 600) * 1000;
  for (; t <= end; t += 100) {
    mid += Math.round(sigma * Math.sqrt(0.1) * rng.normal() * 2) / 2;
    const trades: TradePrinted[] = [];
    while (nextTrade <= t) {
      const buy = rng.chance(0.5);
      const d = spread / 2 + Math.round(rng.exponential(1 / (opts.k ?? 0.5)) * 2) / 2;
      trades.push({ type: 'trade', symbol: SYM, priceTicks: Math.round(buy ? mid + d : mid - d), qty: opts.qty ?? 1, aggressor: buy ? 'buy' : 'sell', tsEvent: nextTrade, tsRecv: nextTrade });
      nextTrade += rng.exponential(1000 / (opts.aPerS ?? 2));
    }
    const bid = Math.floor(mid - spread / 2);
    s.quote(ctxAt(t, book(bid, bid + spread), 0, { trades }));
  }
  return { mid, nowMs: t };
}
