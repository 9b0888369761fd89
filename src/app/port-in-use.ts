import { MmError, type ErrorCode } from '../core/errors.ts';

/** Where a listening port was asked for, for the error that names it. */
export interface PortRequest {
  /** MmError code: CONFIG_INVALID for a config key, USAGE for a flag. */
  readonly code: ErrorCode;
  /** Where the port came from: `file: venue.sim.port`, `--port 9000`. */
  readonly where: string;
  readonly host: string;
  readonly port: number;
  /** Who likely holds it, for the message ("another mmbot?"). */
  readonly likelyHolder: string;
  readonly details?: Record<string, unknown>;
}

/**
 * A listen error as it should reach the user: a taken port (EADDRINUSE) becomes an MmError naming
 * where the port was asked for, instead of a Node stack trace; any other error is returned as is.
 */
export function listenError(e: unknown, r: PortRequest): unknown {
  if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') return e;
  return new MmError(r.code, `${r.where}: ${r.host}:${r.port} is already in use (${r.likelyHolder}); pick another port, or 0 for any free one`, r.details ?? {});
}
