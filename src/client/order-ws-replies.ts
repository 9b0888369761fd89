/**
 * Reading order-WS reply results into domain values. A reply does not say which request it answers
 * (only the rid does), so the decoder accepts any result shape; each reader here checks the member
 * its request needs and fails with DECODE_FAILED naming the path when it is missing.
 */
import { MmError } from '../core/errors.ts';
import type { VenueOrderId } from '../core/ids.ts';
import type { FundingEstimate } from '../domain/funding.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import type { Order, OrderStatus } from '../domain/order.ts';
import type { OrderOp } from './order-errors.ts';
import { mapFundingEstimate, mapOrder, mapOrderStatus, unwrap } from './wire-port.ts';

/** The (new) order id of a place or replace reply. @throws MmError DECODE_FAILED without `oid`. */
export function replyOrderId(res: unknown, op: OrderOp): VenueOrderId {
  const oid = (res as { oid?: unknown } | null)?.oid;
  if (typeof oid !== 'string') throw new MmError('DECODE_FAILED', `${op} reply without an oid`, { path: '$.res.oid', op });
  return oid as VenueOrderId;
}

/** A cancel reply's `cxl_rx`: accepted for processing (not done). */
export const replyCancelAccepted = (res: unknown): boolean => (res as { cxl_rx?: unknown }).cxl_rx === true;

/** The order status of a status reply. @throws MmError DECODE_FAILED */
export const replyStatus = (res: unknown): OrderStatus => unwrap(mapOrderStatus((res as { status?: unknown }).status));

/** The open orders of an open-orders reply, prices in ticks. @throws MmError DECODE_FAILED */
export function replyOpenOrders(res: unknown, instruments: InstrumentCatalog): Order[] {
  const orders = (res as { orders?: unknown }).orders;
  if (!Array.isArray(orders)) throw new MmError('DECODE_FAILED', 'open-orders reply without an orders array', { path: '$.res.orders' });
  return orders.map((w) => unwrap(mapOrder(w, instruments)));
}

/** The estimate of an estimated-funding reply. @throws MmError DECODE_FAILED */
export const replyFundingEstimate = (res: unknown): FundingEstimate => unwrap(mapFundingEstimate(res));
