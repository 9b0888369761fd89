/**
 * The reference matcher's inputs and outputs: one symbol, plain data, integer ticks and lots. A
 * stream is market events at their exchange instants (book frames, trade prints) and our requests
 * at the instant the bot sent them; the matcher gives every fill with the instant it happened.
 */

/** Side of a book level or of one of our orders. */
export type RefSide = 'bid' | 'ask';

/** One market order of an order-level (L3) level: its id and remaining size. */
export interface RefMarketOrder {
  readonly id: number;
  readonly qty: number;
}

/** One level of a book frame: its displayed size (0 removes it) and, on order-level data, its orders front first. */
export interface RefLevel {
  readonly side: RefSide;
  readonly priceTicks: number;
  readonly qty: number;
  /** Order-level data: the level's market orders in queue order (their sizes add up to `qty`). */
  readonly orders?: readonly RefMarketOrder[];
}

/** A market event or one of our requests. `tMs`: exchange time (market) or the bot's send time (ours). */
export type RefEvent =
  | { readonly kind: 'book'; readonly tMs: number; readonly snapshot: boolean; readonly levels: readonly RefLevel[] }
  | { readonly kind: 'print'; readonly tMs: number; readonly priceTicks: number; readonly qty: number; readonly takerBuy: boolean; readonly hidden?: boolean; readonly auction?: boolean }
  | { readonly kind: 'place'; readonly tMs: number; readonly ref: number; readonly side: 'buy' | 'sell'; readonly priceTicks: number; readonly qty: number; readonly postOnly: boolean; readonly tif: 'GTC' | 'IOC' }
  | { readonly kind: 'cancel'; readonly tMs: number; readonly ref: number }
  | { readonly kind: 'replace'; readonly tMs: number; readonly ref: number; readonly priceTicks: number; readonly qty: number };

/** The queue rule the matcher applies to our resting orders. */
export type RefQueueRule =
  | { readonly kind: 'risk-averse' }
  | { readonly kind: 'probabilistic'; readonly shape: 'power' | 'power2' | 'power3' | 'log' | 'log2'; readonly n: number }
  | { readonly kind: 'fifo-by-id' };

/** How the matcher runs: the queue rule and the constant entry latency of our requests. */
export interface RefOptions {
  readonly rule: RefQueueRule;
  /** Bot send → matching engine (ms); requests arrive in the order sent (one socket). */
  readonly entryMs: number;
  /** Smallest order size the venue accepts (lots). */
  readonly minOrderSize: number;
}

/** One fill of ours: `ref` is the place request's ref (a replacement keeps it). */
export interface RefFill {
  readonly tMs: number;
  readonly ref: number;
  readonly side: 'buy' | 'sell';
  readonly priceTicks: number;
  readonly qty: number;
  /** print: a trade print reached us; cross: the book crossed our resting order; taker: we took displayed volume. */
  readonly source: 'print' | 'cross' | 'taker';
}
