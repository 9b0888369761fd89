import {
  asOptimalSpread,
  asReservationPrice,
  createModelQuoter,
  withModelToxicityGuard,
  modelBaseShape,
  PARAM_RANGES,
  z,
  type ModelCalibration,
  type QuoteModel,
  type Strategy,
  type StrategyDefinition,
} from '../../src/index.ts';

/** Parameters (units in the names and descriptions; see README.md). */
export const avellanedaStoikovParams = z
  .object({
    ...modelBaseShape,
    horizon: z
      .enum(['rolling', 'cycle'])
      .default('rolling')
      .describe('rolling: T − t is always horizonS (infinite-horizon use); cycle: T is the end of the current horizonS-long cycle (UTC-aligned), so quotes tighten their inventory term as it nears.'),
    horizonS: z
      .number()
      .positive()
      .max(PARAM_RANGES.seconds)
      .optional()
      .describe('Horizon T − t in seconds. Default: the holding horizon H of the risk budget (holdingHorizonS, else maxPosition/size lots ÷ A per side, clamped to [1 s, 1 day]).'),
    driftTicksPerS: z.number().min(-PARAM_RANGES.ticks).max(PARAM_RANGES.ticks).default(0).describe('Known drift μ of the fair value in ticks/s: r = s + μ(T−t) − qγσ²(T−t).'),
  })
  .strict();

/** Parsed parameters. */
export type AvellanedaStoikovParams = z.infer<typeof avellanedaStoikovParams>;

/** T − t in seconds at `nowMs` for a horizon of `horizonS` (cycle mode floors it at 1 % of the horizon). */
export function remainingS(mode: 'rolling' | 'cycle', horizonS: number, nowMs: number): number {
  if (mode === 'rolling') return horizonS;
  const periodMs = horizonS * 1000;
  const left = periodMs - (((nowMs % periodMs) + periodMs) % periodMs);
  return Math.max(0.01 * horizonS, left / 1000);
}

/** The A–S model: refits σ, k and the horizon (γ is the quoter's); prices r ± spread/2. */
export function avellanedaStoikovModel(p: AvellanedaStoikovParams): QuoteModel {
  let sigma = Number.NaN;
  let k = Number.NaN;
  let horizonS = Number.NaN;
  let gamma = Number.NaN;
  return {
    refit(c: ModelCalibration): boolean {
      sigma = c.sigma;
      k = c.fit.kPerTick;
      horizonS = p.horizonS ?? c.holdingS;
      // γ comes from the risk budget against the long-run σ: σ now above it widens the spread and
      // steepens the skew (∝ σ²); in cycle mode the inventory term shrinks toward T.
      gamma = c.gamma;
      return gamma > 0 && k > 0 && horizonS > 0;
    },
    price(fair, qLots, nowMs, out): void {
      const tau = remainingS(p.horizon, horizonS, nowMs);
      const r = asReservationPrice(fair, qLots, gamma, sigma, tau, p.driftTicksPerS);
      // The optimal half-spread is the edge from the reservation price (QuoteModel.price).
      const half = asOptimalSpread(gamma, sigma, tau, k) / 2;
      out.bid = r - half;
      out.ask = r + half;
    },
  };
}

/** Builds an Avellaneda–Stoikov quoter. */
export const createAvellanedaStoikov = (p: AvellanedaStoikovParams): Strategy => withModelToxicityGuard(createModelQuoter(p, avellanedaStoikovModel(p)), p.toxicityGuard);

/** The `avellaneda-stoikov` strategy definition. */
export const strategy: StrategyDefinition<typeof avellanedaStoikovParams> = {
  name: 'avellaneda-stoikov',
  description: 'Avellaneda–Stoikov reservation price and optimal spread, rolling or cyclic horizon, σ and k calibrated online',
  params: avellanedaStoikovParams,
  create: createAvellanedaStoikov,
};

export default strategy;
