import { merge, type Observable } from 'rxjs';
import { startReferenceFeed, type ReferenceFeed, type RestClient } from '../../client/index.ts';
import type { BotConfig } from '../../config/index.ts';
import type { Clock } from '../../core/clock.ts';
import type { PriceObserved } from '../../domain/events.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { Logger } from '../../obs/logger.ts';
import { pollIndexPrices } from '../index-poller.ts';
import { wasDroppedRead } from './dropped-read.ts';

/** Prices from outside the venue's books: the index poller and the configured reference feeds. */
export interface OutsidePrices {
  /** Every index and reference price, as `price` market events (merge into the engine's market$ and the recorder's). */
  readonly prices$: Observable<PriceObserved>;
  stop(): Promise<void>;
}

/**
 * Starts the venue index poller (`bot.index_poll_ms`, for every traded symbol) and each
 * `reference_feeds` entry. Feed errors (a bad line, a dropped socket) are logged at warn, at most
 * once per feed and minute, and never stop the daemon.
 */
export function startOutsidePrices(config: BotConfig, rest: Pick<RestClient, 'underlyingPrices'>, instruments: InstrumentCatalog, clock: Clock, log: Logger): OutsidePrices {
  const symbols = [...new Set(config.bot.strategies.flatMap((s) => s.symbols))];
  const lastWarn = new Map<string, number>();
  const warn = (key: string, msg: string): void => {
    const now = clock.nowMs();
    if (now - (lastWarn.get(key) ?? -Infinity) < 60_000) return;
    lastWarn.set(key, now);
    log.warn({ feed: key }, msg);
  };
  const index = pollIndexPrices(rest, symbols.map((s) => instruments.get(s)!), {
    clock,
    pollMs: config.bot.index_poll_ms,
    onError: (symbol, e) => {
      // A read the executor removed (the engine stopping, or a newer read superseding it) is not a failure.
      if (wasDroppedRead(e)) {
        log.debug({ feed: `index:${symbol}` }, `index price poll for ${symbol} not sent: ${(e as Error).message}`);
        return;
      }
      warn(`index:${symbol}`, `index price poll for ${symbol} failed: ${e instanceof Error ? e.message : String(e)}`);
    },
  });
  const feeds: ReferenceFeed[] = config.reference_feeds.map((f) =>
    startReferenceFeed(
      {
        name: f.name,
        instrument: instruments.get(f.symbol)!,
        source: 'file' in f.source ? { file: f.source.file, pollMs: f.source.poll_ms } : { ws: f.source.ws, subscribe: f.source.subscribe, reconnectMs: f.source.reconnect_ms },
      },
      clock,
      (msg) => warn(f.name, msg),
    ),
  );
  return {
    prices$: merge(index.prices$, ...feeds.map((f) => f.prices$)),
    async stop() {
      index.stop();
      await Promise.all(feeds.map((f) => f.stop()));
    },
  };
}
