import {
  bookMid,
  nextSettlement,
  Ewma,
  EwmaVolatility,
  SideLossDepth,
  PARAM_RANGES,
  z,
  type DesiredQuotes,
  type HedgeOrder,
  type Strategy,
  type StrategyContext,
  type StrategyDefinition,
  type StrategyPlan,
  type Symbol,
  type SymbolView,
} from '../../src/index.ts';
import { netDelta, planHedge, type HedgeBudget, HedgeCostWindow } from './hedge.ts';

/** Parameters (units in the names; see README.md). Only `size` and `maxPosition` are usually set. */
export const basisParams = z
  .object({
    /** Contracts per quote on the quoted (first) symbol. */
    size: z.number().int().positive().max(PARAM_RANGES.contracts).default(1).describe('contracts per quote on the quoted leg'),
    /** Cap on |position| of the quoted leg, counting working orders (contracts). Default 10 × size. */
    maxPosition: z.number().int().positive().max(PARAM_RANGES.contracts).optional().describe('cap on |quoted-leg position| counting working orders, contracts (default 10 × size)'),
    /** Half-life of the basis estimate (mid of quoted − mid of hedge leg), seconds. */
    basisHalfLifeS: z.number().positive().max(PARAM_RANGES.seconds).default(120).describe('half-life of the online basis estimate, s'),
    /** Half-spread in ticks; unset = calibrated: max(1 tick, volMultiplier × σ_b × √horizonS, ½ of the leg’s own spread EWMA × marketSpreadShare). */
    halfSpreadTicks: z.number().positive().max(PARAM_RANGES.ticks).optional().describe('half-spread, ticks (default: calibrated online from the basis volatility)'),
    /** Multiplier on the basis volatility over the horizon in the calibrated half-spread. */
    volMultiplier: z.number().nonnegative().max(PARAM_RANGES.factor).default(2).describe('multiplier on σ_basis·√horizon in the calibrated half-spread'),
    /** Horizon over which the basis may move against a quote, seconds. */
    horizonS: z.number().positive().max(PARAM_RANGES.seconds).default(10).describe('holding horizon for the basis-volatility widening, s'),
    /** Share of the quoted leg's own market half-spread to quote at (0..1): 1 = at the other makers' touch. */
    marketSpreadShare: z.number().min(0).max(2).default(0.5).describe('fraction of the quoted leg’s observed half-spread used as a floor'),
    /** Risk aversion on the quoted leg's basis risk (its position even when hedged). */
    basisRiskAversion: z
      .number()
      .nonnegative()
      .max(PARAM_RANGES.factor)
      .default(1)
      .describe('γ_b of the basis-leg inventory skew q·γ_b·σ_b²·H, from a risk budget: γ_b = basisRiskAversion / (qMax·σ_b·√H), so at |quoted-leg position| = maxPosition the reservation price moves basisRiskAversion × σ_b√H ticks toward unloading, hedged or not (0 = off)'),
    holdingS: z
      .number()
      .positive()
      .max(PARAM_RANGES.seconds)
      .optional()
      .describe('H, seconds a quoted-leg position is expected to be held (the horizon of its basis risk); default basisHalfLifeS (a position held longer than the basis estimate remembers bears the basis moving)'),
    carry: z
      .enum(['funding', 'none'])
      .default('funding')
      .describe('funding: the fair basis includes the carry to the quoted leg’s expiry implied by the hedge leg’s estimated funding, P·f̂·(settlements left), and the EWMA tracks only the residual (no lag when f̂ or the time to expiry changes); none: the EWMA of the basis alone'),
    /** Reservation shift at |net delta| = maxPosition, in half-spreads. */
    skew: z.number().nonnegative().max(PARAM_RANGES.factor).default(1).describe('reservation-price shift at |net delta| = maxPosition, in half-spreads'),
    /** Hedge band on |net delta| in hedge-leg contracts (default: max(1 min size, maxPosition / 3 in delta terms)). */
    hedgeBandContracts: z.number().positive().max(PARAM_RANGES.contracts).optional().describe('|net delta| band before hedging, in hedge-leg contracts'),
    /** How far through the hedge leg's touch the IOC may trade, ticks. */
    hedgeSlippageTicks: z.number().int().nonnegative().max(PARAM_RANGES.ticks).optional().describe('IOC limit beyond the hedge leg’s touch, ticks (default: the leg’s current spread, at least 2)'),
    /** Hedge-cost budget per rolling hour, bps of the max position's notional (crossed half-spread + taker fee). */
    hedgeBudgetBpsPerHour: z.number().positive().max(PARAM_RANGES.bps).default(50).describe('hedge cost budget per rolling hour, bps of maxPosition notional'),
    /** Seconds to wait for a hedge's fill before another may be sent. */
    hedgeCooldownS: z.number().positive().max(PARAM_RANGES.seconds).default(2).describe('minimum time between hedges, s'),
    /** Bps of extra depth per bps lost by a quoted-leg fill horizonS later (0 = off). */
    lossFeedback: z
      .number()
      .min(0)
      .max(4)
      .default(0)
      .describe('bps of extra depth per bps of mean loss: the size-weighted mean PnL of each side’s quoted-leg maker fills horizonS later (side × (mid then − fill price), bps, weights halving every basisHalfLifeS) pushes a side in loss out by lossFeedback × that loss, at most the leg’s observed spread; 0 (default) = off'),
  })
  .strict();

