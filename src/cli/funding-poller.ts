import { Subject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { FundingSettlement } from '../domain/funding.ts';
import type { RestClient } from '../client/index.ts';

/** A running REST poll of funding settlements. */
export interface FundingPoller {
  /** Each settlement once, oldest first, as it is seen. */
  readonly funding$: Observable<FundingSettlement>;
  stop(): void;
}

/**
 * Polls `/api/funding-rates` for `symbols` every `pollMs` (0 = never) and emits each settlement at or
 * after `sinceMs` once, oldest first. The market-data stream carries no settlement event, so
 * recorders (`mmbot record`, the daemon's `recording:`) learn of settlements this way.
 */
export function pollFundingSettlements(
  rest: Pick<RestClient, 'allFundingRates'>,
  symbols: readonly string[],
  o: { readonly clock: Clock; readonly sinceMs: number; readonly pollMs: number; readonly onError: (symbol: string, e: unknown) => void },
): FundingPoller {
  const funding$ = new Subject<FundingSettlement>();
  const startNs = String(BigInt(Math.floor(o.sinceMs)) * 1_000_000n);
  const lastSeen = new Map<string, number>();
  let cancel: (() => void) | undefined;
  let stopped = false;
  const poll = async (): Promise<void> => {
    for (const symbol of symbols) {
      try {
        // The venue pages newest first: collect, then emit the unseen ones in time order.
        const fresh: FundingSettlement[] = [];
        for await (const f of rest.allFundingRates({ symbol, start_timestamp_ns: startNs })) {
          if (f.tsEvent > (lastSeen.get(symbol) ?? -Infinity)) fresh.push(f);
        }
        fresh.sort((a, b) => a.tsEvent - b.tsEvent);
        for (const f of fresh) {
          lastSeen.set(symbol, f.tsEvent);
          if (!stopped) funding$.next(f);
        }
      } catch (e) {
        o.onError(symbol, e);
      }
    }
  };
  const arm = (): void => {
    if (o.pollMs > 0 && !stopped) cancel = o.clock.setTimer(o.pollMs, () => void poll().finally(arm));
  };
  arm();
  return {
    funding$,
    stop() {
      stopped = true;
      cancel?.();
      funding$.complete();
    },
  };
}
