/**
 * Market-data mapping: MD frames, tickers (with `ef`), trades, candles and funding records to
 * domain events, and domain book/trade back to wire for the local venue. Prices become integer
 * ticks on the instrument's grid here, the one place the grid is known.
 */
import { asSymbol } from '../../core/ids.ts';
import type { Result } from '../../core/result.ts';
import type { BookLevel, BookSide } from '../../domain/book.ts';
import { INSTRUMENT_STATES, type InstrumentState } from '../../domain/enums.ts';
import type { BookUpdated, CandleUpdated, MarketEvent, TickerUpdated, TradePrinted } from '../../domain/events.ts';
import type { FundingEstimate, FundingSettlement } from '../../domain/funding.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { TickGrid } from '../../domain/tick-grid.ts';
import type { DecodeError } from '../decode/kit.ts';
import { enumRaw } from '../types/common.ts';
import type { WireEstimatedFunding, WireFundingRate } from '../types/funding.ts';
import type { WireBookLevel, WireCandle, WireTicker, WireTrade } from '../types/market.ts';
import type { WireMdBookFrame, WireMdEvent } from '../types/md-ws.ts';
import { dateTimeToMs, decimal, decimalOrNull, mapFail, mapping, msToTsTn, secondsOrDateTimeToMs, sideOf, ticks, ticksOrNull, tsTnToMs, wireSide } from './kit.ts';
import { gridFor } from './order.ts';

function levelsOf(ls: readonly WireBookLevel[], grid: TickGrid, path: string): BookLevel[] {
  const out: BookLevel[] = new Array<BookLevel>(ls.length);
  for (let i = 0; i < ls.length; i++) {
    const l = ls[i]!;
    let priceTicks: number;
    try {
      priceTicks = grid.toTicks(l.p);
    } catch {
      return mapFail(`${path}[${i}].p`, `a price on the ${grid.tickSize.toString()} tick grid`, l.p);
    }
    out[i] = l.o === undefined ? { priceTicks, qty: l.q } : { priceTicks, qty: l.q, orders: l.o };
  }
  return out;
}

/** Maps a book frame to BookUpdated (`st` true or absent = snapshot). */
export function bookOf(f: WireMdBookFrame, catalog: InstrumentCatalog, tsRecv: number): BookUpdated {
  const grid = gridFor(catalog, f.s, '$.s');
  return {
    type: 'book',
    symbol: asSymbol(f.s),
    level: f.t === '1' ? 1 : f.t === '2' ? 2 : 3,
    isSnapshot: f.st !== false,
    bids: levelsOf(f.b, grid, '$.b'),
    asks: levelsOf(f.a, grid, '$.a'),
    tsEvent: tsTnToMs(f.ts, f.tn),
    tsRecv,
  };
}

const STATES: ReadonlySet<string> = new Set(INSTRUMENT_STATES);

/** Maps an estimated-funding object. */
export function fundingEstimateOf(ef: WireEstimatedFunding, path = '$'): FundingEstimate {
  return {
    symbol: asSymbol(ef.symbol),
    status: enumRaw(ef.status),
    rate: decimalOrNull(ef.funding_rate),
    amount: decimalOrNull(ef.funding_amount),
    benchmarkPrice: decimalOrNull(ef.benchmark_price),
    settlementPrice: decimalOrNull(ef.settlement_price),
    reason: ef.reason ?? null,
    computedMs: dateTimeToMs(ef.timestamp, `${path}.timestamp`),
  };
}

/**
 * Maps a ticker. Mark, open/high/low and last settlement are rounded to the nearest tick (the venue
 * prints some with 12 decimals); last, best bid/ask and band limits must be on the grid.
 */
export function tickerOf(x: WireTicker, catalog: InstrumentCatalog, tsRecv: number, path = '$'): TickerUpdated {
  const grid = gridFor(catalog, x.s, `${path}.s`);
  const state: InstrumentState = x.i === undefined ? 'UNKNOWN' : typeof x.i === 'string' && STATES.has(x.i) ? x.i : 'UNKNOWN';
  return {
    type: 'ticker',
    symbol: asSymbol(x.s),
    lastTicks: ticksOrNull(grid, x.p, `${path}.p`),
    lastQty: x.q,
    markTicks: ticksOrNull(grid, x.m, `${path}.m`, 'nearest'),
    bestBidTicks: ticksOrNull(grid, x.bp, `${path}.bp`),
    bestAskTicks: ticksOrNull(grid, x.ap, `${path}.ap`),
    bandLowerTicks: ticksOrNull(grid, x.pl, `${path}.pl`),
    bandUpperTicks: ticksOrNull(grid, x.pu, `${path}.pu`),
    lastSettlementTicks: ticksOrNull(grid, x.lsp, `${path}.lsp`, 'nearest'),
    lastSettlementMs: x.lst === undefined || x.lst === null ? null : x.lst * 1000,
    state,
    volume: x.v,
    openInterest: x.oi,
    funding: x.ef === undefined || x.ef === null ? null : fundingEstimateOf(x.ef, `${path}.ef`),
    tsEvent: tsTnToMs(x.ts, x.tn),
    tsRecv,
  };
}

