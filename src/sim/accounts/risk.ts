import { Decimal } from '../../core/decimal.ts';
import type { Side } from '../../domain/enums.ts';
import type { Instrument } from '../../domain/instrument.ts';
import type { InstrumentMarket } from '../prices.ts';
import { markPrice } from '../prices.ts';
import type { Account, OpenOrderAgg, Position } from './account.ts';

const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);

/** Inputs the risk math needs besides the account: market records and the mark staleness rule. */
export interface RiskContext {
  readonly markets: ReadonlyMap<string, InstrumentMarket>;
  readonly nowMs: number;
  readonly markStaleMs: number;
}

/** One symbol's risk figures. */
export interface SymbolRisk {
  readonly symbol: string;
  readonly signedQty: number;
  readonly costBasis: Decimal;
  readonly mark: Decimal;
  readonly signedUsdNotional: Decimal;
  readonly averagePrice: Decimal | null;
  readonly imPosition: Decimal;
  readonly imOrders: Decimal;
  readonly mm: Decimal;
  readonly unrealized: Decimal;
}

/** An account's risk snapshot (rules.md §6). */
export interface RiskSnapshot {
  readonly balance: Decimal;
  readonly equity: Decimal;
  readonly unrealized: Decimal;
  readonly imPositions: Decimal;
  readonly imOrders: Decimal;
  readonly imTotal: Decimal;
  readonly mm: Decimal;
  readonly perSymbol: readonly SymbolRisk[];
}

/** A hypothetical change to the open orders of one symbol (an order added or removed). */
export interface OrderDelta {
  readonly side: Side;
  readonly qty: number;
  readonly priceTicks: number;
}

/**
 * IM on open orders for one symbol [I]: the side whose fills would most increase |position|,
 * each side counted only beyond the part that would first close the opposite position.
 */
export function imOpenOrders(agg: OpenOrderAgg | undefined, signedQty: number, ins: Instrument): Decimal {
  if (!agg || agg.count === 0) return ZERO;
  const buyEff = Math.max(0, agg.buyQty - Math.max(0, -signedQty));
  const sellEff = Math.max(0, agg.sellQty - Math.max(0, signedQty));
  const buy = agg.buyQty === 0 ? 0 : (agg.buyTickQty * buyEff) / agg.buyQty;
  const sell = agg.sellQty === 0 ? 0 : (agg.sellTickQty * sellEff) / agg.sellQty;
  const ticks = Math.max(buy, sell);
  if (ticks === 0) return ZERO;
  return ins.grid.tickSize.mul(ticks).mul(ins.multiplier).mul(ins.initialMarginPct).div(HUNDRED);
}

function symbolRisk(acct: Account, symbol: string, pos: Position | undefined, ctx: RiskContext): SymbolRisk | null {
  const m = ctx.markets.get(symbol);
  if (!m) return null;
  const ins = m.instrument;
  const qty = pos?.signedQty ?? 0;
  const cost = pos?.costBasis ?? ZERO;
  const mark = markPrice(m, ctx.nowMs, ctx.markStaleMs);
  const usd = mark.mul(qty).mul(ins.multiplier);
  const absUsd = usd.abs();
  return {
    symbol,
    signedQty: qty,
    costBasis: cost,
    mark,
    signedUsdNotional: usd,
    averagePrice: qty === 0 ? null : cost.div(qty).div(ins.multiplier),
    imPosition: absUsd.mul(ins.initialMarginPct).div(HUNDRED),
    imOrders: imOpenOrders(acct.openAgg.get(symbol), qty, ins),
    mm: absUsd.mul(ins.maintenanceMarginPct).div(HUNDRED),
    unrealized: usd.minus(cost),
  };
}

/** Computes the account's full risk snapshot at the current marks. */
export function riskSnapshot(acct: Account, ctx: RiskContext): RiskSnapshot {
  const symbols = new Set<string>([...acct.positions.keys(), ...acct.openAgg.keys()]);
  const per: SymbolRisk[] = [];
  let unrealized = ZERO;
  let imPos = ZERO;
  let imOrd = ZERO;
  let mm = ZERO;
  for (const s of symbols) {
    const r = symbolRisk(acct, s, acct.positions.get(s), ctx);
    if (!r) continue;
    per.push(r);
    unrealized = unrealized.plus(r.unrealized);
    imPos = imPos.plus(r.imPosition);
    imOrd = imOrd.plus(r.imOrders);
    mm = mm.plus(r.mm);
  }
  per.sort((a, b) => (a.symbol < b.symbol ? -1 : 1));
  const equity = acct.balance.plus(unrealized);
  return { balance: acct.balance, equity, unrealized, imPositions: imPos, imOrders: imOrd, imTotal: imPos.plus(imOrd), mm, perSymbol: per };
}

function withDelta(agg: OpenOrderAgg | undefined, d: OrderDelta, sign: 1 | -1): OpenOrderAgg {
  const base = agg ?? { buyQty: 0, buyTickQty: 0, sellQty: 0, sellTickQty: 0, count: 0 };
  const q = sign * d.qty;
  return {
    buyQty: base.buyQty + (d.side === 'buy' ? q : 0),
    buyTickQty: base.buyTickQty + (d.side === 'buy' ? q * d.priceTicks : 0),
    sellQty: base.sellQty + (d.side === 'sell' ? q : 0),
    sellTickQty: base.sellTickQty + (d.side === 'sell' ? q * d.priceTicks : 0),
    count: base.count + sign,
  };
}

/**
 * Checks initial margin for adding `add` (and optionally removing `remove`, for a replace): allowed
 * when the open-order IM does not rise, or rises by no more than equity − IM total.
 */
export function marginCheck(acct: Account, ins: Instrument, add: OrderDelta, remove: OrderDelta | null, ctx: RiskContext): { ok: boolean; required: Decimal; available: Decimal } {
  const symbol = ins.symbol as string;
  const pos = acct.positions.get(symbol)?.signedQty ?? 0;
  const agg = acct.openAgg.get(symbol);
  const before = imOpenOrders(agg, pos, ins);
  const mid = remove ? withDelta(agg, remove, -1) : agg;
  const after = imOpenOrders(withDelta(mid, add, 1), pos, ins);
  const delta = after.minus(before);
  if (delta.lte(0)) return { ok: true, required: delta, available: ZERO };
  const snap = riskSnapshot(acct, ctx);
  const available = snap.equity.minus(snap.imTotal);
  return { ok: delta.lte(available), required: delta, available };
}

/** Initial margin of a standalone order (the preview endpoint's `im`): notional × IM%. */
export function orderIm(ins: Instrument, priceTicks: number, qty: number): Decimal {
  return ins.grid.toDecimal(priceTicks).mul(qty).mul(ins.multiplier).mul(ins.initialMarginPct).div(HUNDRED);
}
