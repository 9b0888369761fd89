import { Decimal, ZERO } from '../../core/decimal.ts';
import type { Side } from '../../domain/enums.ts';
import type { Instrument } from '../../domain/instrument.ts';
import type { InstrumentMarket } from '../prices.ts';
import { markPrice } from '../prices.ts';
import type { Account, OpenOrderAgg, Position } from './account.ts';

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

/** An account's risk snapshot (docs/venue-rules.md §6). */
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
  return imOfTicks(openOrderImTicks(agg.buyQty, agg.buyTickQty, agg.sellQty, agg.sellTickQty, signedQty), ins);
}

/** The open-order IM of `imOpenOrders` in tick × contract units (plain numbers, no allocation). */
function openOrderImTicks(buyQty: number, buyTickQty: number, sellQty: number, sellTickQty: number, signedQty: number): number {
  const buyEff = Math.max(0, buyQty - Math.max(0, -signedQty));
  const sellEff = Math.max(0, sellQty - Math.max(0, signedQty));
  const buy = buyQty === 0 ? 0 : (buyTickQty * buyEff) / buyQty;
  const sell = sellQty === 0 ? 0 : (sellTickQty * sellEff) / sellQty;
  return Math.max(buy, sell);
}

/** Tick × contract units to USD of initial margin. */
function imOfTicks(ticks: number, ins: Instrument): Decimal {
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

/**
 * What a pre-trade check may spend: equity − IM total, exactly `riskSnapshot`'s
 * `equity.minus(imTotal)` (the same Decimal operations in the same order: positions' symbols, then
 * symbols with only open orders) without building per-symbol records, the average price or MM.
 * Order entry calls it for every user order that raises open-order IM. `knownSymbol` /
 * `knownImOrders` pass one symbol's open-order IM the caller already computed (`imOpenOrders` of
 * the account's current aggregate and position, a pure function of them), so it is not computed
 * twice.
 */
export function availableMargin(acct: Account, ctx: RiskContext, knownSymbol = '', knownImOrders: Decimal = ZERO): Decimal {
  let unrealized = ZERO;
  let imPos = ZERO;
  let imOrd = ZERO;
  for (const [symbol, pos] of acct.positions) {
    const m = ctx.markets.get(symbol);
    if (!m) continue;
    const ins = m.instrument;
    const usd = markPrice(m, ctx.nowMs, ctx.markStaleMs).mul(pos.signedQty).mul(ins.multiplier);
    unrealized = unrealized.plus(usd.minus(pos.costBasis));
    imPos = imPos.plus(usd.abs().mul(ins.initialMarginPct).div(HUNDRED));
    imOrd = imOrd.plus(knownSymbol === symbol ? knownImOrders : imOpenOrders(acct.openAgg.get(symbol), pos.signedQty, ins));
  }
  // Symbols with open orders but no position add exact zeros to unrealized and position IM (a
  // rounded sum plus zero is itself), so only their open-order IM is computed.
  for (const [symbol, agg] of acct.openAgg) {
    if (acct.positions.has(symbol)) continue;
    const m = ctx.markets.get(symbol);
    if (!m) continue;
    imOrd = imOrd.plus(knownSymbol === symbol ? knownImOrders : imOpenOrders(agg, 0, m.instrument));
  }
  return acct.balance.plus(unrealized).minus(imPos.plus(imOrd));
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
  // The aggregate after the change, as plain numbers (no intermediate aggregate objects).
  let buyQty = agg?.buyQty ?? 0;
  let buyTickQty = agg?.buyTickQty ?? 0;
  let sellQty = agg?.sellQty ?? 0;
  let sellTickQty = agg?.sellTickQty ?? 0;
  let count = agg?.count ?? 0;
  if (remove) {
    if (remove.side === 'buy') {
      buyQty -= remove.qty;
      buyTickQty -= remove.qty * remove.priceTicks;
    } else {
      sellQty -= remove.qty;
      sellTickQty -= remove.qty * remove.priceTicks;
    }
    count -= 1;
  }
  if (add.side === 'buy') {
    buyQty += add.qty;
    buyTickQty += add.qty * add.priceTicks;
  } else {
    sellQty += add.qty;
    sellTickQty += add.qty * add.priceTicks;
  }
  count += 1;
  const after = count === 0 ? ZERO : imOfTicks(openOrderImTicks(buyQty, buyTickQty, sellQty, sellTickQty, pos), ins);
  const delta = after.minus(before);
  if (delta.lte(0)) return { ok: true, required: delta, available: ZERO };
  const available = availableMargin(acct, ctx, symbol, before);
  return { ok: delta.lte(available), required: delta, available };
}
