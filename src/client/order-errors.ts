import { codeForHttpStatus, MmError, type ErrorCode } from '../core/errors.ts';

/** The order operations whose venue errors get operation-specific codes. */
export type OrderOp = 'place' | 'replace' | 'cancel' | 'cancel-all' | 'status' | 'open-orders' | 'estimated-funding' | 'heartbeat';

/**
 * The catalog code for a venue error on `op`: a 400/404 on a place or replace is the venue
 * refusing the order (ORDER_REJECTED), on a cancel a CANCEL_REJECTED; everything else follows the
 * HTTP mapping (429 RATE_LIMITED, 409 NOT_YET_ACKNOWLEDGED, 503 VENUE_UNAVAILABLE...).
 */
export function orderOpCode(op: OrderOp, status: number): ErrorCode {
  if (status === 400 || status === 404) {
    if (op === 'place' || op === 'replace') return 'ORDER_REJECTED';
    if (op === 'cancel') return 'CANCEL_REJECTED';
  }
  return codeForHttpStatus(status);
}

/** An MmError for a venue error reply on `op`, keeping the venue's code and message in details. */
export function orderOpError(op: OrderOp, status: number, venueMessage: string, details: Record<string, unknown> = {}): MmError {
  return new MmError(orderOpCode(op, status), `${op} refused by the venue (${status}): ${venueMessage}`, {
    ...details,
    op,
    status,
    venueMessage,
  });
}

/**
 * Re-labels a REST failure of an order operation (BAD_REQUEST/NOT_FOUND → ORDER_REJECTED or
 * CANCEL_REJECTED); other errors pass through unchanged.
 */
export function relabelOrderError(op: OrderOp, e: unknown): unknown {
  if (!(e instanceof MmError) || (e.code !== 'BAD_REQUEST' && e.code !== 'NOT_FOUND')) return e;
  const status = typeof e.details['status'] === 'number' ? e.details['status'] : 400;
  const code = orderOpCode(op, status);
  return code === e.code ? e : new MmError(code, e.message, { ...e.details, op }, { cause: e });
}
