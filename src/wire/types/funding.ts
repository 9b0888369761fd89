/** Funding wire shapes: estimated funding (`ef`), funding-rate records, funding-slot reports. */
import type { DateString, DateTimeString, DecimalString, WireEnum, WireFundingStatus, WireFundingVariant, WireSlotStatus } from './common.ts';

/**
 * The live funding estimate (REST `/api/estimated-funding-rate`, WS `ef` reply, ticker `ef`).
 * The four numbers are populated only when `status` is `ready`.
 */
export interface WireEstimatedFunding {
  readonly symbol: string;
  readonly status: WireEnum<WireFundingStatus>;
  readonly timestamp: DateTimeString;
  readonly funding_rate?: DecimalString | null | undefined;
  readonly funding_amount?: DecimalString | null | undefined;
  readonly benchmark_price?: DecimalString | null | undefined;
  readonly settlement_price?: DecimalString | null | undefined;
  readonly reason?: string | null | undefined;
}

/** One settled funding event (`/api/funding-rates`). `timestamp_ns` is an epoch-ns JSON integer. */
export interface WireFundingRate {
  readonly symbol: string;
  readonly timestamp_ns: number;
  readonly funding_rate: DecimalString;
  readonly funding_amount: DecimalString | null;
  readonly benchmark_price: DecimalString | null;
  readonly settlement_price: DecimalString;
}

/** One slot of a funding-slots report. */
export interface WireFundingSlot {
  readonly index: number;
  readonly funding_time: DateTimeString;
  readonly status: WireEnum<WireSlotStatus>;
  readonly mark_twap: DecimalString | null;
  readonly underlying_twap: DecimalString | null;
  readonly premium_bps: DecimalString | null;
  readonly funding_rate_bps: DecimalString | null;
  readonly capped: boolean;
  /** Present on skipped slots. */
  readonly reason?: string | null | undefined;
}

/** `GET /api/funding-slots` response. */
export interface WireFundingSlotsReport {
  readonly symbol: string;
  readonly date: DateString;
  readonly timezone: string;
  readonly variant: WireEnum<WireFundingVariant>;
  readonly interval_count: number;
  /** Undocumented extra seen in captures (null). */
  readonly slot_interval_minutes?: number | null | undefined;
  readonly cap_bps?: DecimalString | null | undefined;
  readonly slots: readonly WireFundingSlot[];
  readonly realized_sum_bps: DecimalString;
  readonly projected_eod_bps: DecimalString;
}
