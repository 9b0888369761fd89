/** Order side. The wire's `B`/`S` map to these. */
export type Side = 'buy' | 'sell';
/** Time in force; `DAY` is deprecated by the venue but still accepted. */
export type TimeInForce = 'GTC' | 'IOC' | 'DAY';
/** Post-only reprice behaviour: reject, reprice one tick behind the opposite best, or join the same-side best. */
export type RepriceBehavior = 'rej' | 'bo' | 'tbl';
/** Self-trade prevention. */
export type SelfTradePrevention = 'CancelIncoming' | 'CancelResting' | 'CancelBoth';

/** The venue's order-reject reasons (docs/venue-rules.md §8, docs/venue-protocol.md §5). */
export const REJECT_REASONS = [
  'CLOSE_ONLY',
  'INSUFFICIENT_MARGIN',
  'INSUFFICIENT_CREDIT_LIMIT',
  'MAX_OPEN_ORDERS_EXCEEDED',
  'UNKNOWN_SYMBOL',
  'EXCHANGE_CLOSED',
  'INCORRECT_QUANTITY',
  'INVALID_PRICE_INCREMENT',
  'INCORRECT_ORDER_TYPE',
  'PRICE_OUT_OF_BOUNDS',
  'NO_LIQUIDITY',
  'ORIGINAL_ORDER_TERMINATED',
  'DUPLICATE_CLIENT_ORDER_ID',
  'UNKNOWN',
] as const;
/** A reject reason the venue documents. */
export type RejectReason = (typeof REJECT_REASONS)[number];

/** Instrument trading states (ticker `i`), docs/venue-rules.md §9. */
export const INSTRUMENT_STATES = [
  'PRE_OPEN',
  'OPEN',
  'CLOSED',
  'HALTED',
  'CLOSED_FROZEN',
  'MATCH_AND_CLOSE_AUCTION',
  'DELISTED',
  'UNKNOWN',
] as const;
export type InstrumentState = (typeof INSTRUMENT_STATES)[number];

/** What an instrument state allows (docs/venue-rules.md §9). */
export interface StatePermissions {
  readonly canPlace: boolean;
  readonly canCancel: boolean;
  readonly matches: boolean;
}

const PERMISSIONS: Record<InstrumentState, StatePermissions> = {
  OPEN: { canPlace: true, canCancel: true, matches: true },
  PRE_OPEN: { canPlace: true, canCancel: true, matches: false },
  MATCH_AND_CLOSE_AUCTION: { canPlace: true, canCancel: true, matches: false },
  CLOSED: { canPlace: false, canCancel: true, matches: false },
  HALTED: { canPlace: false, canCancel: false, matches: false },
  CLOSED_FROZEN: { canPlace: false, canCancel: false, matches: false },
  DELISTED: { canPlace: false, canCancel: false, matches: false },
  UNKNOWN: { canPlace: false, canCancel: false, matches: false },
};

/** What may be done in `state`. */
export const statePermissions = (state: InstrumentState): StatePermissions => PERMISSIONS[state];

/** The opposite side. */
export const oppositeSide = (side: Side): Side => (side === 'buy' ? 'sell' : 'buy');

/** +1 for buys, −1 for sells: signed quantity = sign × quantity. */
export const sideSign = (side: Side): 1 | -1 => (side === 'buy' ? 1 : -1);
