import { Decimal } from '../core/decimal.ts';
import type { Symbol } from '../core/ids.ts';
import { seededRandomU32 } from '../core/ulid.ts';
import type { BookLevel } from '../domain/book.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { RecordedEvent } from '../record/format.ts';

/** Knobs of the synthetic market (tests and benches; real samples come from the local venue). */
export interface SyntheticMarketOptions {
  readonly instrument: Instrument;
  readonly seed: number;
  readonly events: number;
  readonly startMs: number;
  /** Initial mid in ticks. */
  readonly midTicks: number;
  /** Levels per side. */
  readonly levels?: number;
  /** Mean gap between events (ms of venue time). */
  readonly meanGapMs?: number;
  /** Emit a ticker every this many ms (0 = never). */
  readonly tickerEveryMs?: number;
  /** Emit a funding settlement at this time (null = never). */
  readonly fundingAtMs?: number | null;
}

/**
 * A seeded random-walk L2 market as recorded events: a snapshot, then single-level deltas, trades at
 * the touch followed by the depth change they cause, and occasional price moves. Cheap enough to
 * generate millions of events for the throughput bench.
 */
export function* syntheticMarket(o: SyntheticMarketOptions): Generator<RecordedEvent, void, undefined> {
  const rand = seededRandomU32(o.seed);
  const u = (): number => rand() / 4294967296;
  const L = o.levels ?? 10;
  const lot = o.instrument.minOrderSize;
  const sym = o.instrument.symbol as Symbol;
  const gap = o.meanGapMs ?? 2;
  const qty = (): number => lot * (1 + Math.floor(u() * 20));
  let bid = o.midTicks - 1;
  let ask = o.midTicks + 1;
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  for (let k = 0; k < L; k++) {
    bids.set(bid - k, qty());
    asks.set(ask + k, qty());
  }
  let t = o.startMs;
  const sorted = (m: Map<number, number>, desc: boolean): BookLevel[] =>
    [...m].map(([p, q]) => ({ priceTicks: p, qty: q })).sort((a, b) => (desc ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
  let lastRecv = -Infinity;
  // Receive time = venue time + 1–3 ms of jitter, never going back (as a recorder writes them).
  const recv = (): number => (lastRecv = Math.max(lastRecv, t + 1 + Math.round(u() * 2000) / 1000));
  yield { type: 'book', symbol: sym, level: 2, isSnapshot: true, bids: sorted(bids, true), asks: sorted(asks, false), tsEvent: t, tsRecv: recv() };
  const delta = (b: BookLevel[], a: BookLevel[]): RecordedEvent => ({ type: 'book', symbol: sym, level: 2, isSnapshot: false, bids: b, asks: a, tsEvent: t, tsRecv: recv() });
  let nextTicker = o.tickerEveryMs ? t + o.tickerEveryMs : Infinity;
  let funding = o.fundingAtMs ?? null;
  for (let n = 1; n < o.events; n++) {
    t += Math.round(-Math.log(1 - u()) * gap * 1000) / 1000; // exponential gaps, µs resolution
    if (t >= nextTicker) {
      nextTicker += o.tickerEveryMs!;
      yield {
        type: 'ticker', symbol: sym, lastTicks: bid, lastQty: lot, markTicks: Math.round((bid + ask) / 2), bestBidTicks: bid, bestAskTicks: ask,
        bandLowerTicks: null, bandUpperTicks: null, lastSettlementTicks: null, lastSettlementMs: null, state: 'OPEN', volume: 0, openInterest: 0, funding: null,
        tsEvent: t, tsRecv: recv(),
      };
      continue;
    }
    if (funding !== null && t >= funding) {
      const bp = o.instrument.grid.toDecimal(Math.round((bid + ask) / 2));
      const amount = new Decimal('0.0001').mul(bp).toDecimalPlaces(8);
      yield { type: 'funding', settlement: { symbol: sym, rate: new Decimal('0.0001'), amount, benchmarkPrice: bp, settlementPrice: bp.plus(amount), tsEvent: t }, tsEvent: t, tsRecv: recv() };
      funding = null;
      continue;
    }
    const r = u();
    const buySide = u() < 0.5;
    if (r < 0.62) {
      // Depth change at one of the levels (adds and cancels).
      const k = Math.floor(u() * L);
      const p = buySide ? bid - k : ask + k;
      const q = qty();
      (buySide ? bids : asks).set(p, q);
      yield buySide ? delta([{ priceTicks: p, qty: q }], []) : delta([], [{ priceTicks: p, qty: q }]);
    } else if (r < 0.9) {
      // A trade at the touch, then the depth it consumed.
      const side = buySide ? asks : bids;
      const p = buySide ? ask : bid;
      const have = side.get(p) ?? lot;
      const tq = Math.max(lot, Math.min(have, lot * (1 + Math.floor(u() * 5))));
      yield { type: 'trade', symbol: sym, priceTicks: p, qty: tq, aggressor: buySide ? 'buy' : 'sell', tsEvent: t, tsRecv: recv() };
      const left = have - tq;
      if (left > 0) {
        side.set(p, left);
        yield buySide ? delta([], [{ priceTicks: p, qty: left }]) : delta([{ priceTicks: p, qty: left }], []);
      } else {
        // Level consumed: the touch moves one tick away, a new deep level appears.
        side.delete(p);
        if (buySide) {
          ask += 1;
          if (!asks.has(ask)) asks.set(ask, qty());
          const deep = ask + L - 1;
          asks.set(deep, qty());
          yield delta([], [{ priceTicks: p, qty: 0 }, { priceTicks: ask, qty: asks.get(ask)! }, { priceTicks: deep, qty: asks.get(deep)! }]);
        } else {
          bid -= 1;
          if (!bids.has(bid)) bids.set(bid, qty());
          const deep = bid - L + 1;
          bids.set(deep, qty());
          yield delta([{ priceTicks: p, qty: 0 }, { priceTicks: bid, qty: bids.get(bid)! }, { priceTicks: deep, qty: bids.get(deep)! }], []);
        }
        trim(bids, asks, bid, ask, L);
      }
    } else if (ask - bid > 1) {
      // Improve the touch by one tick.
      const q = qty();
      if (buySide) {
        bid += 1;
        bids.set(bid, q);
        yield delta([{ priceTicks: bid, qty: q }], []);
      } else {
        ask -= 1;
        asks.set(ask, q);
        yield delta([], [{ priceTicks: ask, qty: q }]);
      }
    } else {
      const k = 1 + Math.floor(u() * (L - 1));
      const p = buySide ? bid - k : ask + k;
      (buySide ? bids : asks).delete(p);
      yield buySide ? delta([{ priceTicks: p, qty: 0 }], []) : delta([], [{ priceTicks: p, qty: 0 }]);
    }
  }
}

/** Keeps the generator's maps bounded (levels far from the touch are forgotten, not emitted). */
function trim(bids: Map<number, number>, asks: Map<number, number>, bid: number, ask: number, L: number): void {
  if (bids.size > 4 * L) for (const p of [...bids.keys()]) if (p < bid - 3 * L) bids.delete(p);
  if (asks.size > 4 * L) for (const p of [...asks.keys()]) if (p > ask + 3 * L) asks.delete(p);
}
