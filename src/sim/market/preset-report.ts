import { Decimal } from '../../core/decimal.ts';
import { VirtualClock } from '../../core/clock.ts';
import type { Side } from '../../domain/enums.ts';
import { isTerminal } from '../../domain/order-state.ts';
import { parseVenueConfig } from '../config/venue-config.ts';
import type { SimOrder } from '../types.ts';
import { Venue, type Actor } from '../venue.ts';
import { FlowDriver } from './flow-driver.ts';
import { parseMarketConfig, type MarketPreset } from './market-config.ts';

/** What to measure: one preset, some symbols, some venue minutes. */
export interface PresetReportOptions {
  readonly preset: MarketPreset;
  readonly symbols: readonly string[];
  readonly minutes: number;
  readonly seed?: number;
  /** Venue start time (epoch ms); default Thursday 2026-09-24 10:00Z. */
  readonly startMs?: number;
  /** Extra `market` keys (defaults/overrides) merged over the preset. */
  readonly market?: Record<string, unknown>;
  /** The naive quoter: lots per side, requote poll (venue ms), position cap in lots, maker fee rate. */
  readonly quoterLots?: number;
  readonly quoterPollMs?: number;
  readonly quoterMaxLots?: number;
  readonly makerFee?: string;
  /** Run the quoter (default true); false measures the bare synthetic market. */
  readonly quoter?: boolean;
}

/** Markout horizons, seconds. */
export const MARKOUT_HORIZONS_S = [1, 10, 60] as const;

/** What the naive one-tick quoter did on one symbol. */
export interface QuoterReport {
  readonly fills: number;
  /** Filled contracts. */
  readonly volume: number;
  /** Mark-to-mid PnL at the end, net of maker fees, USD; and the fees alone. */
  readonly netPnlUsd: number;
  readonly feesUsd: number;
  /** Qty-weighted mean edge at the fill, side × (mid − fill price) / mid, bps (what the spread earned). */
  readonly edgeBps: number;
  /**
   * Qty-weighted mean of side × (mid h seconds after the fill − mid at the fill) / mid at the fill,
   * bps (the backtest report's definition; positive = the mid moved the maker's way). PnL per fill
   * ≈ edge + markout.
   */
  readonly markoutsBps: Readonly<Record<`${(typeof MARKOUT_HORIZONS_S)[number]}s`, number>>;
  readonly maxAbsPosition: number;
}

/** The market's figures on one symbol plus the quoter's. */
export interface SymbolPresetReport {
  readonly symbol: string;
  readonly tradesPerMin: number;
  /** Book updates per second, one per venue instant in which the book changed (what a market-data subscriber receives at most). */
  readonly bookChangesPerS: number;
  /** Time-weighted mean spread of the market (the quoter's orders left out), ticks. */
  readonly meanSpreadTicks: number;
  /** Realised volatility of the mid from one-minute log returns, percent per day (× √1440). */
  readonly realisedVolPctPerDay: number;
  readonly informedShare: number;
  /** Trade sizes in lots of the minimum order size: median and 90th percentile. */
  readonly tradeLotsP50: number;
  readonly tradeLotsP90: number;
  /** Mean of taker side × (mid h seconds after a trade − mid before it) / mid, bps: how far prices follow the aggressor. */
  readonly takerMoveBps: Readonly<Record<`${(typeof MARKOUT_HORIZONS_S)[number]}s`, number>>;
  readonly quoter: QuoterReport;
}

interface Fill {
  readonly tMs: number;
  readonly side: Side;
  readonly qty: number;
  readonly price: number;
  /** The market mid at the fill (quoter's orders left out), in price units. */
  readonly mid: number;
}

/**
 * Runs the local venue in-process on a VirtualClock (no sockets) for `minutes` of venue time with
 * the preset's synthetic market and a naive quoter: one bid at floor(mid − 1 tick) and one ask at
 * ceil(mid + 1 tick), post-only, re-placed when the mid moves or a side fills (checked every
 * `quoterPollMs`), no skew, a position cap. Reports market figures and the quoter's fills, PnL
 * net of fees and markouts. Deterministic for a seed.
 */
