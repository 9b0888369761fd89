import { Subscription, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { Symbol } from '../core/ids.ts';
import type { MarketEvent, OrderEvent } from '../domain/events.ts';
import type { Order } from '../domain/order.ts';
import type { FundingSettlement } from '../domain/funding.ts';
import type { OwnExecution, RoundTripOp } from './format.ts';
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
  /**
   * The recording bot's request round trips (the daemon's own measurement), written as `q` lines:
   * a backtest of the recording samples its order latency from them.
   */
  readonly roundTrips$?: Observable<RoundTripSample>;
}

/** One answered request as the daemon measured it. */
export interface RoundTripSample {
  readonly op: RoundTripOp;
  readonly symbol: Symbol | null;
  readonly ms: number;
  readonly ok: boolean;
  /** When the answer came (the bot's clock). */
  readonly tsMs: number;
}

/** An order event as an `x` line (null for events that are not about one of our orders' state: cancel-rejects). */
export function executionOf(ev: OrderEvent): OwnExecution | null {
  const base = (kind: OwnExecution['kind'], o: Order, fill: OwnExecution['fill'] = null): OwnExecution => ({
    type: 'execution',
    symbol: o.symbol,
    kind,
    orderId: o.orderId,
    side: o.side,
    priceTicks: o.priceTicks,
    qty: o.qty,
    fill,
    tsEvent: ev.tsEvent,
    tsRecv: ev.tsRecv,
  });
  switch (ev.type) {
    case 'accepted':
      return base('accepted', ev.order);
    case 'filled':
      return base('filled', ev.order, { priceTicks: ev.fillPriceTicks, qty: ev.fillQty, aggressor: ev.aggressor, tradeId: ev.tradeId });
    case 'canceled':
      return base('canceled', ev.order);
    case 'rejected':
      return base('rejected', ev.order);
    case 'expired':
    case 'done-for-day':
      return base('expired', ev.order);
    case 'replaced':
      return ev.replacement ? base('replaced', ev.replacement) : base('canceled', ev.original);
    case 'cancel-rejected':
      return null;
  }
}

/** A running recorder. */
export interface Recorder {
  /** Unsubscribes and closes the file; resolves with what was written. */
  stop(): Promise<Readonly<RecordingStats>>;
  /** Unsubscribes and gives the file up (a failed run: nothing replaces the path; see RecordingSink.abort). */
  abort(): Promise<void>;
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
        // The execution report first (the ground truth of a parity run), then the working orders it changed.
        const x = executionOf(ev);
        if (x && (!sink.symbols || sink.symbols.has(x.symbol))) {
          const t = Math.max(x.tsRecv, lastRecv);
          lastRecv = t;
          sink.write({ ...x, tsRecv: t });
        }
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
  if (inputs.roundTrips$) {
    subs.add(
      inputs.roundTrips$.subscribe((rt) => {
        if (rt.symbol !== null && sink.symbols && !sink.symbols.has(rt.symbol)) return;
        const t = Math.max(rt.tsMs, lastRecv);
        lastRecv = t;
        sink.write({ type: 'round-trip', symbol: rt.symbol, op: rt.op, ms: Math.max(0, rt.ms), ok: rt.ok, tsEvent: rt.tsMs - Math.max(0, rt.ms), tsRecv: t });
      }),
    );
  }
  return {
    async stop() {
      subs.unsubscribe();
      await sink.close();
      return sink.stats;
    },
    async abort() {
      subs.unsubscribe();
      await (sink.abort ? sink.abort() : sink.close());
    },
  };
}
