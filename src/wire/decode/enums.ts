/** Enum decoders for every venue enum (unknown values kept as `{ unknown: 'RAW' }`). */
import {
  WIRE_CATEGORIES,
  WIRE_FUNDING_STATUSES,
  WIRE_FUNDING_TX_TYPES,
  WIRE_FUNDING_VARIANTS,
  WIRE_INSTRUMENT_STATES,
  WIRE_MD_LEVELS,
  WIRE_ORDER_STATES,
  WIRE_PAYOUT_STATUSES,
  WIRE_REJECT_REASONS,
  WIRE_REPRICE,
  WIRE_SIDES,
  WIRE_SLOT_STATUSES,
  WIRE_SORT_TS,
  WIRE_STP,
  WIRE_TIFS,
  WIRE_TRANSACTION_TYPES,
} from '../types/common.ts';
import { enumOf } from './kit.ts';

/** `B`/`S`. */
export const side = enumOf(WIRE_SIDES, 'side B/S');
/** `GTC`/`IOC`/`DAY` (DAY deprecated but accepted). */
export const tif = enumOf(WIRE_TIFS, 'time in force');
/** `rej`/`bo`/`tbl`. */
export const reprice = enumOf(WIRE_REPRICE, 'reprice behaviour');
/** Self-trade prevention incl. aliases. */
export const stp = enumOf(WIRE_STP, 'self-trade prevention');
/** Order state. */
export const orderState = enumOf(WIRE_ORDER_STATES, 'order state');
/** Reject reason. */
export const rejectReason = enumOf(WIRE_REJECT_REASONS, 'reject reason');
/** Instrument state. */
export const instrumentState = enumOf(WIRE_INSTRUMENT_STATES, 'instrument state');
/** Instrument category. */
export const category = enumOf(WIRE_CATEGORIES, 'category');
/** MD level. */
export const mdLevel = enumOf(WIRE_MD_LEVELS, 'market-data level');
/** Estimated funding status. */
export const fundingStatus = enumOf(WIRE_FUNDING_STATUSES, 'funding status');
/** Funding slot status. */
export const slotStatus = enumOf(WIRE_SLOT_STATUSES, 'slot status');
/** Funding variant. */
export const fundingVariant = enumOf(WIRE_FUNDING_VARIANTS, 'funding variant');
/** Ledger transaction type. */
export const transactionType = enumOf(WIRE_TRANSACTION_TYPES, 'transaction type');
/** Funding transaction type. */
export const fundingTxType = enumOf(WIRE_FUNDING_TX_TYPES, 'funding transaction type');
/** Reward payout status. */
export const payoutStatus = enumOf(WIRE_PAYOUT_STATUSES, 'payout status');
/** `asc`/`desc`. */
export const sortTs = enumOf(WIRE_SORT_TS, 'sort direction');
