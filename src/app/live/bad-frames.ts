import type { Observable, Subscription } from 'rxjs';
import type { MmError } from '../../core/errors.ts';
import type { Logger } from '../../obs/logger.ts';

/** Bad frames seen on one stream, by kind. */
export interface BadFrameTally {
  /** Frames skipped per kind (`<json path with indices folded>: <reason>`). */
  readonly byKind: ReadonlyMap<string, number>;
  /** Every bad frame counted. */
  readonly total: number;
}

/** A subscription that also reports what it counted. */
export interface BadFrameLog extends Subscription {
  tally(): BadFrameTally;
}

/**
 * The kind of a skipped frame: where decoding failed (array indices folded) and what was expected
 * there, without the offending value (so a thousand different garbage frames are a handful of kinds).
 */
export function badFrameKind(e: MmError): string {
  const path = typeof e.details['path'] === 'string' ? e.details['path'].replace(/\[\d+\]/g, '[]') : '$';
  const why = e.message
    .replace(/^.*? skipped: /, '')
    .replace(/^\$[^:]*: /, '')
    .replace(/^\$[^:]*: /, '')
    .replace(/, got .*$/s, '')
    .replace(/\d+/g, 'N')
    .slice(0, 80);
  return `${path}: ${why}`;
}

/**
 * Counts every frame a client skipped (DECODE_FAILED: malformed, or naming what it cannot map) and logs the first
 * of each kind once, with a sample of the frame: a venue sending garbage is visible in the log
 * without one line per frame. The counts also reach Prometheus through the clients' stats.
 */
export function logBadFrames(errors$: Observable<MmError>, stream: string, log: Logger): BadFrameLog {
  const byKind = new Map<string, number>();
  let total = 0;
  const sub = errors$.subscribe((e) => {
    // The streams also report refusals (a subscription or an upgrade the venue refused): rare, each logged.
    if (e.code !== 'DECODE_FAILED') {
      log.warn({ stream, code: e.code, details: e.details }, `${stream}: ${e.message}`);
      return;
    }
    total++;
    const kind = badFrameKind(e);
    const n = (byKind.get(kind) ?? 0) + 1;
    byKind.set(kind, n);
    if (n === 1) {
      log.warn({ stream, kind, frame: e.details['frame'] }, `${stream}: bad frame skipped (${kind}); further frames of this kind are counted, not logged`);
    }
  }) as BadFrameLog;
  sub.tally = () => ({ byKind, total });
  return sub;
}
