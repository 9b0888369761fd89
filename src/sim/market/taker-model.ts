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
  /** Share of orders whose side follows the underlying `informedHorizonMs` ahead instead of noise. */
  readonly informedShare: number;
  readonly informedHorizonMs: number;
  /** Arrival-rate multiplier in the volatile regime. */
  readonly volatileRateMult: number;
}

/** One taker order to send as IOC. */
export interface TakerOrder {
  readonly side: Side;
  readonly qty: number;
  readonly limitTicks: number;
  /** Whether the side came from the future underlying (informed) rather than noise. */
  readonly informed: boolean;
}

/** Milliseconds until the next taker arrival (exponential inter-arrival times). */
export function nextArrivalMs(p: TakerParams, rng: Rng, volatile = false): number {
  const rate = p.ratePerMin * (volatile ? p.volatileRateMult : 1);
  if (rate <= 0) return Number.POSITIVE_INFINITY;
  return rng.exponential(60_000 / rate);
}

/**
 * Draws a taker order against the current touch. Returns undefined when the side it picked is
 * empty. `fairTicks` is the instrument's fair value now and `futureFairTicks` where it will be
 * `informedHorizonMs` ahead (floats, ticks). An informed taker buys when the future fair is above
 * the mid and sells when below; a noise taker leans towards the current fair (`fairSkew`).
 */
export function drawTaker(
  bestBid: number | undefined,
  bestAsk: number | undefined,
  fairTicks: number,
  futureFairTicks: number,
  minQty: number,
  p: TakerParams,
  rng: Rng,
): TakerOrder | undefined {
  let pBuy = 0.5;
  const informed = p.informedShare > 0 && rng.chance(p.informedShare);
  if (bestBid !== undefined && bestAsk !== undefined) {
    const mid = (bestBid + bestAsk) / 2;
    const half = Math.max(1, (bestAsk - bestBid) / 2);
    if (informed) pBuy = futureFairTicks > mid ? 1 : futureFairTicks < mid ? 0 : 0.5;
    else pBuy = Math.min(0.95, Math.max(0.05, 0.5 + (p.fairSkew * (fairTicks - mid)) / half));
  } else if (informed) pBuy = futureFairTicks > fairTicks ? 1 : 0;
  const side: Side = rng.chance(pBuy) ? 'buy' : 'sell';
  const lots = Math.min(p.maxLots, Math.max(1, Math.round(rng.logNormal(p.medianLots, p.sizeSigma))));
  const touch = side === 'buy' ? bestAsk : bestBid;
  if (touch === undefined) return undefined;
  const limitTicks = side === 'buy' ? touch + p.sweepTicks : touch - p.sweepTicks;
  return { side, qty: lots * minQty, limitTicks: Math.max(1, limitTicks), informed };
}
