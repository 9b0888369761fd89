/**
 * The error-code catalog. Every error mmbot raises or reports carries one of these stable codes.
 * Kinds: `retryable` (try again later: rate limit, timeout, maintenance), `reject` (final: the
 * venue or our risk layer said no, or a message was malformed), `config` (bad user input: config
 * file, CLI flag, recording), `invariant` (a bug: the daemon restarts into reconciliation).
 * Documented in docs/errors.md; test/core/errors.test.ts keeps the two in step.
 */
export type ErrorKind = 'retryable' | 'reject' | 'config' | 'invariant';

export const ERROR_CATALOG = {
  RATE_LIMITED: { kind: 'retryable', summary: 'the venue answered 429 or our limiter has no budget' },
  VENUE_UNAVAILABLE: { kind: 'retryable', summary: 'the venue answered 503 or is in maintenance' },
  GATEWAY_TIMEOUT: { kind: 'retryable', summary: 'the venue answered 504' },
  SERVER_ERROR: { kind: 'retryable', summary: 'the venue answered 500' },
  TIMEOUT: { kind: 'retryable', summary: 'no reply within the deadline; the outcome is unknown' },
  DISCONNECTED: { kind: 'retryable', summary: 'the socket is not connected; nothing was sent' },
  NETWORK_ERROR: { kind: 'retryable', summary: 'a transport error (reset, refused, DNS)' },
  NOT_YET_ACKNOWLEDGED: { kind: 'retryable', summary: 'cancel before the venue acknowledged the order (409)' },
  BACKEND_UNAVAILABLE: { kind: 'retryable', summary: 'the research job backend (Redis) cannot be reached; its URL is named' },
  UNAUTHORIZED: { kind: 'reject', summary: 'missing, invalid, expired or revoked token (401)' },
  FORBIDDEN: { kind: 'reject', summary: 'the key or user lacks the permission or account (403)' },
  BAD_REQUEST: { kind: 'reject', summary: 'the venue rejected the request as invalid (400)' },
  NOT_FOUND: { kind: 'reject', summary: 'unknown order, symbol or resource (404)' },
  ORDER_REJECTED: { kind: 'reject', summary: 'the venue rejected an order; the reject reason is kept' },
  CANCEL_REJECTED: { kind: 'reject', summary: 'the venue could not cancel an order (e.g. ORDER_NOT_FOUND)' },
  RISK_REJECTED: { kind: 'reject', summary: 'our pre-trade risk checks refused an intent' },
  JOB_REFUSED: { kind: 'reject', summary: 'a research worker refused a job planned by other code, for other data or another strategy module file' },
  DECODE_FAILED: { kind: 'reject', summary: 'a message did not match the wire protocol; the JSON path is named' },
  RESPONSE_TOO_LARGE: { kind: 'reject', summary: 'a REST response body is over the configured cap; the request and the cap are named' },
  CONFIG_INVALID: { kind: 'config', summary: 'a config file failed validation; file, path and value are named' },
  CONFIG_ENV_MISSING: { kind: 'config', summary: 'a ${ENV_VAR} reference in a config is not set' },
  FILE_NOT_FOUND: { kind: 'config', summary: 'a file named by the user does not exist or cannot be read (or, for an output, written)' },
  OUTPUT_IN_USE: { kind: 'config', summary: 'an output folder holds another run (a sweep plan or journal); --force replaces it' },
  USAGE: { kind: 'config', summary: 'a CLI command or flag is unknown or malformed' },
  STRATEGY_INVALID: { kind: 'config', summary: 'a strategy is unknown, fails to load or has bad parameters' },
  RECORDING_INVALID: { kind: 'config', summary: 'a recording file is malformed; file and line are named' },
  INVARIANT_BROKEN: { kind: 'invariant', summary: 'internal state contradicts itself; a bug' },
  ILLEGAL_TRANSITION: { kind: 'invariant', summary: 'an order moved between states the venue forbids' },
} as const satisfies Record<string, { kind: ErrorKind; summary: string }>;

/** A stable error code from the catalog. */
export type ErrorCode = keyof typeof ERROR_CATALOG;

/** The kind of a code. */
export const errorKind = (code: ErrorCode): ErrorKind => ERROR_CATALOG[code].kind;

/** True when an operation that failed with `code` may be tried again. */
export const isRetryable = (code: ErrorCode): boolean => ERROR_CATALOG[code].kind === 'retryable';

/** The one error class mmbot throws and reports. `details` carries structured context. */
export class MmError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MmError';
    this.code = code;
    this.kind = ERROR_CATALOG[code].kind;
    this.details = Object.freeze({ ...details });
  }

  /** True when the failed operation may be tried again. */
  get retryable(): boolean {
    return this.kind === 'retryable';
  }
}

/** Maps an HTTP status (REST or WS `err.code`) to a catalog code. */
export function codeForHttpStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'NOT_YET_ACKNOWLEDGED';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'VENUE_UNAVAILABLE';
    case 504:
      return 'GATEWAY_TIMEOUT';
    default:
      return status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST';
  }
}
