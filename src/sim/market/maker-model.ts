import type { Side } from '../../domain/enums.ts';
import type { Rng } from './rng.ts';

/** Parameters of the background makers' ladder for one instrument. */
export interface MakerParams {
  /** Levels per side. */
  readonly levels: number;
  /** Distance of the first level from the fair price, in ticks (half the quoted spread). */
  readonly halfSpreadTicks: number;
  /** Gap between consecutive levels, in ticks. */
  readonly levelSpacingTicks: number;
  /** Size of a level in lots of the minimum order size: uniform in [min, max]. */
  readonly minLots: number;
  readonly maxLots: number;
  /** Requote only when fair moved at least this many ticks (reduces churn). */
  readonly requoteThresholdTicks: number;
}

/** One desired resting order. */
export interface LadderOrder {
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
}

/**
 * The ladder the background makers want around `fairTicks` (a float): bids at
 * floor(fair) − half − k·spacing and asks at ceil(fair) + half + k·spacing, sizes drawn per level
 * and growing with depth (deeper levels are larger, as on real books).
 */
export function desiredLadder(fairTicks: number, minQty: number, p: MakerParams, rng: Rng): LadderOrder[] {
  const out: LadderOrder[] = [];
  const bid0 = Math.floor(fairTicks) - p.halfSpreadTicks;
  const ask0 = Math.ceil(fairTicks) + p.halfSpreadTicks;
  for (let k = 0; k < p.levels; k++) {
    const depthBoost = 1 + k * 0.25;
    const bq = Math.max(1, Math.round(rng.int(p.minLots, p.maxLots) * depthBoost)) * minQty;
    const aq = Math.max(1, Math.round(rng.int(p.minLots, p.maxLots) * depthBoost)) * minQty;
    const b = bid0 - k * p.levelSpacingTicks;
    if (b > 0) out.push({ side: 'buy', priceTicks: b, qty: bq });
    out.push({ side: 'sell', priceTicks: ask0 + k * p.levelSpacingTicks, qty: aq });
  }
  return out;
}

/** A working maker order as the flow driver tracks it. */
export interface WorkingLadderOrder {
  readonly id: string;
  readonly side: Side;
  readonly priceTicks: number;
}

/** What to change to move from the working orders to the desired ladder. */
export interface LadderDiff {
  readonly cancel: readonly string[];
  readonly place: readonly LadderOrder[];
}

/**
 * Diffs the working orders against the desired ladder keyed by (side, price): a level whose order
 * is still there (even partly filled) is kept; missing levels are placed; levels no longer wanted
 * are cancelled. Keeping levels preserves queue priority, like a real maker would.
 */
export function diffLadder(working: readonly WorkingLadderOrder[], desired: readonly LadderOrder[]): LadderDiff {
  const want = new Map<string, LadderOrder>();
  for (const d of desired) want.set(`${d.side}:${d.priceTicks}`, d);
  const cancel: string[] = [];
  const have = new Set<string>();
  for (const w of working) {
    const key = `${w.side}:${w.priceTicks}`;
    if (want.has(key) && !have.has(key)) have.add(key);
    else cancel.push(w.id);
  }
  const place = desired.filter((d) => !have.has(`${d.side}:${d.priceTicks}`));
  return { cancel, place };
}
