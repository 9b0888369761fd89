import type { Observable, Subscription } from 'rxjs';
import type { EngineEvent } from '../../engine/index.ts';

/** What `resyncSuspectBooks` needs of the market-data client. */
export interface BookResyncer {
  resyncBook(symbol: string, reason?: string): boolean;
}

/**
 * At the start of each episode of suspect market data, asks the market-data client for a fresh
 * snapshot of that book: when the glitch was in our copy (a frame lost or mangled on the way), the
 * snapshot ends the episode and quoting resumes; when the venue's book really is crossed, the
 * snapshot shows it again and the symbol stays halted. Once per episode, never per book update.
 */
export function resyncSuspectBooks(events$: Observable<EngineEvent>, md: BookResyncer): Subscription {
  return events$.subscribe((e) => {
    if (e.type === 'market-data-suspect' && e.kind !== null) md.resyncBook(e.symbol, `market data suspect (${e.kind})`);
  });
}
