import type { RepriceBehavior, SelfTradePrevention, TimeInForce } from '../domain/enums.ts';
import { VENUE_DEFAULT_FEE_RATES, type FeeRates } from '../domain/fee-rates.ts';

/** What reconciliation does with open orders on the account that this engine did not place. */
export type UnknownOrderPolicy = 'cancel' | 'adopt' | 'ignore';

/** How the order manager turns desired quotes into venue requests. */
export interface OrderManagerConfig {
  /** Keep a working order whose price is within this many ticks of the desired level. */
  readonly priceToleranceTicks: number;
  /** Keep a working order whose remaining size is within this fraction of the desired size (0.1 = 10%). */
  readonly sizeTolerance: number;
  /** Do not requote (replace/cancel) an order younger than this (ms); risk pulls ignore it. */
  readonly minOrderLifetimeMs: number;
  /** Use the venue's atomic replace when the order is replaceable; else cancel + place. */
  readonly useReplace: boolean;
  /** Send quotes post-only. */
  readonly postOnly: boolean;
  /**
   * Post-only reprice behaviour. Default `bo`: a quote that would cross after the book moved rests one
   * tick behind the opposite best instead of being rejected (rejects waste rate budget and feed the
   * reject-storm trigger). The engine also clamps quotes to one tick behind the opposite best before
   * diffing, so repricing is rare.
   */
  readonly reprice: RepriceBehavior;
  readonly tif: TimeInForce;
  readonly selfTrade: SelfTradePrevention;
  /** Order tag (≤ 10 alphanumeric characters), null for none. */
  readonly tag: string | null;
  /** Unknown open orders found at reconciliation. Default `cancel`. */
  readonly unknownOrders: UnknownOrderPolicy;
  /** Ask the venue for an order's status this long after its outcome became unknown (ms). */
  readonly statusQueryDelayMs: number;
  /** A cancel answered 409 (not yet acknowledged) is retried at the ack, or after this (ms) at the latest. */
  readonly cancelRetryMs: number;
  /** Evaluate strategies on clock ticks this often (ms), besides market events. */
  readonly tickIntervalMs: number;
  /** Poll REST fills for venue fees (and missed fills) this often (ms) while fees are estimated. 0 = never. */
  readonly fillPollMs: number;
  /** Look back this far (ms) before the last known fill when recovering fills at reconciliation. */
  readonly fillRecoveryLookbackMs: number;
  /**
   * Compare our positions with the venue's (`AccountReader.positions`) this often (ms); a mismatch
   * first recovers fills from REST, and if it persists the ledger takes the venue's figure
   * (`position-mismatch`, with both). 0 = never.
   */
  readonly positionCheckMs: number;
}

/** Defaults for the order manager (see each field). */
export const DEFAULT_ORDER_MANAGER_CONFIG: OrderManagerConfig = Object.freeze({
  priceToleranceTicks: 0,
  sizeTolerance: 0.1,
  minOrderLifetimeMs: 250,
  useReplace: true,
  postOnly: true,
  reprice: 'bo',
  tif: 'GTC',
  selfTrade: 'CancelIncoming',
  tag: 'mmbot',
  unknownOrders: 'cancel',
  statusQueryDelayMs: 1_000,
  cancelRetryMs: 500,
  tickIntervalMs: 250,
  fillPollMs: 5_000,
  fillRecoveryLookbackMs: 60_000,
  positionCheckMs: 30_000,
});

/** Fee rates used to estimate a fill's fee until the venue's REST fill (with the real fee) arrives (domain/fee-rates.ts). */
export type { FeeRates } from '../domain/fee-rates.ts';

/** Default fee rates: the venue's tier-1 schedule; the daemon passes resolveFeeRates(config, whoami) instead. */
export const DEFAULT_FEE_RATES: FeeRates = VENUE_DEFAULT_FEE_RATES;
