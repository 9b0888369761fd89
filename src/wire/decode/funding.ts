/** Funding decoders: estimated funding, funding-rate records, funding-slot reports. */
import type { WireEstimatedFunding, WireFundingRate, WireFundingSlot, WireFundingSlotsReport } from '../types/funding.ts';
import { fundingStatus, fundingVariant, slotStatus } from './enums.ts';
import { arrayOf, nullable, obj, optNull } from './kit.ts';
import { bigIntNumber, bool, date, dateTime, dec, str, uint, int } from './scalars.ts';

/** Estimated funding (`ef`). */
export const readEstimatedFunding = obj<WireEstimatedFunding>(
  {
    symbol: str,
    status: fundingStatus,
    timestamp: dateTime,
    funding_rate: optNull(dec),
    funding_amount: optNull(dec),
    benchmark_price: optNull(dec),
    settlement_price: optNull(dec),
    reason: optNull(str),
  },
  'estimated funding object',
);

/** A funding-rate record. */
export const readFundingRate = obj<WireFundingRate>(
  {
    symbol: str,
    timestamp_ns: bigIntNumber,
    funding_rate: dec,
    funding_amount: nullable(dec),
    benchmark_price: nullable(dec),
    settlement_price: dec,
  },
  'funding rate object',
);

const readSlot = obj<WireFundingSlot>(
  {
    index: uint,
    funding_time: dateTime,
    status: slotStatus,
    mark_twap: nullable(dec),
    underlying_twap: nullable(dec),
    premium_bps: nullable(dec),
    funding_rate_bps: nullable(dec),
    capped: bool,
    reason: optNull(str),
  },
  'funding slot object',
);

/** A funding-slots report. */
export const readFundingSlotsReport = obj<WireFundingSlotsReport>(
  {
    symbol: str,
    date,
    timezone: str,
    variant: fundingVariant,
    interval_count: uint,
    slot_interval_minutes: optNull(int),
    cap_bps: optNull(dec),
    slots: arrayOf(readSlot),
    realized_sum_bps: dec,
    projected_eod_bps: dec,
  },
  'funding slots report',
);
