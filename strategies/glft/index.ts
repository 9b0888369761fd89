import {
  createModelQuoter,
  withModelToxicityGuard,
  Ewma,
  GlftBoundedSolution,
  glftCoefficients,
  glftDepths,
  modelBaseShape,
  PARAM_RANGES,
  z,
  type GlftCoefficients,
  type ModelCalibration,
  type QuoteModel,
  type Strategy,
  type StrategyDefinition,
} from '../../src/index.ts';

/** Parameters (units in the names and descriptions; see README.md). */
export const glftParams = z
  .object({
    ...modelBaseShape,
    adj1: z.number().positive().max(PARAM_RANGES.factor).default(1).describe('Multiplier on the GLFT half-spread (hftbacktest adj₁).'),
    adj2: z.number().nonnegative().max(PARAM_RANGES.factor).default(1).describe('Multiplier on the GLFT inventory skew (hftbacktest adj₂; raw GLFT skew is often strong).'),
    xi: z.number().nonnegative().max(PARAM_RANGES.factor).optional().describe('ξ in 1/(tick·lot): ξ = γ (default) is the CARA objective, 0 the risk-neutral one with a running inventory penalty.'),
    driftTicksPerS: z.number().min(-PARAM_RANGES.ticks).max(PARAM_RANGES.ticks).default(0).describe('Known drift μ of the fair value in ticks/s (GLFT trend term: shifts the inventory by −μ/(γσ²)).'),
    inventoryModel: z
      .enum(['bounded', 'closed-form'])
      .default('closed-form')
      .describe('bounded: the exact asymptotic GLFT quotes for inventory in [−maxPosition, maxPosition] (ground state of the GLFT matrix: skew steepening toward the bound, the growing side unquoted where a fill would pass it); closed-form: the c₁/c₂ approximation (linear skew).'),
    trendHalfLifeS: z.number().positive().max(PARAM_RANGES.seconds).optional().describe('Also estimate the drift online: EWMA of the mid\'s velocity with this half-life, seconds (unset = off).'),
  })
  .strict();

/** Parsed parameters. */
export type GlftParams = z.infer<typeof glftParams>;

/** The GLFT model: refits c₁, c₂ (and the bounded solution) on each calibration's σ, A, k and γ. */
export function glftModel(p: GlftParams): QuoteModel {
  let coef: GlftCoefficients = { c1: Number.NaN, c2: Number.NaN };
  let gamma = Number.NaN;
  let sigma = Number.NaN;
  const depths = { bidDepth: 0, askDepth: 0 };
  // Online trend: Σw·Δmid / Σw·Δt on a 1 s grid.
  const trendDx = p.trendHalfLifeS !== undefined ? new Ewma(p.trendHalfLifeS * 1000) : null;
  const trendDt = p.trendHalfLifeS !== undefined ? new Ewma(p.trendHalfLifeS * 1000) : null;
  let lastFair = Number.NaN;
  let lastMs = Number.NaN;
  const bounded = p.inventoryModel === 'bounded' ? new GlftBoundedSolution() : null;
  let useBounded = false;
  /** μ in ticks/s: the known drift plus the online trend estimate when enabled. */
  const drift = (): number => p.driftTicksPerS + (trendDx && trendDt && trendDt.value > 0 ? trendDx.value / trendDt.value : 0);
  return {
    refit(c: ModelCalibration): boolean {
      sigma = c.sigma;
      // γ from the risk budget against the long-run σ: σ now above it widens the half-spread and
      // steepens the skew (∝ σ).
      gamma = c.gamma;
      if (!(gamma > 0)) return false;
      coef = glftCoefficients(gamma, c.fit.aPerS, c.fit.kPerTick, p.xi ?? gamma);
      // The bounded solution is the ξ = γ (CARA) one; an explicit ξ keeps the closed form.
      useBounded = bounded !== null && p.xi === undefined && bounded.solve(c.qMaxLots, sigma, c.fit.aPerS, c.fit.kPerTick, gamma, drift());
      return Number.isFinite(coef.c1) && Number.isFinite(coef.c2);
    },
    price(fair, qLots, nowMs, out): void {
      if (trendDx && trendDt) {
        if (Number.isNaN(lastMs)) {
          lastFair = fair;
          lastMs = nowMs;
        } else if (nowMs - lastMs >= 1000) {
          trendDx.update(fair - lastFair, nowMs);
          trendDt.update((nowMs - lastMs) / 1000, nowMs);
          lastFair = fair;
          lastMs = nowMs;
        }
      }
      if (useBounded && bounded) {
        bounded.depths(qLots, depths);
        // adj₁ scales the half-spread and adj₂ the skew, as in the closed form.
        if (Number.isFinite(depths.bidDepth) && Number.isFinite(depths.askDepth) && (p.adj1 !== 1 || p.adj2 !== 1)) {
          const half = (p.adj1 * (depths.bidDepth + depths.askDepth)) / 2;
          const skew = (p.adj2 * (depths.bidDepth - depths.askDepth)) / 2;
          depths.bidDepth = half + skew;
          depths.askDepth = half - skew;
        }
      } else glftDepths(qLots, sigma, coef, gamma, depths, p.adj1, p.adj2, drift());
      // Depths are the edge from the fair value (QuoteModel.price): inside the touch they join it.
      out.bid = fair - depths.bidDepth;
      out.ask = fair + depths.askDepth;
    },
  };
}

/** Builds a GLFT quoter. */
export const createGlft = (p: GlftParams): Strategy => withModelToxicityGuard(createModelQuoter(p, glftModel(p)), p.toxicityGuard);

/** The `glft` strategy definition. */
export const strategy: StrategyDefinition<typeof glftParams> = {
  name: 'glft',
  description: 'Guéant–Lehalle–Fernandez-Tapia closed-form quotes with σ, A, k calibrated online; adj₁/adj₂ multipliers and a drift term',
  params: glftParams,
  create: createGlft,
};

export default strategy;
