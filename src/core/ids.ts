import type { Brand } from './brand.ts';
import { isPrefixedUlid } from './ulid.ts';

/** An instrument symbol such as `EURUSD-PERP` or `XAU-2026-DEC`. */
export type Symbol = Brand<string, 'Symbol'>;
/** The venue's order id (`O-<ULID>`, or `L-<ULID>` for liquidations; sanitised in fixtures). */
export type VenueOrderId = Brand<string, 'VenueOrderId'>;
/** Our client order id: an unsigned 64-bit integer, kept as a decimal string to stay exact. */
export type ClientOrderId = Brand<string, 'ClientOrderId'>;
/** A trading account id. */
export type AccountId = Brand<string, 'AccountId'>;
/** A user id. */
export type UserId = Brand<string, 'UserId'>;
/** An execution id (`E-<ULID>`). */
export type ExecutionId = Brand<string, 'ExecutionId'>;
/** A trade id (`T-<ULID>`). */
export type TradeId = Brand<string, 'TradeId'>;

/** Brands a symbol string (no validation: symbols come from the venue's catalog). */
export const asSymbol = (s: string): Symbol => s as Symbol;
export const asVenueOrderId = (s: string): VenueOrderId => s as VenueOrderId;
export const asAccountId = (s: string): AccountId => s as AccountId;
export const asUserId = (s: string): UserId => s as UserId;
export const asExecutionId = (s: string): ExecutionId => s as ExecutionId;
export const asTradeId = (s: string): TradeId => s as TradeId;

const U64_MAX = 18446744073709551615n;

/**
 * Brands a client order id after checking it is an unsigned 64-bit integer.
 * @throws RangeError when `v` is negative, fractional or above 2^64 − 1.
 */
export function asClientOrderId(v: string | number | bigint): ClientOrderId {
  const s = typeof v === 'string' ? v : typeof v === 'number' ? (Number.isSafeInteger(v) ? String(v) : 'x') : v.toString();
  if (!/^(0|[1-9][0-9]{0,19})$/.test(s) || BigInt(s) > U64_MAX) throw new RangeError(`client order id must be a u64, got ${String(v)}`);
  return s as ClientOrderId;
}

/** True for a well-formed venue order id (`O-` or `L-` followed by a ULID). */
export const isVenueOrderId = (s: string): boolean => isPrefixedUlid(s, ['O', 'L']);
/** True for a well-formed execution id. */
export const isExecutionId = (s: string): boolean => isPrefixedUlid(s, ['E']);
/** True for a well-formed trade id. */
export const isTradeId = (s: string): boolean => isPrefixedUlid(s, ['T']);
