/** Shared mapping helpers: epoch conversions, enum translation, and mapping failures as DecodeErrors. */
import { Decimal } from '../../core/decimal.ts';
import type { ClientOrderId } from '../../core/ids.ts';
import type { RepriceBehavior, SelfTradePrevention, Side, TimeInForce } from '../../domain/enums.ts';
import { ORDER_STATES, type OrderState } from '../../domain/order-state.ts';
import type { TickGrid, TickRounding } from '../../domain/tick-grid.ts';
import { enumRaw, type WireEnum, type WireReprice, type WireSide, type WireStp, type WireTif } from '../types/common.ts';
import { decodeError, type DecodeError } from '../decode/kit.ts';

/** Thrown inside mappers and caught at their public boundary, which returns it as a Result error. */
export class MapFailure extends Error {
  constructor(readonly error: DecodeError) {
    super(error.message);
  }
}

/** Aborts the current mapping with a path-named error. */
export function mapFail(path: string, expected: string, got: unknown): never {
  throw new MapFailure(decodeError(path, expected, got));
}

/** Venue `ts` (epoch s) + `tn` (ns part) → epoch ms (fractional, µs kept). */
export const tsTnToMs = (ts: number, tn: number): number => ts * 1000 + tn / 1e6;

/** Epoch ms → `{ ts, tn }` as the venue writes them. */
export function msToTsTn(ms: number): { ts: number; tn: number } {
  const ts = Math.floor(ms / 1000);
  const tn = Math.min(999_999_999, Math.max(0, Math.round((ms - ts * 1000) * 1e6)));
  return { ts, tn };
}

/** RFC 3339 (any fraction length) → epoch ms, or fails at `path`. */
export function dateTimeToMs(s: string, path: string): number {
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : mapFail(path, 'a valid RFC 3339 date-time', s);
}

/** Integer epoch seconds or RFC 3339 → epoch ms. */
export const secondsOrDateTimeToMs = (v: number | string, path: string): number => (typeof v === 'number' ? v * 1000 : dateTimeToMs(v, path));

/** Epoch ms → RFC 3339 with milliseconds. */
export const msToDateTime = (ms: number): string => new Date(ms).toISOString();

/** Wire side → domain side. */
export function sideOf(d: WireEnum<WireSide>, path: string): Side {
  if (d === 'B') return 'buy';
  if (d === 'S') return 'sell';
  return mapFail(path, 'side B or S', d);
}
/** Domain side → wire side. */
export const wireSide = (s: Side): WireSide => (s === 'buy' ? 'B' : 'S');

/** Wire time in force → domain. */
export function tifOf(t: WireEnum<WireTif>, path: string): TimeInForce {
  return typeof t === 'string' ? t : mapFail(path, 'time in force GTC, IOC or DAY', t.unknown);
}
/** Wire reprice (absent = `rej`, the venue default) → domain. */
export function repriceOf(rb: WireEnum<WireReprice> | undefined, path: string): RepriceBehavior {
  if (rb === undefined) return 'rej';
  return typeof rb === 'string' ? rb : mapFail(path, 'reprice behaviour rej, bo or tbl', rb.unknown);
}
/** Wire self-trade prevention (aliases `xi`/`xr`/`xb`; absent = CancelIncoming) → domain. */
export function stpOf(st: WireEnum<WireStp> | undefined, path: string): SelfTradePrevention {
  switch (st) {
    case undefined:
    case 'xi':
    case 'CancelIncoming':
      return 'CancelIncoming';
    case 'xr':
    case 'CancelResting':
      return 'CancelResting';
    case 'xb':
    case 'CancelBoth':
      return 'CancelBoth';
    default:
      return mapFail(path, 'self-trade prevention', st.unknown);
  }
}

const STATES: ReadonlySet<string> = new Set(ORDER_STATES);
/** Wire order state → domain; unknown states become `UNKNOWN` (the transition table allows anything after it). */
export const stateOf = (o: WireEnum<string>): OrderState => (typeof o === 'string' && STATES.has(o) ? (o as OrderState) : 'UNKNOWN');

/** A (possibly unknown) enum as its raw string; null/undefined as null. */
export const rawOrNull = (v: WireEnum<string> | null | undefined): string | null =>
  v === null || v === undefined ? null : enumRaw(v);

/** Decimal price string → ticks on `grid`, failing at `path` when off-grid or malformed. */
export function ticks(grid: TickGrid, price: string, path: string, rounding: TickRounding = 'exact'): number {
  try {
    return grid.toTicks(price, rounding);
  } catch (e) {
    return mapFail(path, `a price on the ${grid.tickSize.toString()} tick grid`, price);
  }
}

/** Nullable price → ticks. */
export const ticksOrNull = (grid: TickGrid, price: string | null | undefined, path: string, rounding: TickRounding = 'exact'): number | null =>
  price === null || price === undefined ? null : ticks(grid, price, path, rounding);

/** Decimal string → Decimal (already grammar-checked by the decoder). */
export const decimal = (s: string): Decimal => new Decimal(s);
/** Nullable decimal string → Decimal or null. */
export const decimalOrNull = (s: string | null | undefined): Decimal | null => (s === null || s === undefined ? null : new Decimal(s));

/** Client order id or null. */
export const cidOrNull = (c: ClientOrderId | null | undefined): ClientOrderId | null => c ?? null;

/** Runs a mapping body, turning a MapFailure into a Result error; other exceptions become errors at `$`. */
export function mapping<T>(body: () => T): { ok: true; value: T } | { ok: false; error: DecodeError } {
  try {
    return { ok: true, value: body() };
  } catch (e) {
    if (e instanceof MapFailure) return { ok: false, error: e.error };
    return { ok: false, error: decodeError('$', 'a mappable value', e instanceof Error ? e.message : e) };
  }
}
