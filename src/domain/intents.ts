import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { RepriceBehavior, SelfTradePrevention, Side, TimeInForce } from './enums.ts';

/** Place a new limit order. Intents are immutable and imperative. */
export interface PlaceOrder {
  readonly kind: 'place';
  readonly symbol: Symbol;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  readonly tif: TimeInForce;
  readonly postOnly: boolean;
  readonly reprice: RepriceBehavior;
  readonly selfTrade: SelfTradePrevention;
  readonly clientOrderId: ClientOrderId;
  readonly tag: string | null;
}

/** Atomically cancel-and-replace a working order at a new price and/or size. */
export interface ReplaceOrder {
  readonly kind: 'replace';
  readonly symbol: Symbol;
  readonly orderId: VenueOrderId;
  readonly clientOrderId: ClientOrderId;
  readonly priceTicks: number;
  readonly qty: number;
}

/** Cancel one order, by venue id when known, else by client id. */
export interface CancelOrder {
  readonly kind: 'cancel';
  readonly symbol: Symbol;
  readonly orderId: VenueOrderId | null;
  readonly clientOrderId: ClientOrderId | null;
}

/** Cancel every open order, optionally for one symbol. */
export interface CancelAll {
  readonly kind: 'cancel-all';
  readonly symbol: Symbol | null;
}

/** Something the engine wants done at the venue. */
export type OrderIntent = PlaceOrder | ReplaceOrder | CancelOrder | CancelAll;

/** One rung of a quote ladder. */
export interface QuoteLevel {
  readonly priceTicks: number;
  readonly qty: number;
}

/** What a strategy wants resting for one symbol: a ladder per side, best first. */
export interface DesiredQuotes {
  readonly symbol: Symbol;
  readonly bids: readonly QuoteLevel[];
  readonly asks: readonly QuoteLevel[];
}
