/**
 * Shared wire primitives. Wire types mirror the venue's JSON exactly (field names, units as sent):
 * decimal strings stay strings, quantities are integer contracts, timestamps are as sent.
 */
import type { ClientOrderId } from '../../core/ids.ts';
import { INSTRUMENT_STATES, REJECT_REASONS } from '../../domain/enums.ts';
import { ORDER_STATES } from '../../domain/order-state.ts';

/** A decimal string in the venue grammar (`-?[0-9]+(\.[0-9]+)?`); never compare textually. */
export type DecimalString = string;
/** An RFC 3339 date-time string (up to nanosecond precision). */
export type DateTimeString = string;
/** A `YYYY-MM-DD` date string. */
export type DateString = string;
/** An epoch-nanosecond integer carried as decimal digits (query parameters; exceeds 2^53). */
export type EpochNsString = string;

/** An enum value the decoder did not recognise, kept verbatim so callers can log or pass it on. */
export interface WireUnknown {
  readonly unknown: string;
}
/** A documented enum value, or an unrecognised one kept as `{ unknown: 'RAW' }`. */
export type WireEnum<T extends string> = T | WireUnknown;

/** True when an enum value was not recognised by the decoder (an object whose only key is `unknown`). */
export const isUnknownEnum = (v: unknown): v is WireUnknown => {
  if (typeof v !== 'object' || v === null || typeof (v as { unknown?: unknown }).unknown !== 'string') return false;
  for (const k in v) if (k !== 'unknown') return false;
  return true;
};

/** The raw string of a (possibly unknown) enum value. */
export const enumRaw = <T extends string>(v: WireEnum<T>): string => (typeof v === 'string' ? v : v.unknown);

/** Client order id on the wire: a JSON integer (u64), kept as its decimal digits. */
export type WireCid = ClientOrderId;

/** The documented wire values of sides. */
export const WIRE_SIDES = ['B', 'S'] as const;
/** `B` buy, `S` sell. */
export type WireSide = (typeof WIRE_SIDES)[number];

/** The documented wire values of tifs. */
export const WIRE_TIFS = ['GTC', 'IOC', 'DAY'] as const;
/** Time in force; `DAY` is deprecated but accepted. */
export type WireTif = (typeof WIRE_TIFS)[number];

/** The documented wire values of reprice. */
export const WIRE_REPRICE = ['rej', 'bo', 'tbl'] as const;
/** Post-only reprice behaviour. */
export type WireReprice = (typeof WIRE_REPRICE)[number];

/** The documented wire values of stp. */
export const WIRE_STP = ['CancelIncoming', 'CancelResting', 'CancelBoth', 'xi', 'xr', 'xb'] as const;
/** Self-trade prevention, including the short aliases `xi`/`xr`/`xb`. */
export type WireStp = (typeof WIRE_STP)[number];

// The venue documents one list each of order states, reject reasons and instrument states; domain
// holds it (the bot models exactly what the venue reports), and the decoders accept the same values.

/** The documented wire values of order states. */
export const WIRE_ORDER_STATES = ORDER_STATES;
/** Order state (`o` on order objects, `state` on status records). */
export type WireOrderState = (typeof WIRE_ORDER_STATES)[number];

/** The documented wire values of reject reasons. */
export const WIRE_REJECT_REASONS = REJECT_REASONS;
/** Order reject reason (`r`). */
export type WireRejectReason = (typeof WIRE_REJECT_REASONS)[number];

/** The documented wire values of instrument states. */
export const WIRE_INSTRUMENT_STATES = INSTRUMENT_STATES;
/** Instrument trading state (ticker `i`). */
export type WireInstrumentState = (typeof WIRE_INSTRUMENT_STATES)[number];

/** The documented wire values of categories. */
export const WIRE_CATEGORIES = ['compute', 'crypto', 'energy', 'energy_etfs', 'equities', 'fx', 'metals', 'treasuries'] as const;
/** Instrument category. */
export type WireCategory = (typeof WIRE_CATEGORIES)[number];

/** The documented wire values of md levels. */
export const WIRE_MD_LEVELS = ['LEVEL_1', 'LEVEL_2', 'LEVEL_3', 'TRADES'] as const;
/** Market-data subscription level. */
export type WireMdLevel = (typeof WIRE_MD_LEVELS)[number];

/** The documented wire values of candle widths. */
export const WIRE_CANDLE_WIDTHS = ['1s', '5s', '1m', '5m', '15m', '1h', '1d'] as const;
/** Candle width. */
export type WireCandleWidth = (typeof WIRE_CANDLE_WIDTHS)[number];

/** The documented wire values of funding statuses. */
export const WIRE_FUNDING_STATUSES = ['ready', 'settlement_pending', 'unavailable'] as const;
/** Estimated-funding status. */
export type WireFundingStatus = (typeof WIRE_FUNDING_STATUSES)[number];

/** The documented wire values of slot statuses. */
export const WIRE_SLOT_STATUSES = ['realized', 'projected', 'skipped', 'pending'] as const;
/** Funding-slot status. */
export type WireSlotStatus = (typeof WIRE_SLOT_STATUSES)[number];

/** The documented wire values of funding variants. */
export const WIRE_FUNDING_VARIANTS = ['daily_close', 'intraday_twap'] as const;
/** Funding variant of a funding-slots report. */
export type WireFundingVariant = (typeof WIRE_FUNDING_VARIANTS)[number];

/** The documented wire values of transaction types. */
export const WIRE_TRANSACTION_TYPES = ['deposit', 'withdrawal', 'funding', 'fee', 'pnl', 'lending_credit', 'lending_debit'] as const;
/** Ledger transaction type (`/api/transactions`). */
export type WireTransactionType = (typeof WIRE_TRANSACTION_TYPES)[number];

/** The documented wire values of funding tx types. */
export const WIRE_FUNDING_TX_TYPES = ['funding', 'mark_to_market', 'final_settlement'] as const;
/** Funding-transaction type. */
export type WireFundingTxType = (typeof WIRE_FUNDING_TX_TYPES)[number];

/** The documented wire values of payout statuses. */
export const WIRE_PAYOUT_STATUSES = ['accrued', 'awaiting', 'approved', 'paid', 'retained'] as const;
/** Reward payout status. */
export type WirePayoutStatus = (typeof WIRE_PAYOUT_STATUSES)[number];

/** The documented wire values of sort ts. */
export const WIRE_SORT_TS = ['asc', 'desc'] as const;
/** Sort direction of time-series queries. */
export type WireSortTs = (typeof WIRE_SORT_TS)[number];

/** The REST error body: `{"error": "<message>"}`. */
export interface WireErrorBody {
  readonly error: string;
}

/** An empty JSON object response (`{}`: cancel-all-orders; the local venue answers logout and key changes with it too). */
export type WireEmptyResponse = Readonly<Record<string, never>>;
