/** Order states as the venue reports them (field `o`). */
export const ORDER_STATES = [
  'PENDING',
  'ACCEPTED',
  'PARTIALLY_FILLED',
  'FILLED',
  'CANCELED',
  'REJECTED',
  'EXPIRED',
  'REPLACED',
  'DONE_FOR_DAY',
  'UNKNOWN',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

const TERMINAL: ReadonlySet<OrderState> = new Set(['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED', 'REPLACED', 'DONE_FOR_DAY']);

/** The venue's transition table (docs/venue-rules.md §8, from the SDK's `can_transition_to`). */
export const ORDER_TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
  PENDING: ['ACCEPTED', 'REJECTED', 'CANCELED', 'EXPIRED', 'REPLACED', 'DONE_FOR_DAY'],
  ACCEPTED: ['PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REPLACED', 'DONE_FOR_DAY'],
  PARTIALLY_FILLED: ['PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REPLACED', 'DONE_FOR_DAY'],
  FILLED: [],
  CANCELED: [],
  REJECTED: [],
  EXPIRED: [],
  REPLACED: [],
  DONE_FOR_DAY: [],
  // UNKNOWN is what a decoder yields for a state it does not know; anything may follow it.
  UNKNOWN: ['PENDING', 'ACCEPTED', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED', 'REPLACED', 'DONE_FOR_DAY'],
};

/** True when the venue allows an order to move from `from` to `to`. */
export const canTransition = (from: OrderState, to: OrderState): boolean => ORDER_TRANSITIONS[from].includes(to);

/** True for states no event can leave. */
export const isTerminal = (state: OrderState): boolean => TERMINAL.has(state);

/** True for states that rest on the book (open orders). */
export const isOpenState = (state: OrderState): boolean => state === 'ACCEPTED' || state === 'PARTIALLY_FILLED';

/** True for states a cancel may act on. */
export const isCancelable = (state: OrderState): boolean =>
  state === 'PENDING' || state === 'ACCEPTED' || state === 'PARTIALLY_FILLED';

/** True for states a replace may act on. */
export const isReplaceable = (state: OrderState): boolean => state === 'ACCEPTED' || state === 'PARTIALLY_FILLED';
