import { codeForHttpStatus, MmError, type ErrorCode } from '../core/errors.ts';

/** Where a failed REST call went: kept in `MmError.details` so logs name the request. */
export interface RequestContext {
  readonly method: string;
  readonly path: string;
}

/**
 * The venue's error body: `{"error": "..."}` (docs/venue-protocol.md §2.1); order endpoints may add
 * `reject_reason`/`reject_message`. Anything else is kept verbatim (truncated) as the message.
 */
function venueMessage(bodyText: string): { message: string; rejectReason?: string } {
  try {
    const v: unknown = JSON.parse(bodyText);
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const msg = [o['error'], o['reject_message'], o['message'], o['msg']].find((x) => typeof x === 'string');
      const reason = typeof o['reject_reason'] === 'string' ? o['reject_reason'] : undefined;
      if (typeof msg === 'string' || reason !== undefined) {
        return reason !== undefined ? { message: String(msg ?? reason), rejectReason: reason } : { message: String(msg) };
      }
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return { message: bodyText.slice(0, 500) };
}

/** Maps a non-2xx REST answer to the catalog code with the venue's reason and message in details. */
export function httpError(status: number, bodyText: string, ctx: RequestContext, retryAfterMs?: number, rateLimitPerSec?: number): MmError {
  const code: ErrorCode = codeForHttpStatus(status);
  const { message, rejectReason } = venueMessage(bodyText);
  const details: Record<string, unknown> = { status, method: ctx.method, path: ctx.path, venueMessage: message };
  if (rejectReason !== undefined) details['rejectReason'] = rejectReason;
  if (retryAfterMs !== undefined) details['retryAfterMs'] = retryAfterMs;
  // The execution adapter's AIMD reads both (execution/adaptive-rate.ts).
  if (rateLimitPerSec !== undefined) details['rateLimitPerSec'] = rateLimitPerSec;
  return new MmError(code, `${ctx.method} ${ctx.path} failed with HTTP ${status}: ${message}`, details);
}

/** Maps a transport failure (reset, refused, aborted by our deadline) to NETWORK_ERROR or TIMEOUT. */
export function transportError(cause: unknown, ctx: RequestContext, timedOut: boolean): MmError {
  const msg = cause instanceof Error ? cause.message : String(cause);
  if (timedOut) {
    return new MmError('TIMEOUT', `${ctx.method} ${ctx.path}: no answer within the deadline`, { method: ctx.method, path: ctx.path }, { cause });
  }
  const errCode = (cause as { code?: unknown } | null)?.code;
  return new MmError(
    'NETWORK_ERROR',
    `${ctx.method} ${ctx.path}: transport error: ${msg}`,
    { method: ctx.method, path: ctx.path, ...(typeof errCode === 'string' ? { errno: errCode } : {}) },
    { cause },
  );
}

/** Maps a 2xx body that failed to decode to DECODE_FAILED naming the JSON path. */
export function decodeError(ctx: RequestContext, e: { path: string; message: string }): MmError {
  return new MmError('DECODE_FAILED', `${ctx.method} ${ctx.path}: unexpected response at ${e.path}: ${e.message}`, {
    method: ctx.method,
    path: ctx.path,
    jsonPath: e.path,
  });
}

/** Maps a response body over the cap to RESPONSE_TOO_LARGE naming the request, the cap and the size. */
export function tooLargeError(e: { limitBytes: number; bytes: number; announced: boolean }, ctx: RequestContext): MmError {
  const size = e.announced ? `its content-length is ${e.bytes} bytes` : `more than ${e.limitBytes} bytes arrived (${e.bytes} read, reading stopped)`;
  return new MmError(
    'RESPONSE_TOO_LARGE',
    `${ctx.method} ${ctx.path}: response body over the ${e.limitBytes}-byte cap (venue.max_response_bytes): ${size}`,
    { method: ctx.method, path: ctx.path, limitBytes: e.limitBytes, bytes: e.bytes, announced: e.announced },
  );
}
