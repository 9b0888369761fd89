import { Subscription, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { Symbol } from '../core/ids.ts';
import type { MarketEvent, OrderEvent } from '../domain/events.ts';
import type { Order } from '../domain/order.ts';
import type { FundingSettlement } from '../domain/funding.ts';
import { OwnOrderBook } from './own-orders.ts';
import type { RecordingSink, RecordingStats } from './writer.ts';

/** What the recorder listens to: the market-data client's streams (structurally typed, no client import). */
export interface RecorderInputs {
  /** Books (full or delta), trades, tickers; candles are ignored. */
  readonly market$: Observable<MarketEvent>;
  /** Market-data connection state; a drop followed by a reconnect is written as a gap. */
  readonly connection$: Observable<{ readonly connected: boolean; readonly tsRecv: number; readonly reason?: string }>;
  /** Funding settlements as they become known (e.g. a REST poller). */
  readonly funding$?: Observable<FundingSettlement>;
  /**
   * The recording bot's own order events (a daemon recording while it trades): its working orders
   * are written as `o` lines after each change, so a replay can take them out of the recorded queue.
   */
  readonly orders$?: Observable<OrderEvent>;
  /** Open-order snapshots from reconciliation (after an order-stream reconnect), rebuilding the above. */
  readonly resync$?: Observable<readonly Order[]>;
}

/** A running recorder. */
export interface Recorder {
  /** Unsubscribes and closes the file; resolves with what was written. */
  stop(): Promise<Readonly<RecordingStats>>;
}

/**
 * Writes everything the market-data streams deliver into a recording sink, marking reconnects as
 * gaps (from the last receive before the drop to the reconnect), after which each book is stored as
 * a snapshot again. Never sits in the trading hot path: it only subscribes.
 */
export function startRecorder(sink: RecordingSink, inputs: RecorderInputs, clock: Clock): Recorder {
  const subs = new Subscription();
  let lastRecv = clock.nowMs();
  let downSince: number | null = null;
  let downReason = '';
  let everUp = false;
  subs.add(
    inputs.market$.subscribe((ev) => {
      if (ev.type === 'candle') return;
      // Receive times never go back in a recording (readers reject it): clamp rare reorderings.
      if (ev.tsRecv < lastRecv) return sink.write({ ...ev, tsRecv: lastRecv });
      lastRecv = ev.tsRecv;
      sink.write(ev);
    }),
  );
  subs.add(
    inputs.connection$.subscribe((c) => {
      if (!c.connected) {
        if (everUp && downSince === null) {
          downSince = lastRecv;
          downReason = c.reason ?? 'disconnected';
        }
        return;
      }
      if (downSince !== null) {
        const to = Math.max(c.tsRecv, downSince);
        sink.gap(null, downSince, to, `reconnect: ${downReason}`);
        lastRecv = to;
        downSince = null;
      }
      everUp = true;
    }),
  );
  if (inputs.funding$) {
    subs.add(
      inputs.funding$.subscribe((settlement) => {
        const now = Math.max(clock.nowMs(), lastRecv);
        lastRecv = now;
        sink.write({ type: 'funding', settlement, tsEvent: settlement.tsEvent, tsRecv: now });
      }),
    );
  }
  if (inputs.orders$) {
    const own = new OwnOrderBook();
    const emit = (symbol: Symbol, tsEvent: number, tsRecv: number): void => {
      if (sink.symbols && !sink.symbols.has(symbol)) return;
      const t = Math.max(tsRecv, lastRecv);
      lastRecv = t;
      sink.write({ type: 'own', symbol, ...own.levels(symbol), tsEvent, tsRecv: t });
    };
    subs.add(
      inputs.orders$.subscribe((ev) => {
        const symbol = own.apply(ev);
        if (symbol !== null) emit(symbol, ev.tsEvent, ev.tsRecv);
      }),
    );
    if (inputs.resync$) {
      subs.add(
        inputs.resync$.subscribe((open) => {
          const now = clock.nowMs();
          for (const symbol of own.reset(open)) emit(symbol, now, now);
        }),
      );
    }
  }
  return {
    async stop() {
      subs.unsubscribe();
      await sink.close();
      return sink.stats;
    },
  };
}
