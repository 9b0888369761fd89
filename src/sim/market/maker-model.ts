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
  /** Makers quote the underlying as it was this long ago (venue ms). */
  readonly reactionMs: number;
  /** Half-spread and size multipliers in the volatile regime. */
  readonly volatileSpreadMult: number;
  readonly volatileSizeMult: number;
  /** Half-spread multiplier right after a jump, easing linearly back to 1 over `jumpRecoveryMs`. */
  readonly jumpSpreadMult: number;
  readonly jumpRecoveryMs: number;
  /** Random level refreshes per second (depth churn). */
  readonly churnPerS: number;
}

/** The ladder shape the makers want right now: wider and thinner when volatile or just after a jump. */
export interface LadderShape {
  readonly halfSpreadTicks: number;
  readonly minLots: number;
  readonly maxLots: number;
}

/**
 * How makers react to the state of the market: the half spread is the base times the larger of the
 * volatile-regime multiplier and the post-jump multiplier (fading linearly over the recovery
 * time); sizes shrink by the volatile size multiplier, and after a jump in proportion to the widening.
 */
export function ladderShape(p: MakerParams, volatile: boolean, msSinceJump: number): LadderShape {
  const fade = p.jumpRecoveryMs > 0 ? Math.max(0, 1 - msSinceJump / p.jumpRecoveryMs) : 0;
  const jumpMult = 1 + (p.jumpSpreadMult - 1) * fade;
  const spreadMult = Math.max(volatile ? p.volatileSpreadMult : 1, jumpMult);
  const sizeMult = Math.min(volatile ? p.volatileSizeMult : 1, 1 / jumpMult);
  const minLots = Math.max(1, Math.round(p.minLots * sizeMult));
  return {
    halfSpreadTicks: Math.max(1, Math.round(p.halfSpreadTicks * spreadMult)),
    minLots,
    maxLots: Math.max(minLots, Math.round(p.maxLots * sizeMult)),
  };
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
export function desiredLadder(fairTicks: number, minQty: number, p: MakerParams, rng: Rng, shape: LadderShape = p): LadderOrder[] {
  const out: LadderOrder[] = [];
  const bid0 = Math.floor(fairTicks) - shape.halfSpreadTicks;
  const ask0 = Math.ceil(fairTicks) + shape.halfSpreadTicks;
  for (let k = 0; k < p.levels; k++) {
    const bq = levelQty(k, minQty, shape, rng);
    const aq = levelQty(k, minQty, shape, rng);
    const b = bid0 - k * p.levelSpacingTicks;
    if (b > 0) out.push({ side: 'buy', priceTicks: b, qty: bq });
    out.push({ side: 'sell', priceTicks: ask0 + k * p.levelSpacingTicks, qty: aq });
  }
  return out;
}

/** A fresh size for level `k` (0 = best): uniform in lots, deeper levels larger, as on real books. */
export function levelQty(k: number, minQty: number, shape: LadderShape, rng: Rng): number {
  return Math.max(1, Math.round(rng.int(shape.minLots, shape.maxLots) * (1 + k * 0.25))) * minQty;
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
