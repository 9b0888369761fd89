/** Every wire type, by message family. */
export type * from './common.ts';
export { isUnknownEnum, enumRaw } from './common.ts';
export {
  WIRE_SIDES,
  WIRE_TIFS,
  WIRE_REPRICE,
  WIRE_STP,
  WIRE_ORDER_STATES,
  WIRE_REJECT_REASONS,
  WIRE_INSTRUMENT_STATES,
  WIRE_CATEGORIES,
  WIRE_MD_LEVELS,
  WIRE_CANDLE_WIDTHS,
  WIRE_FUNDING_STATUSES,
  WIRE_SLOT_STATUSES,
  WIRE_FUNDING_VARIANTS,
  WIRE_TRANSACTION_TYPES,
  WIRE_FUNDING_TX_TYPES,
  WIRE_PAYOUT_STATUSES,
  WIRE_SORT_TS,
} from './common.ts';
export type * from './order.ts';
export type * from './funding.ts';
export type * from './market.ts';
export type * from './instrument.ts';
export type * from './order-ws.ts';
export type * from './md-ws.ts';
export type * from './rest-auth.ts';
export type * from './rest-orders.ts';
export type * from './rest-portfolio.ts';
export type * from './rest-market.ts';
export type * from './rest-rewards.ts';
