import type { Side } from '../../domain/enums.ts';
import type { Rng } from './rng.ts';

/** Parameters of the Poisson takers for one instrument. */
export interface TakerParams {
  /** Mean arrivals per minute (both sides together). */
  readonly ratePerMin: number;
  /** Median size in lots of the minimum order size (log-normal). */
  readonly medianLots: number;
  /** Sigma of the log-normal size distribution. */
  readonly sizeSigma: number;
  /** Cap on a single taker order, in lots. */
  readonly maxLots: number;
  /** How many ticks through the touch the IOC limit may reach. */
  readonly sweepTicks: number;
  /**
   * Side bias towards the underlying: probability of buying = 0.5 + skew × (fair − mid)/halfSpread,
   * clamped to [0.05, 0.95], so takers arbitrage a stale book towards the underlying.
   */
  readonly fairSkew: number;
}

/** One taker order to send as IOC. */
export interface TakerOrder {
  readonly side: Side;
  readonly qty: number;
  readonly limitTicks: number;
}

/** Milliseconds until the next taker arrival (exponential inter-arrival times). */
export function nextArrivalMs(p: TakerParams, rng: Rng): number {
  if (p.ratePerMin <= 0) return Number.POSITIVE_INFINITY;
  return rng.exponential(60_000 / p.ratePerMin);
}

/**
 * Draws a taker order against the current touch. Returns undefined when the side it picked is
 * empty. `fairTicks` is the underlying in ticks (float).
 */
export function drawTaker(
  bestBid: number | undefined,
  bestAsk: number | undefined,
  fairTicks: number,
  minQty: number,
  p: TakerParams,
  rng: Rng,
): TakerOrder | undefined {
  let pBuy = 0.5;
  if (bestBid !== undefined && bestAsk !== undefined) {
    const mid = (bestBid + bestAsk) / 2;
    const half = Math.max(1, (bestAsk - bestBid) / 2);
    pBuy = Math.min(0.95, Math.max(0.05, 0.5 + (p.fairSkew * (fairTicks - mid)) / half));
  }
  const side: Side = rng.chance(pBuy) ? 'buy' : 'sell';
  const lots = Math.min(p.maxLots, Math.max(1, Math.round(rng.logNormal(p.medianLots, p.sizeSigma))));
  const touch = side === 'buy' ? bestAsk : bestBid;
  if (touch === undefined) return undefined;
  const limitTicks = side === 'buy' ? touch + p.sweepTicks : touch - p.sweepTicks;
  return { side, qty: lots * minQty, limitTicks: Math.max(1, limitTicks) };
}