export function runPresetReport(o: PresetReportOptions): SymbolPresetReport[] {
  const clock = new VirtualClock(o.startMs ?? Date.parse('2026-09-24T10:00:00Z'));
  const seed = o.seed ?? 1;
  const makerFee = o.makerFee ?? '0';
  const config = parseVenueConfig({
    seed,
    rate_limit: { enabled: false },
    instruments: { only: [...o.symbols] },
    default_user: { accounts: [{ name: 'quoter', maker_fee: makerFee }] },
    market: { ...o.market, preset: o.preset, symbols: [...o.symbols] },
  });
  const venue = new Venue({ config, clock });
  const market = parseMarketConfig(config).market;
  const flow = new FlowDriver(venue, market, seed, () => undefined);
  const actor: Actor = { userId: venue.defaultUser.id, accountId: venue.defaultUser.accountIds[0]! };
  const lots = o.quoterLots ?? 1;
  const pollMs = o.quoterPollMs ?? 100;
  const capLots = o.quoterMaxLots ?? 10;
  const endMs = clock.nowMs() + o.minutes * 60_000;

  const per = o.symbols.map((symbol) => {
    const ins = venue.catalog.get(symbol);
    if (!ins) throw new RangeError(`preset report: unknown symbol ${symbol}`);
    return { symbol, ins, book: venue.books.get(symbol)!, lastMid: Number.NaN, edge: { sum: 0, qty: 0 }, tradeLots: [] as number[], taker: MARKOUT_HORIZONS_S.map(() => [] as Fill[]), moves: MARKOUT_HORIZONS_S.map(() => ({ sum: 0, n: 0 })), trades: 0, changes: 0, lastChangeMs: -1, spreadSum: 0, spreadN: 0, mids: [] as number[], fills: [] as Fill[], pending: MARKOUT_HORIZONS_S.map(() => [] as Fill[]), marks: MARKOUT_HORIZONS_S.map(() => ({ sum: 0, qty: 0 })), position: 0, maxAbs: 0, working: { buy: undefined as SimOrder | undefined, sell: undefined as SimOrder | undefined } };
  });
  const bySymbol = new Map(per.map((p) => [p.symbol, p]));
  venue.onTrade((t) => {
    const p = bySymbol.get(t.symbol);
    if (!p) return;
    p.trades++;
    p.tradeLots.push(t.qty / p.ins.minOrderSize);
    if (!Number.isNaN(p.lastMid)) for (const q of p.taker) q.push({ tMs: clock.nowMs(), side: t.takerSide, qty: 1, price: p.lastMid, mid: p.lastMid });
  });
  venue.onBookChange((s) => {
    const p = bySymbol.get(s);
    if (!p) return;
    const now = clock.nowMs();
    if (p.lastChangeMs !== now) p.changes++;
    p.lastChangeMs = now;
  });
  venue.onOrderEvent(actor.accountId, (e) => {
    if (e.t !== 'p' && e.t !== 'f') return;
    const p = bySymbol.get(e.fill.symbol)!;
    const price = Number(p.ins.grid.toPrice(e.fill.priceTicks));
    // Our order is at the front, so the makers' levels are still intact when its fill is reported.
    const midTicks = midOf(p) ?? p.lastMid;
    const fill: Fill = { tMs: clock.nowMs(), side: e.fill.side, qty: e.fill.qty, price, mid: Number.isNaN(midTicks) ? price : midTicks * p.ins.grid.tickSize.toNumber() };
    p.edge.sum += (((e.fill.side === 'buy' ? 1 : -1) * (fill.mid - price)) / fill.mid) * 1e4 * fill.qty;
    p.edge.qty += fill.qty;
    p.fills.push(fill);
    p.position += e.fill.side === 'buy' ? e.fill.qty : -e.fill.qty;
    p.maxAbs = Math.max(p.maxAbs, Math.abs(p.position));
    for (const q of p.pending) q.push(fill);
  });

  /** Best price of a side without the quoter's own order (the market it quotes against). */
  const bestExOwn = (p: (typeof per)[number], side: Side): number | undefined => {
    const own = p.working[side];
    const ownAt = own !== undefined && !isTerminal(own.state) && own.state !== 'PENDING' ? own : undefined;
    for (const l of (side === 'buy' ? p.book.bids : p.book.asks).levels(2)) {
      if (ownAt && l.priceTicks === ownAt.priceTicks && l.qty <= ownAt.remainingQty) continue;
      return l.priceTicks;
    }
    return undefined;
  };
  /** The market's mid in ticks, the quoter's own orders left out. */
  const midOf = (p: (typeof per)[number]): number | undefined => {
    const b = bestExOwn(p, 'buy');
    const a = bestExOwn(p, 'sell');
    return b === undefined || a === undefined ? undefined : (b + a) / 2;
  };
  const quote = (p: (typeof per)[number], side: Side, priceTicks: number | undefined): void => {
    const w = p.working[side];
    const live = w !== undefined && !isTerminal(w.state);
    if (live && w.priceTicks === priceTicks) return;
    if (live) {
      const out = venue.cancel(actor, { oid: w.oid });
      if (out.status === 'pending') return; // not acknowledged yet: try again next poll
    }
    p.working[side] = undefined;
    if (priceTicks === undefined || priceTicks <= 0) return;
    const qty = lots * p.ins.minOrderSize;
    p.working[side] = venue.place(actor, { symbol: p.symbol, side, qty, price: p.ins.grid.toPrice(priceTicks), tif: 'GTC', postOnly: true });
  };
  let lastVolSampleMs = clock.nowMs();
  const poll = (): void => {
    const now = clock.nowMs();
    const sampleVol = now - lastVolSampleMs >= 1000;
    if (sampleVol) lastVolSampleMs = now;
    for (const p of per) {
      const mid = midOf(p);
      if (mid === undefined) continue;
      const tickSize = p.ins.grid.tickSize.toNumber();
      p.spreadSum += bestExOwn(p, 'sell')! - bestExOwn(p, 'buy')!;
      p.spreadN++;
      if (sampleVol) p.mids.push(mid);
      p.lastMid = mid;
      MARKOUT_HORIZONS_S.forEach((h, i) => {
        const q = p.taker[i]!;
        while (q.length > 0 && q[0]!.tMs + h * 1000 <= now) {
          const t = q.shift()!;
          p.moves[i]!.sum += (((t.side === 'buy' ? 1 : -1) * (mid - t.price)) / t.price) * 1e4;
          p.moves[i]!.n++;
        }
      });
      MARKOUT_HORIZONS_S.forEach((h, i) => {
        const q = p.pending[i]!;
        while (q.length > 0 && q[0]!.tMs + h * 1000 <= now) {
          const fill = q.shift()!;
          const sign = fill.side === 'buy' ? 1 : -1;
          p.marks[i]!.sum += ((sign * (mid * tickSize - fill.mid)) / fill.mid) * 1e4 * fill.qty;
          p.marks[i]!.qty += fill.qty;
        }
      });
      if (o.quoter === false) continue;
      const cap = capLots * p.ins.minOrderSize;
      quote(p, 'buy', p.position < cap ? Math.floor(mid - 1) : undefined);
      quote(p, 'sell', p.position > -cap ? Math.ceil(mid + 1) : undefined);
    }
  };
  flow.start();
  const tick = (): void => {
    poll();
    if (clock.nowMs() < endMs) clock.setTimer(pollMs, tick);
  };
  clock.setTimer(pollMs, tick);
  clock.advanceTo(endMs);
  flow.close();

  return per.map((p) => {
    const mult = p.ins.multiplier;
    let cash = new Decimal(0);
    let fees = new Decimal(0);
    for (const f of p.fills) {
      const notional = new Decimal(f.price).mul(f.qty).mul(mult);
      cash = f.side === 'buy' ? cash.sub(notional) : cash.add(notional);
      fees = fees.add(notional.mul(makerFee));
    }
    const lastMid = (midOf(p) ?? 0) * p.ins.grid.tickSize.toNumber();
    const net = cash.add(new Decimal(lastMid).mul(p.position).mul(mult)).sub(fees);
    const rets: number[] = [];
    for (let i = 60; i < p.mids.length; i += 60) rets.push(Math.log(p.mids[i]! / p.mids[i - 60]!));
    const vol = rets.length > 1 ? Math.sqrt(rets.reduce((s, r) => s + r * r, 0) / rets.length) * Math.sqrt(1440) * 100 : 0;
    const markoutsBps = Object.fromEntries(MARKOUT_HORIZONS_S.map((h, i) => [`${h}s`, p.marks[i]!.qty > 0 ? p.marks[i]!.sum / p.marks[i]!.qty : 0])) as QuoterReport['markoutsBps'];
    const flowParams = flow.flows.get(p.symbol)!.d.params;
    const lotsSorted = [...p.tradeLots].sort((a, b) => a - b);
    const pct = (q: number): number => (lotsSorted.length > 0 ? lotsSorted[Math.min(lotsSorted.length - 1, Math.floor(q * lotsSorted.length))]! : 0);
    const takerMoveBps = Object.fromEntries(MARKOUT_HORIZONS_S.map((h, i) => [`${h}s`, p.moves[i]!.n > 0 ? p.moves[i]!.sum / p.moves[i]!.n : 0])) as SymbolPresetReport['takerMoveBps'];
    return {
      symbol: p.symbol,
      tradesPerMin: p.trades / o.minutes,
      bookChangesPerS: p.changes / (o.minutes * 60),
      meanSpreadTicks: p.spreadN > 0 ? p.spreadSum / p.spreadN : 0,
      realisedVolPctPerDay: vol,
      informedShare: flowParams.takers.informedShare,
      tradeLotsP50: pct(0.5),
      tradeLotsP90: pct(0.9),
      takerMoveBps,
      quoter: { fills: p.fills.length, volume: p.fills.reduce((s, f) => s + f.qty, 0), netPnlUsd: net.toNumber(), feesUsd: fees.toNumber(), edgeBps: p.edge.qty > 0 ? p.edge.sum / p.edge.qty : 0, markoutsBps, maxAbsPosition: p.maxAbs },
    };
  });
}

