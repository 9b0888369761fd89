import { z } from 'zod';
import { PARAM_RANGES } from '../param-ranges.ts';
import { nextSettlement } from '../../domain/funding-schedule.ts';
import type { DesiredQuotes } from '../../domain/intents.ts';
import type { StrategyContext } from '../contract.ts';
import { Ewma } from '../estimators/ewma.ts';
import { innerHalfSpread, type QuoteAdjustment } from './adjustment.ts';
import type { Overlay } from './overlay.ts';

/** Parameters of the funding-carry overlay. */
export const fundingCarrySchema = z.strictObject({
  kind: z.literal('funding-carry'),
  holdingTimeS: z
    .number()
    .positive()
    .max(PARAM_RANGES.seconds)
    .optional()
    .describe('H, expected time a contract stays in inventory, seconds. Default: calibrated from our fills by Little\'s law (average |position| ÷ contracts per second that open or grow |position|); the time to settlement until then.'),
  maxShiftSpreads: z.number().positive().max(PARAM_RANGES.factor).default(1).describe('Cap on |shift|, in half-spreads of the inner quotes.'),
  guardWindowS: z.number().nonnegative().max(PARAM_RANGES.seconds).default(300).describe('Within this many seconds of a settlement with |f̂·P| above a half-spread, the paying side\'s size is scaled by guardSizeMult.'),
  guardSizeMult: z.number().min(0).max(1).default(0.5).describe('Size multiplier on the paying side inside the guard window (0 pulls it).'),
});

/** Parsed parameters. */
export type FundingCarryConfig = z.infer<typeof fundingCarrySchema>;

/**
 * Funding carry (docs/strategy-models.md §4.4, discrete version): with f̂ the venue's estimated next funding
 * rate (positive: longs pay), P the mark (or mid) in ticks, Δt the time to the next settlement of
 * the instrument's schedule and H the expected holding time, the fair value shifts by
 * −f̂·P·e^(−Δt/H) ticks (capped at maxShiftSpreads half-spreads): quotes lean toward the side that
 * gets paid. Near the settlement, a large |f̂·P| also shrinks the paying side.
 */
export function fundingCarry(c: FundingCarryConfig): Overlay {
  // Little's law: H = E|q| / (contracts entering the inventory per second). Only the fills that
  // open or grow |q| enter it; counting both sides' fills would halve H.
  const absPos = new Ewma(3_600_000);
  const fillRate = new Ewma(3_600_000);
  let lastMs = Number.NaN;
  let filledSince = 0;
  let nextMs = Number.NaN;
  let nextFromMs = Number.NaN;
  return {
    kind: 'funding-carry',
    adjust(ctx: StrategyContext, inner: DesiredQuotes, adj: QuoteAdjustment): void {
      const now = ctx.nowMs;
      filledSince += enteringQty(ctx);
      if (Number.isNaN(lastMs)) lastMs = now;
      else if (now - lastMs >= 1000) {
        const dtS = (now - lastMs) / 1000;
        absPos.update(Math.abs(ctx.position.qty), now, dtS);
        fillRate.update(filledSince / dtS, now, dtS);
        filledSince = 0;
        lastMs = now;
      }
      const f = ctx.funding;
      const schedule = ctx.instrument.fundingSchedule;
      if (f === null || f.rate === null || f.status !== 'ready' || schedule === null) return;
      if (Number.isNaN(nextMs) || now >= nextMs || now < nextFromMs) {
        nextMs = nextSettlement(schedule, now)?.atMs ?? Number.NaN;
        nextFromMs = now;
      }
      if (Number.isNaN(nextMs)) return;
      const b = ctx.book?.bids[0]?.priceTicks;
      const a = ctx.book?.asks[0]?.priceTicks;
      const price = ctx.markTicks ?? (a !== undefined && b !== undefined ? (a + b) / 2 : Number.NaN);
      if (!(price > 0)) return;
      const dtS = (nextMs - now) / 1000;
      const rate = f.rate.toNumber();
      const learnt = fillRate.value > 0 ? absPos.value / fillRate.value : Number.NaN;
      const holdS = c.holdingTimeS ?? (learnt > 0 ? learnt : Math.max(1, dtS));
      const half = innerHalfSpread(inner);
      const cap = c.maxShiftSpreads * (half > 0 ? half : 1);
      const carry = rate * price;
      adj.shiftTicks += Math.max(-cap, Math.min(cap, -carry * Math.exp(-dtS / holdS)));
      if (dtS <= c.guardWindowS && Math.abs(carry) > (half > 0 ? half : 1)) {
        if (rate > 0) adj.bidSizeMult *= c.guardSizeMult;
        else adj.askSizeMult *= c.guardSizeMult;
      }
    },
  };
}

/**
 * Contracts of this call's fills on the primary symbol that opened or grew |position| (the flow into
 * the inventory, Little's law's arrivals): walked forward from the position before them.
 */
export function enteringQty(ctx: Pick<StrategyContext, 'fills' | 'symbol' | 'position'>): number {
  const fills = ctx.fills;
  let q = ctx.position.qty;
  for (let i = 0; i < fills.length; i++) if (fills[i]!.symbol === ctx.symbol) q -= fills[i]!.side === 'buy' ? fills[i]!.qty : -fills[i]!.qty;
  let entering = 0;
  for (let i = 0; i < fills.length; i++) {
    const f = fills[i]!;
    if (f.symbol !== ctx.symbol) continue;
    const s = f.side === 'buy' ? 1 : -1;
    entering += q * s >= 0 ? f.qty : Math.max(0, f.qty - Math.abs(q));
    q += s * f.qty;
  }
  return entering;
}
