/**
 * Drives the production replay exchange with a reference stream (src/backtest/reference/types.ts)
 * the way runBacktest does: recorded rows at their exchange instant, clamped monotone; exchange
 * actions (request arrivals, deliveries) at their time after the rows of that instant; our requests
 * sent at their bot instant after both. Returns the exchange's fills in the reference's shape.
 */
import { VirtualClock } from '../../../src/core/clock.ts';
import { asClientOrderId, asSymbol, type VenueOrderId } from '../../../src/core/ids.ts';
import { ActionQueue } from '../../../src/backtest/action-queue.ts';
import { LatencyModel } from '../../../src/backtest/latency-model.ts';
import { feeSchedule } from '../../../src/backtest/ledger.ts';
import { queueModel } from '../../../src/backtest/queue-model.ts';
import { ReplayExchange } from '../../../src/backtest/replay-exchange.ts';
import type { RefEvent, RefFill, RefOptions } from '../../../src/backtest/reference/types.ts';
import { TRADE_CODE } from '../../../src/record/format.ts';
import { testInstrument } from '../../record/fixtures.ts';

const SYMBOL = asSymbol('FUZZ-PERP');

/** Frames laid out as a columnar recording's level and order pools. */
function pools(events: readonly RefEvent[]) {
  let nLevels = 0;
  let nOrders = 0;
  for (const e of events) {
    if (e.kind !== 'book') continue;
    nLevels += e.levels.length;
    for (const l of e.levels) nOrders += l.orders?.length ?? 0;
  }
  const levels = new Float64Array(2 * nLevels + 2);
  const orderStart = new Float64Array(nLevels + 1);
  const orderQty = new Float64Array(nOrders + 1);
  const orderId = new Float64Array(nOrders + 1);
  const at = new Map<RefEvent, { start: number; nb: number; na: number }>();
  let j = 0;
  let o = 0;
  for (const e of events) {
    if (e.kind !== 'book') continue;
    const start = j;
    for (const l of e.levels) {
      levels[2 * j] = l.priceTicks;
      levels[2 * j + 1] = l.qty;
      orderStart[j] = o;
      for (const x of l.orders ?? []) {
        orderQty[o] = x.qty;
        orderId[o++] = x.id;
      }
      orderStart[++j] = o;
    }
    at.set(e, { start, nb: e.levels.filter((l) => l.side === 'bid').length, na: e.levels.filter((l) => l.side === 'ask').length });
  }
  return { levels, orderStart, orderQty, orderId, at };
}

/** The production replay's fills for a stream (one symbol, ticks 900..1100). */
export function productionFills(events: readonly RefEvent[], opts: RefOptions): RefFill[] {
  const clock = new VirtualClock(0);
  const actions = new ActionQueue();
  const l3 = opts.rule.kind === 'fifo-by-id';
  const rule = opts.rule;
  const pool = pools(events);
  const ex = new ReplayExchange({
    instruments: [testInstrument(SYMBOL, '0.01', opts.minOrderSize)],
    minTick: [900],
    maxTick: [1100],
    clock,
    actions,
    latency: new LatencyModel({ entry: opts.entryMs, response: 1 }, 1),
    queue: queueModel(rule.kind === 'probabilistic' ? { kind: rule.shape, n: rule.n } : { kind: 'risk-averse' }),
    fees: feeSchedule('0', '0'),
    seed: 1,
    onOrderEvent: () => undefined,
    onSettled: () => undefined,
    ...(l3 ? { l3: { orderStart: pool.orderStart, orderQty: pool.orderQty, orderId: pool.orderId } } : {}),
  });
  const market = events.filter((e) => e.kind === 'book' || e.kind === 'print');
  const sends = events.filter((e) => e.kind === 'place' || e.kind === 'cancel' || e.kind === 'replace');
  // Venue time is clamped monotone, as the runner does.
  const xT: number[] = [];
  for (const e of market) xT.push(Math.max(e.tMs, xT.at(-1) ?? -Infinity));
  const working = (ref: number): VenueOrderId => (ex.open[0]!.find((x) => x.cid === String(ref))?.id ?? 'O-none') as VenueOrderId;
  const quiet = (p: Promise<unknown>): void => void p.catch(() => undefined);
  let i = 0;
  let k = 0;
  for (;;) {
    const tA = actions.peekTime();
    const tX = i < market.length ? xT[i]! : Infinity;
    const tB = k < sends.length ? sends[k]!.tMs : Infinity;
    const t = Math.min(tA, tX, tB);
    if (t === Infinity) break;
    if (t > clock.nowMs()) clock.advanceTo(t);
    if (tX === t && tX <= tA) {
      ex.now = t;
      const e = market[i++]!;
      if (e.kind === 'print') ex.applyTrade(0, e.priceTicks, e.qty, e.takerBuy, e.auction ? TRADE_CODE.cross : e.hidden ? TRADE_CODE.hidden : TRADE_CODE.regular);
      else if (e.kind === 'book') {
        const a = pool.at.get(e)!;
        ex.applyBook(0, e.snapshot, pool.levels, a.start, a.nb, a.na);
      }
    } else if (tA === t) {
      ex.now = Math.max(ex.now, t);
      actions.runNext();
    } else {
      const e = sends[k++]!;
      if (e.kind === 'place') {
        quiet(ex.place({ kind: 'place', symbol: SYMBOL, side: e.side, priceTicks: e.priceTicks, qty: e.qty, tif: e.tif, postOnly: e.postOnly, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(e.ref), tag: null }));
      } else if (e.kind === 'cancel') {
        quiet(ex.cancel({ kind: 'cancel', symbol: SYMBOL, orderId: null, clientOrderId: asClientOrderId(e.ref) }));
      } else if (e.kind === 'replace') {
        const ref = e.ref;
        // The bot names the order by the venue id it last heard of; the exchange reads it at arrival.
        quiet(ex.replace({ kind: 'replace', symbol: SYMBOL, get orderId() { return working(ref); }, clientOrderId: asClientOrderId(ref), priceTicks: e.priceTicks, qty: e.qty }));
      }
    }
  }
  return ex.fillLog.map((f) => ({ tMs: f.tsExchange, ref: Number(f.clientOrderId), side: f.side, priceTicks: f.priceTicks, qty: f.qty, source: f.source }));
}
