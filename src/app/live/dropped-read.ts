import { MmError } from '../../core/errors.ts';

/**
 * A venue read the executor never sent: removed because the engine is stopping, or superseded by
 * a newer read of the same thing. Pollers log it at debug; it is not a failed read.
 */
export function wasDroppedRead(e: unknown): boolean {
  return e instanceof MmError && (e.details.dropped === 'removed' || e.details.dropped === 'coalesced');
}
