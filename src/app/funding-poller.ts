import { Subject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { Decimal } from '../core/decimal.ts';
import { asSymbol } from '../core/ids.ts';
import type { FundingPayment, FundingSettlement } from '../domain/funding.ts';
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

/** A running REST poll of the funding payments booked on our account. */
export interface FundingPaymentPoller {
  /** Each payment once, oldest first, as it is seen. */
  readonly payments$: Observable<FundingPayment>;
  /** Polls now (tests; the timer keeps running). */
  pollNow(): Promise<void>;
  stop(): void;
}

/** Event ids remembered for dedupe (payments are minutes to hours apart per symbol). */
const MAX_SEEN_PAYMENTS = 10_000;

/**
 * Polls `/api/funding-transactions` every `pollMs` (0 = never) and emits each `funding` row of
 * `symbols` at or after `sinceMs` (venue time) once, oldest first: the cash the venue booked for the
 * position we held at each settlement, which the daemon books into PnL. Mark-to-market and final
 * settlement rows are left out: they realize price moves the engine already marks.
 */
export function pollFundingPayments(
  rest: Pick<RestClient, 'allFundingTransactions'>,
  symbols: readonly string[],
  o: { readonly clock: Clock; readonly sinceMs: number; readonly pollMs: number; readonly onError: (e: unknown) => void },
): FundingPaymentPoller {
  const payments$ = new Subject<FundingPayment>();
  const wanted = new Set(symbols);
  const seen = new Set<string>();
  let fromMs = Math.floor(o.sinceMs);
  let cancel: (() => void) | undefined;
  let stopped = false;
  let inFlight: Promise<void> | null = null;
  const poll = async (): Promise<void> => {
    try {
      const fresh: FundingPayment[] = [];
      const startNs = String(BigInt(fromMs) * 1_000_000n);
      for await (const w of rest.allFundingTransactions({ start_timestamp_ns: startNs })) {
        if (w.transaction_type !== 'funding' || !wanted.has(w.symbol) || seen.has(w.event_id)) continue;
        const tsEvent = Date.parse(w.timestamp);
        if (!Number.isFinite(tsEvent) || tsEvent < o.sinceMs) continue;
        fresh.push({ symbol: asSymbol(w.symbol), eventId: w.event_id, amount: new Decimal(w.amount), tsEvent });
      }
      fresh.sort((a, b) => a.tsEvent - b.tsEvent);
      for (const p of fresh) {
        seen.add(p.eventId);
        if (seen.size > MAX_SEEN_PAYMENTS) seen.delete(seen.values().next().value!);
        // Next polls start a minute before the newest row seen (rows of one instant may page apart).
        fromMs = Math.max(fromMs, p.tsEvent - 60_000);
        if (!stopped) payments$.next(p);
      }
    } catch (e) {
      o.onError(e);
    }
  };
  const pollOnce = (): Promise<void> => {
    inFlight ??= poll().finally(() => (inFlight = null));
    return inFlight;
  };
  const arm = (): void => {
    if (o.pollMs > 0 && !stopped) cancel = o.clock.setTimer(o.pollMs, () => void pollOnce().finally(arm));
  };
  arm();
  return {
    payments$,
    pollNow: pollOnce,
    stop() {
      stopped = true;
      cancel?.();
      payments$.complete();
    },
  };
}