/** Maps a trade print (`d` = taker side). */
export function tradeOf(x: WireTrade, catalog: InstrumentCatalog, tsRecv: number, path = '$'): TradePrinted {
  const grid = gridFor(catalog, x.s, `${path}.s`);
  return {
    type: 'trade',
    symbol: asSymbol(x.s),
    priceTicks: ticks(grid, x.p, `${path}.p`),
    qty: x.q,
    aggressor: sideOf(x.d, `${path}.d`),
    tsEvent: tsTnToMs(x.ts, x.tn),
    tsRecv,
  };
}

/** Maps a candle; `tsEvent` is the bucket start (candles carry no other time). */
export function candleOf(c: WireCandle, tsRecv: number, path = '$'): CandleUpdated {
  const bucketStartMs = secondsOrDateTimeToMs(c.ts, `${path}.ts`);
  return {
    type: 'candle',
    symbol: asSymbol(c.symbol),
    width: c.width,
    bucketStartMs,
    open: decimal(c.open),
    high: decimal(c.high),
    low: decimal(c.low),
    close: decimal(c.close),
    buyVolume: c.buy_volume,
    sellVolume: c.sell_volume,
    tsEvent: bucketStartMs,
    tsRecv,
  };
}

/**
 * Maps an MD event to a domain MarketEvent; heartbeats and BBO candles (no domain counterpart)
 * map to null. Never throws.
 */
export function toMarketEvent(e: WireMdEvent, catalog: InstrumentCatalog, tsRecvMs: number): Result<MarketEvent | null, DecodeError> {
  return mapping((): MarketEvent | null => {
    switch (e.t) {
      case '1':
      case '2':
      case '3':
        return bookOf(e, catalog, tsRecvMs);
      case 's':
        return tickerOf(e, catalog, tsRecvMs);
      case 't':
        return tradeOf(e, catalog, tsRecvMs);
      case 'c':
        return candleOf(e, tsRecvMs);
      case 'h':
      case 'bc':
        return null;
    }
  });
}

/** Maps a REST ticker. Never throws. */
export const toTickerUpdated = (x: WireTicker, catalog: InstrumentCatalog, tsRecvMs: number): Result<TickerUpdated, DecodeError> =>
  mapping(() => tickerOf(x, catalog, tsRecvMs));

/** Maps an estimated-funding object. Never throws. */
export const toFundingEstimate = (ef: WireEstimatedFunding): Result<FundingEstimate, DecodeError> => mapping(() => fundingEstimateOf(ef));

/**
 * Maps a funding-rate record to a settlement. A null amount is derived as settlement − benchmark
 * and a null benchmark as settlement − amount (the venue's identity); both null fails.
 */
export function toFundingSettlement(w: WireFundingRate): Result<FundingSettlement, DecodeError> {
  return mapping(() => {
    const settlement = decimal(w.settlement_price);
    const bench = decimalOrNull(w.benchmark_price);
    const amount = decimalOrNull(w.funding_amount);
    if (bench === null && amount === null) mapFail('$.benchmark_price', 'benchmark_price or funding_amount', null);
    return {
      symbol: asSymbol(w.symbol),
      rate: decimal(w.funding_rate),
      amount: amount ?? settlement.minus(bench!),
      benchmarkPrice: bench ?? settlement.minus(amount!),
      settlementPrice: settlement,
      tsEvent: w.timestamp_ns / 1e6,
    };
  });
}

/** Domain book side → wire levels (prices printed with the grid's decimals). */
export function toWireLevels(side: BookSide, grid: TickGrid): WireBookLevel[] {
  return side.map((l) => (l.orders === undefined ? { p: grid.toPrice(l.priceTicks), q: l.qty } : { p: grid.toPrice(l.priceTicks), q: l.qty, o: l.orders }));
}

/** Domain book update → wire book frame (`st` true for snapshots, false for deltas; omitted on L1). */
export function toWireBookFrame(b: BookUpdated, grid: TickGrid): WireMdBookFrame {
  const { ts, tn } = msToTsTn(b.tsEvent);
  const t = b.level === 1 ? '1' : b.level === 2 ? '2' : '3';
  const frame = { t, ts, tn, s: b.symbol, b: toWireLevels(b.bids, grid), a: toWireLevels(b.asks, grid) } as const;
  return b.level === 1 ? frame : { ...frame, st: b.isSnapshot };
}

/** Domain trade → wire trade print. */
export function toWireTrade(x: TradePrinted, grid: TickGrid): WireTrade {
  const { ts, tn } = msToTsTn(x.tsEvent);
  return { p: grid.toPrice(x.priceTicks), q: x.qty, s: x.symbol, d: wireSide(x.aggressor), ts, tn };
}
