import { Subject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { Decimal } from '../core/decimal.ts';
import { INDEX_PRICE_SOURCE, type PriceObserved } from '../domain/events.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { RestClient } from '../client/index.ts';

/** A running REST poll of the venue's index (underlying) prices. */
export interface IndexPoller {
  /** Each symbol's index price whenever it changes (source `index`), in the symbol's ticks. */
  readonly prices$: Observable<PriceObserved>;
  stop(): void;
}

/**
 * Polls `/api/underlying-prices` (newest row) for each instrument every `pollMs` (0 = never) and
 * emits the price as a `price` market event with source `index` when its time or value changes. The
 * market-data stream carries no index price, so the engine (`ctx.indexTicks`) and recorders learn
 * it this way; recordings store it as `x` lines and backtests replay it.
 */
export function pollIndexPrices(
  rest: Pick<RestClient, 'underlyingPrices'>,
  instruments: readonly Instrument[],
  o: { readonly clock: Clock; readonly pollMs: number; readonly onError: (symbol: string, e: unknown) => void },
): IndexPoller {
  const prices$ = new Subject<PriceObserved>();
  const last = new Map<string, { tsMs: number; price: string }>();
  let cancel: (() => void) | undefined;
  let stopped = false;
  const poll = async (): Promise<void> => {
    for (const inst of instruments) {
      try {
        const r = await rest.underlyingPrices({ symbol: inst.symbol, limit: 1, sort_ts: 'desc' });
        const row = r.underlying_prices[0];
        if (!row || stopped) continue;
        const tsMs = Date.parse(row.timestamp);
        const seen = last.get(inst.symbol);
        if (!Number.isFinite(tsMs) || (seen && seen.tsMs === tsMs && seen.price === row.price)) continue;
        last.set(inst.symbol, { tsMs, price: row.price });
        const priceTicks = new Decimal(row.price).div(inst.grid.tickSize).toNumber();
        prices$.next({ type: 'price', symbol: inst.symbol, source: INDEX_PRICE_SOURCE, priceTicks, tsEvent: tsMs, tsRecv: o.clock.nowMs() });
      } catch (e) {
        o.onError(inst.symbol, e);
      }
    }
  };
  const arm = (): void => {
    if (o.pollMs > 0 && !stopped) cancel = o.clock.setTimer(o.pollMs, () => void poll().finally(arm));
  };
  if (o.pollMs > 0) void poll().finally(arm);
  return {
    prices$,
    stop() {
      stopped = true;
      cancel?.();
      prices$.complete();
    },
  };
}
