import { MmError, type ErrorCode } from '../core/errors.ts';

/** How the engine reads a failed request. */
export type FailureKind =
  /** The venue said no: final. */
  | 'rejected'
  /** Nothing was done (not connected, throttled): safe to try again later. */
  | 'not-sent'
  /** We do not know whether the venue acted: ask it (status / open orders). */
  | 'unknown'
  /** A cancel arrived before the venue acknowledged the order (409): retry after the ack. */
  | 'not-acked';

/** A classified failure with its code and the venue's reason when given. */
export interface Failure {
  readonly kind: FailureKind;
  readonly code: ErrorCode | null;
  readonly reason: string;
  readonly text: string;
}

const NOT_SENT: ReadonlySet<ErrorCode> = new Set(['DISCONNECTED', 'RATE_LIMITED', 'VENUE_UNAVAILABLE']);

/**
 * Classifies a gateway error. DISCONNECTED/429/503 mean nothing was done; TIMEOUT, network
 * errors, 500 and 504 leave the outcome unknown; anything that is not an MmError is treated as
 * unknown too (never guess that an order does not exist).
 */
export function classifyFailure(err: unknown): Failure {
  if (!(err instanceof MmError)) return { kind: 'unknown', code: null, reason: 'UNEXPECTED', text: err instanceof Error ? err.message : String(err) };
  const d = err.details;
  // A 404 on an order operation without a venue reason ("no matching orders") means the order it
  // names is gone, typically filled or cancelled while the request was in flight.
  const reason = typeof d['reason'] === 'string' ? d['reason'] : d['status'] === 404 ? 'ORDER_NOT_FOUND' : err.code;
  if (err.code === 'NOT_YET_ACKNOWLEDGED') return { kind: 'not-acked', code: err.code, reason, text: err.message };
  if (NOT_SENT.has(err.code)) return { kind: 'not-sent', code: err.code, reason, text: err.message };
  if (err.kind === 'retryable') return { kind: 'unknown', code: err.code, reason, text: err.message };
  return { kind: 'rejected', code: err.code, reason, text: err.message };
}

/** Venue reject reasons that are races we expect, not signs of trouble (kept out of the reject storm). */
export const BENIGN_REJECTS: ReadonlySet<string> = new Set(['ORIGINAL_ORDER_TERMINATED', 'CANCEL_REJECTED', 'NOT_FOUND', 'ORDER_NOT_FOUND']);