/** Parsed parameters. */
export type BasisParams = z.infer<typeof basisParams>;

const MIN_BASIS_WEIGHT = 3;

/** The built-in `basis` strategy (docs/strategy-models.md §4.6). */
export function createBasis(p: BasisParams): Strategy {
  const maxPosition = p.maxPosition ?? p.size * 10;
  const basis = new Ewma(p.basisHalfLifeS * 1000);
  const basisVol = new EwmaVolatility(p.basisHalfLifeS * 1000, 1000, 10);
  const quotedSpread = new Ewma(p.basisHalfLifeS * 1000);
  const costs = new HedgeCostWindow(3_600_000);
  let lastHedgeMs = -Infinity;
  // What each side's quoted-leg fills earned horizonS later (reference = the fill price).
  const loss = p.lossFeedback > 0 ? new SideLossDepth(p.lossFeedback, p.basisHalfLifeS * 1000, p.horizonS * 1000) : null;
  const none = (symbol: Symbol): DesiredQuotes => ({ symbol, bids: [], asks: [] });
  return {
    quote(ctx: StrategyContext): StrategyPlan {
      if (ctx.symbols.length < 2) throw new Error('basis needs two symbols: `symbols: [QUOTED, HEDGE]` (e.g. [XAU-2026-DEC, XAU-PERP])');
      const quoted = ctx.view(ctx.symbols[0]!);
      const hedge = ctx.view(ctx.symbols[1]!);
      const midQ = bookMid(quoted.book);
      const midH = bookMid(hedge.book);
      const tickQ = quoted.instrument.grid.tickSize.toNumber();
      const tickH = hedge.instrument.grid.tickSize.toNumber();
      const now = ctx.nowMs;
      if (loss) {
        for (const f of ctx.fills) if (f.symbol === quoted.symbol && f.liquidity === 'maker') loss.fill(f, p.size, now);
        if (midQ !== null) loss.updateMid(now, midQ);
      }
      if (midQ === null || midH === null) return { quotes: [none(quoted.symbol)] };
      // Basis in the quoted leg's ticks; its volatility is the quoted leg's residual risk once hedged.
      // The carry the hedge leg's funding implies is known at once; the EWMA learns the rest.
      const hedgeInQuoted = (midH * tickH) / tickQ;
      const carryTicks = p.carry === 'funding' ? fundingCarryTicks(quoted, hedge, hedgeInQuoted, now) : 0;
      const basisTicks = midQ - hedgeInQuoted;
      basis.update(basisTicks - carryTicks, now);
      basisVol.update(basisTicks, now);
      const b0 = quoted.book!.bids[0]!;
      const a0 = quoted.book!.asks[0]!;
      quotedSpread.update(a0.priceTicks - b0.priceTicks, now);
      if (basis.weight < MIN_BASIS_WEIGHT) return { quotes: [none(quoted.symbol)] };

      const fair = hedgeInQuoted + carryTicks + basis.value;
      const sigma = basisVol.ready ? basisVol.sigmaPerSqrtS : 0;
      // A fill must at least pay its maker fee back: the edge floor is the fee in ticks plus half a tick.
      const feeTicks = Math.max(0, quoted.fees.maker) * fair;
      const half =
        p.halfSpreadTicks ?? Math.max(1, feeTicks + 0.5, p.volMultiplier * sigma * Math.sqrt(p.horizonS), (p.marketSpreadShare * quotedSpread.value) / 2);
      const delta = netDelta(quoted, hedge);
      const mQ = quoted.instrument.multiplier.toNumber();
      // Inventory skew on the net delta, in the quoted leg's contracts: at maxPosition the
      // reservation price moves `skew` half-spreads towards unloading.
      const deltaInQuoted = delta / mQ;
      // Basis risk of the quoted leg's own position (hedged or not): q·γ_b·σ_b²·H with γ_b from the
      // risk budget, i.e. (q / maxPosition)·basisRiskAversion·σ_b·√H ticks: it mean-reverts the leg.
      const basisSkew = (quoted.position.qty / maxPosition) * p.basisRiskAversion * sigma * Math.sqrt(p.holdingS ?? p.basisHalfLifeS);
      const r = fair - p.skew * half * Math.max(-1.5, Math.min(1.5, deltaInQuoted / maxPosition)) - basisSkew;
      // What each side's fills still lose at the depth quoted (ticks), at most the leg's observed
      // spread, eased on the side that reduces the net delta, as in the model quoters.
      loss?.update(now, fair, quotedSpread.value, deltaInQuoted, maxPosition);
      const lossBid = loss ? loss.bidTicks : 0;
      const lossAsk = loss ? loss.askTicks : 0;
      let bid = Math.floor(r - half - lossBid);
      let ask = Math.ceil(r + half + lossAsk);
      if (ask <= bid) ask = bid + 1;
      const q = quoted.position.qty;
      const pendingBuy = sumWorking(quoted, 'buy');
      const pendingSell = sumWorking(quoted, 'sell');
      const minQ = quoted.instrument.minOrderSize;
      const bidQty = Math.min(p.size, Math.max(0, maxPosition - q - pendingBuy + ownAt(quoted, 'buy', bid)));
      const askQty = Math.min(p.size, Math.max(0, maxPosition + q - pendingSell + ownAt(quoted, 'sell', ask)));
      const quotes: DesiredQuotes = {
        symbol: quoted.symbol,
        bids: bidQty >= minQ ? [{ priceTicks: bid, qty: bidQty }] : [],
        asks: askQty >= minQ ? [{ priceTicks: ask, qty: askQty }] : [],
      };

      // Hedge the net delta on the liquid leg when it leaves the band, within the cost budget.
      const mH = hedge.instrument.multiplier.toNumber();
      const minH = hedge.instrument.minOrderSize;
      const band = (p.hedgeBandContracts ?? Math.max(minH, Math.round((maxPosition * mQ) / mH / 3))) * mH;
      const notional = maxPosition * mQ * midQ * tickQ;
      const budget: HedgeBudget = { usdPerHour: (notional * p.hedgeBudgetBpsPerHour) / 10_000, spentUsd: costs.spent(now) };
      const hedges: HedgeOrder[] = [];
      const inFlight = hedge.workingOrders.length > 0 || now - lastHedgeMs < p.hedgeCooldownS * 1000;
      if (!inFlight) {
        // Through the touch by the leg's own spread: in a fast market a hedge priced a fixed couple of
        // ticks through finds the touch gone and fills nothing (news preset: 17 of 28 hedges did).
        const spreadH = hedge.book!.asks[0]!.priceTicks - hedge.book!.bids[0]!.priceTicks;
        const h = planHedge(hedge, delta, band, p.hedgeSlippageTicks ?? Math.max(2, spreadH), hedge.fees.taker * 10_000, budget);
        if (h !== null) {
          hedges.push(h.order);
          costs.add(h.costUsd, now);
          lastHedgeMs = now;
        }
      }
      return { quotes: [quotes], hedges, wakeAtMs: now + p.hedgeCooldownS * 1000 };
    },
  };
}

