import { Decimal } from '../../core/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';

/**
 * Funding arithmetic (docs/venue-rules.md §4): pure functions on Decimals. Positive amounts and rates mean
 * longs pay shorts; cash per account is −signed_qty × amount × multiplier (domain `fundingCash`).
 */

/** One daily-close settlement. */
export interface DailyCloseFunding {
  /** Fraction (0.0001 = 1 bp) after the cap. */
  readonly rate: Decimal;
  /** USD per contract after the cap. */
  readonly amount: Decimal;
  readonly capped: boolean;
}

/**
 * daily_close: amount = mark − benchmark, rate = amount / benchmark, rate clamped to
 * [cap_lower_pct/100, cap_upper_pct/100] (caps in percent; null = uncapped), amount = rate × benchmark
 * when clamped. The lower cap is applied by magnitude as a negative bound.
 */
export function dailyCloseFunding(mark: Decimal, benchmark: Decimal, capLowerPct: Decimal | null, capUpperPct: Decimal | null): DailyCloseFunding {
  const rawAmount = mark.minus(benchmark);
  const rawRate = rawAmount.div(benchmark);
  const lo = capLowerPct === null ? null : capLowerPct.abs().neg().div(100);
  const hi = capUpperPct === null ? null : capUpperPct.abs().div(100);
  if (hi !== null && rawRate.gt(hi)) return { rate: hi, amount: hi.mul(benchmark), capped: true };
  if (lo !== null && rawRate.lt(lo)) return { rate: lo, amount: lo.mul(benchmark), capped: true };
  return { rate: rawRate, amount: rawAmount, capped: false };
}

/** One intraday-TWAP slot. */
export interface IntradaySlotFunding {
  readonly premiumBps: Decimal;
  readonly rateBps: Decimal;
  /** USD per contract. */
  readonly amount: Decimal;
  readonly capped: boolean;
}

/**
 * intraday_twap (docs/venue-rules.md §4.2, [I]): premium = (mark_twap − underlying_twap)/underlying_twap in bps;
 * rate = clamp(premium / N (when `divideByCount`), ±capBps); amount = rate/1e4 × underlying_twap.
 */
export function intradaySlotFunding(
  markTwap: Decimal,
  underlyingTwap: Decimal,
  intervalCount: number,
  capBps: Decimal | null,
  divideByCount: boolean,
): IntradaySlotFunding {
  const premiumBps = markTwap.minus(underlyingTwap).div(underlyingTwap).mul(1e4);
  let rateBps = divideByCount && intervalCount > 0 ? premiumBps.div(intervalCount) : premiumBps;
  let capped = false;
  if (capBps !== null) {
    const c = capBps.abs();
    if (rateBps.gt(c)) {
      rateBps = c;
      capped = true;
    } else if (rateBps.lt(c.neg())) {
      rateBps = c.neg();
      capped = true;
    }
  }
  return { premiumBps, rateBps, amount: rateBps.div(1e4).mul(underlyingTwap), capped };
}

/** One settlement instant's funding, whichever the variant: the rate as a fraction and in bps. */
export interface SlotFunding {
  readonly rate: Decimal;
  readonly rateBps: Decimal;
  readonly premiumBps: Decimal;
  /** USD per contract. */
  readonly amount: Decimal;
  readonly capped: boolean;
}

/**
 * The funding of one instant (settlement or estimate): an intraday_twap slot ({@link intradaySlotFunding},
 * capped at ± the upper cap) or the daily close ({@link dailyCloseFunding}), in both units.
 */
export function slotFunding(
  ins: Pick<Instrument, 'fundingCapLowerPct' | 'fundingCapUpperPct'>,
  intraday: boolean,
  mark: Decimal,
  benchmark: Decimal,
  intervalCount: number,
  divideByCount: boolean,
): SlotFunding {
  if (intraday) {
    const f = intradaySlotFunding(mark, benchmark, intervalCount, capPctToBps(ins.fundingCapUpperPct), divideByCount);
    return { rate: f.rateBps.div(1e4), rateBps: f.rateBps, premiumBps: f.premiumBps, amount: f.amount, capped: f.capped };
  }
  const f = dailyCloseFunding(mark, benchmark, ins.fundingCapLowerPct, ins.fundingCapUpperPct);
  return { rate: f.rate, rateBps: f.rate.mul(1e4), premiumBps: mark.minus(benchmark).div(benchmark).mul(1e4), amount: f.amount, capped: f.capped };
}

/** A per-event cap in percent expressed in bps ("1.0" → "100.0" as in the funding-slots report). */
export const capPctToBps = (pct: Decimal | null): Decimal | null => (pct === null ? null : pct.abs().mul(100));

/** Formats bps the way the funding-slots capture does (one decimal at least: "100.0"). */
export function formatBps(d: Decimal): string {
  const s = d.toDecimalPlaces(6).toFixed();
  return s.includes('.') ? s : `${s}.0`;
}
