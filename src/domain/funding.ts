import type { Decimal } from '../core/decimal.ts';
import type { Symbol } from '../core/ids.ts';

/** Status of the venue's funding estimate. */
export type FundingEstimateStatus = 'ready' | 'settlement_pending' | 'unavailable';

/** The venue's live estimate of the next funding (ticker `ef`, WS `ef`, REST). Numbers only when ready. */
export interface FundingEstimate {
  readonly symbol: Symbol;
  readonly status: FundingEstimateStatus | string;
  /** Fraction per event (0.0001 = 1 bp); positive means longs pay shorts. */
  readonly rate: Decimal | null;
  /** USD per contract. */
  readonly amount: Decimal | null;
  readonly benchmarkPrice: Decimal | null;
  readonly settlementPrice: Decimal | null;
  readonly reason: string | null;
  readonly computedMs: number;
}

/** A funding settlement that happened (funding-rate record). */
export interface FundingSettlement {
  readonly symbol: Symbol;
  readonly rate: Decimal;
  readonly amount: Decimal;
  readonly benchmarkPrice: Decimal;
  readonly settlementPrice: Decimal;
  readonly tsEvent: number;
}

/**
 * A funding payment booked on our account: a venue funding transaction of type `funding`, the cash
 * the venue computed for the position we held at the settlement instant.
 */
export interface FundingPayment {
  readonly symbol: Symbol;
  /** The venue's event id (dedupe key). */
  readonly eventId: string;
  /** Cash to the account in USD (negative = paid). */
  readonly amount: Decimal;
  /** The settlement instant, venue epoch ms. */
  readonly tsEvent: number;
}

/** Funding cash for a signed position: −signed_qty × amount × multiplier (longs pay when amount > 0). */
export const fundingCash = (signedQty: number, amount: Decimal, multiplier: Decimal): Decimal =>
  amount.mul(-signedQty).mul(multiplier);