/**
 * The basis the hedge leg's funding implies until the quoted leg expires, in quoted-leg ticks:
 * P·f̂·(settlements left), f̂ the hedge leg's estimated rate per settlement (positive: its longs pay,
 * so the future, which pays none, is worth more), P the hedge leg's price. 0 without an expiry, a
 * ready estimate or a funding schedule.
 */
export function fundingCarryTicks(quoted: SymbolView, hedge: SymbolView, hedgeInQuotedTicks: number, nowMs: number): number {
  const expiry = quoted.instrument.expirationMs;
  const f = hedge.funding;
  const schedule = hedge.instrument.fundingSchedule;
  if (expiry === null || f === null || f.rate === null || f.status !== 'ready' || schedule === null || !(expiry > nowMs)) return 0;
  const next = nextSettlement(schedule, nowMs);
  const after = next ? nextSettlement(schedule, next.atMs) : undefined;
  if (!next || !after || !(after.atMs > next.atMs)) return 0;
  return hedgeInQuotedTicks * f.rate.toNumber() * ((expiry - nowMs) / (after.atMs - next.atMs));
}

/** Contracts on one side of our working orders on a symbol. */
function sumWorking(v: SymbolView, side: 'buy' | 'sell'): number {
  let n = 0;
  for (const o of v.workingOrders) if (o.side === side) n += o.qty;
  return n;
}

/** Contracts of ours already resting at a price (re-quoting it must not count them twice). */
function ownAt(v: SymbolView, side: 'buy' | 'sell', priceTicks: number): number {
  let n = 0;
  for (const o of v.workingOrders) if (o.side === side && o.priceTicks === priceTicks) n += o.qty;
  return n;
}

/** The `basis` strategy definition. */
export const strategy: StrategyDefinition<typeof basisParams> = {
  name: 'basis',
  description: 'Quotes a dated future (or second perp) off a liquid leg plus an online basis, skewed on net delta, hedging on the liquid leg with IOC orders within a band and a cost budget',
  params: basisParams,
  create: createBasis,
};

export default strategy;