/** The report as a Markdown table (one row per preset and symbol). */
export function presetReportTable(rows: readonly { readonly preset: string; readonly report: SymbolPresetReport }[]): string {
  const head = '| preset | symbol | trades/min | book changes/s | spread (ticks) | realised vol (%/day) | mid move after a trade, taker side, 1/10/60 s (bps) | quoter fills | quoter net PnL (USD) | quoter edge (bps) | quoter markout 1/10/60 s (bps) |';
  const sep = '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|';
  const f = (x: number, d = 1): string => x.toFixed(d);
  const lines = rows.map(({ preset, report: r }) => {
    const m = r.quoter.markoutsBps;
    const t = r.takerMoveBps;
    return `| ${preset} | ${r.symbol} | ${f(r.tradesPerMin)} | ${f(r.bookChangesPerS)} | ${f(r.meanSpreadTicks)} | ${f(r.realisedVolPctPerDay, 2)} | ${f(t['1s'], 2)} / ${f(t['10s'], 2)} / ${f(t['60s'], 2)} | ${r.quoter.fills} | ${f(r.quoter.netPnlUsd, 2)} | ${f(r.quoter.edgeBps, 2)} | ${f(m['1s'], 2)} / ${f(m['10s'], 2)} / ${f(m['60s'], 2)} |`;
  });
  return [head, sep, ...lines].join('\n');
}
