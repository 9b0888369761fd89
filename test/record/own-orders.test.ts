import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { asAccountId, asClientOrderId, asExecutionId, asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import type { MarketEvent, OrderEvent } from '../../src/domain/events.ts';
import type { Order } from '../../src/domain/order.ts';
import { startRecorder, type RecordedEvent, type RecordingGap, type RecordingSink, type RecordingStats } from '../../src/record/index.ts';

const S = asSymbol('EURUSD-PERP');
const order = (id: string, side: 'buy' | 'sell', priceTicks: number, qty: number, filled = 0, state: Order['state'] = 'ACCEPTED'): Order => ({
  orderId: asVenueOrderId(id), clientOrderId: asClientOrderId(1), accountId: asAccountId('a'), userId: null, symbol: S, side, priceTicks, qty,
  filledQty: filled, remainingQty: qty - filled, state, tif: 'GTC', postOnly: true, reprice: 'rej', tag: null, rejectReason: null, text: null, createdMs: 0,
});
const e = { executionId: asExecutionId('E-1') };

/** An in-memory sink recording what the recorder writes. */
function memorySink(symbols?: string[]): RecordingSink & { lines: (RecordedEvent | MarketEvent)[] } {
  const lines: (RecordedEvent | MarketEvent)[] = [];
  const stats: RecordingStats = { events: 0, books: 0, snapshots: 0, trades: 0, tickers: 0, fundings: 0, gaps: 0, ownOrders: 0, roundTrips: 0, executions: 0, prices: 0 };
  return {
    lines,
    stats,
    ...(symbols ? { symbols: new Set(symbols) } : {}),
    write: (ev) => void lines.push(ev),
    gap: (symbol, from, to, reason) => void lines.push({ type: 'gap', symbol, tsEvent: from, tsRecv: to, reason } satisfies RecordingGap),
    close: async () => undefined,
  };
}

describe('recording the bot\'s own working orders', () => {
  it('writes the aggregated working orders after every change, at the order event\'s venue time', async () => {
    const sink = memorySink(['EURUSD-PERP']);
    const orders$ = new Subject<OrderEvent>();
    const resync$ = new Subject<readonly Order[]>();
    const clock = new VirtualClock(100);
    const rec = startRecorder(sink, { market$: new Subject(), connection$: new Subject(), orders$, resync$ }, clock);
    orders$.next({ type: 'accepted', order: order('O-1', 'buy', 1000, 200), ...e, tsEvent: 101, tsRecv: 102 });
    orders$.next({ type: 'accepted', order: order('O-2', 'buy', 1000, 100), ...e, tsEvent: 103, tsRecv: 104 });
    orders$.next({ type: 'accepted', order: order('O-3', 'sell', 1004, 100), ...e, tsEvent: 105, tsRecv: 106 });
    orders$.next({ type: 'filled', order: order('O-1', 'buy', 1000, 200, 50, 'PARTIALLY_FILLED'), partial: true, tradeId: 'T', fillPriceTicks: 1000, fillQty: 50, fillSide: 'buy', aggressor: false, ...e, tsEvent: 107, tsRecv: 108 });
    orders$.next({ type: 'replaced', original: order('O-3', 'sell', 1004, 100, 0, 'REPLACED'), replacement: order('O-4', 'sell', 1003, 100), newOrderId: asVenueOrderId('O-4'), ...e, tsEvent: 109, tsRecv: 110 });
    orders$.next({ type: 'canceled', order: order('O-2', 'buy', 1000, 100, 0, 'CANCELED'), reason: '', text: '', ...e, tsEvent: 111, tsRecv: 112 });
    orders$.next({ type: 'cancel-rejected', orderId: asVenueOrderId('O-9'), clientOrderId: null, reason: 'ORDER_NOT_FOUND', text: '', order: null, tsEvent: 113, tsRecv: 114 });
    clock.advanceTo(200);
    resync$.next([order('O-7', 'sell', 1010, 300)]);
    await rec.stop();
    const own = sink.lines.filter((l) => l.type === 'own');
    const levels = (l: RecordedEvent | MarketEvent) => (l.type === 'own' ? [l.bids.map((b) => [b.priceTicks, b.qty]), l.asks.map((a) => [a.priceTicks, a.qty]), l.tsEvent, l.tsRecv] : null);
    expect(own.map(levels)).toEqual([
      [[[1000, 200]], [], 101, 102],
      [[[1000, 300]], [], 103, 104],
      [[[1000, 300]], [[1004, 100]], 105, 106],
      [[[1000, 250]], [[1004, 100]], 107, 108],
      [[[1000, 250]], [[1003, 100]], 109, 110],
      [[[1000, 150]], [[1003, 100]], 111, 112],
      [[], [[1010, 300]], 200, 200], // reconciliation replaces everything
    ]);
  });

  it('skips symbols the recording does not hold', () => {
    const sink = memorySink(['XAU-PERP']);
    const orders$ = new Subject<OrderEvent>();
    startRecorder(sink, { market$: new Subject(), connection$: new Subject(), orders$ }, new VirtualClock(0));
    orders$.next({ type: 'accepted', order: order('O-1', 'buy', 1000, 200), ...e, tsEvent: 1, tsRecv: 2 });
    expect(sink.lines).toEqual([]);
  });
});

describe('recording the bot\'s session: execution reports (x) and round trips (q)', () => {
  it('writes every order event as an execution report before the working orders it changed, and each round trip', async () => {
    const sink = memorySink(['EURUSD-PERP']);
    const orders$ = new Subject<OrderEvent>();
    const roundTrips$ = new Subject<{ op: 'place' | 'status'; symbol: typeof S | null; ms: number; ok: boolean; tsMs: number }>();
    const rec = startRecorder(sink, { market$: new Subject(), connection$: new Subject(), orders$, roundTrips$ }, new VirtualClock(0));
    roundTrips$.next({ op: 'place', symbol: S, ms: 2.5, ok: true, tsMs: 102 });
    orders$.next({ type: 'accepted', order: order('O-1', 'buy', 1000, 200), ...e, tsEvent: 101, tsRecv: 102 });
    orders$.next({ type: 'filled', order: order('O-1', 'buy', 1000, 200, 50, 'PARTIALLY_FILLED'), partial: true, tradeId: 'T-1', fillPriceTicks: 1000, fillQty: 50, fillSide: 'buy', aggressor: false, ...e, tsEvent: 107, tsRecv: 108 });
    orders$.next({ type: 'cancel-rejected', orderId: asVenueOrderId('O-9'), clientOrderId: null, reason: 'ORDER_NOT_FOUND', text: '', order: null, tsEvent: 109, tsRecv: 110 });
    roundTrips$.next({ op: 'status', symbol: null, ms: 4, ok: false, tsMs: 105 }); // answered "earlier" than the last line: clamped, ms kept
    await rec.stop();
    expect(sink.lines.map((l) => l.type)).toEqual(['round-trip', 'execution', 'own', 'execution', 'own', 'round-trip']);
    expect(sink.lines[0]).toEqual({ type: 'round-trip', symbol: S, op: 'place', ms: 2.5, ok: true, tsEvent: 99.5, tsRecv: 102 });
    expect(sink.lines[3]).toEqual({
      type: 'execution', symbol: S, kind: 'filled', orderId: 'O-1', side: 'buy', priceTicks: 1000, qty: 200,
      fill: { priceTicks: 1000, qty: 50, aggressor: false, tradeId: 'T-1' }, tsEvent: 107, tsRecv: 108,
    });
    expect(sink.lines[5]).toMatchObject({ op: 'status', symbol: null, ms: 4, ok: false, tsEvent: 101, tsRecv: 108 });
  });
});
