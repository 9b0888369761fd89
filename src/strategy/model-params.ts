import { z } from 'zod';
import { PARAM_RANGES } from './param-ranges.ts';

/** Parameters every model quoter (avellaneda-stoikov, glft) shares; only size and maxPosition are required. */
export const modelBaseShape = {
  size: z.number().int().positive().max(PARAM_RANGES.contracts).describe('Contracts per level; also the model\'s lot (q = position / size). Required.'),
  maxPosition: z.number().int().positive().max(PARAM_RANGES.contracts).describe('Hard cap in contracts: a side is trimmed so |position + in-flight + new| ≤ this. Required.'),
  levels: z.number().int().min(1).max(20).default(1).describe('Levels per side, laid outward from the model quotes.'),
  spacingTicks: z.number().int().positive().max(PARAM_RANGES.ticks).default(1).describe('Ticks between levels.'),
  riskAversion: z
    .number()
    .positive()
    .max(PARAM_RANGES.factor)
    .default(1)
    .describe('γ from a risk budget: γ = riskAversion / (qMax·σ·√H), qMax = maxPosition/size lots, σ the long-run σ, H the holding horizon; 1 = a risk tolerance of the loss a full inventory takes on a one-σ move over H (the A–S reservation price then moves one σ√H at maxPosition). Larger = more averse: stronger skew.'),
  holdingHorizonS: z
    .number()
    .positive()
    .max(PARAM_RANGES.seconds)
    .optional()
    .describe('H, seconds: the horizon of the risk budget (and the A–S horizon unless horizonS is set). Default: calibrated, qMax lots ÷ A (the time the one-side flow reaching the mid takes to turn a full inventory over), clamped to [1 s, 1 day].'),
  gamma: z.number().positive().max(PARAM_RANGES.factor).optional().describe('Risk aversion γ in 1/(tick·lot); overrides riskAversion.'),
  fairValue: z
    .enum(['mid', 'weighted-mid', 'microprice'])
    .default('mid')
    .describe('Fair value s: the mid, the size-weighted mid of the touch, or the learnt microprice (mid + average next-second move per imbalance bucket).'),
  sizeDecay: z
    .number()
    .nonnegative()
    .max(PARAM_RANGES.factor)
    .default(1)
    .describe('η: the side that grows |q| quotes size·e^(−η·|q|/maxPosition), rounded, at least the minimum order (Fushimi et al.; 1: 37 % of size at maxPosition, 61 % at half of it; 0 = off).'),
  volHalfLifeS: z.number().positive().max(PARAM_RANGES.seconds).default(300).describe('Half-life of the σ estimate, seconds (mid sampled every second).'),
  intensityHalfLifeS: z.number().positive().max(PARAM_RANGES.seconds).default(1800).describe('Half-life of the trade-intensity (A, k) estimate, and of the flow-state and edge-guard means, seconds (1800: kept by the joint leave-one-market-out check on four real markets, strategies/README.md).'),
  refitIntervalMs: z.number().int().positive().max(PARAM_RANGES.intervalMs).default(1000).describe('Engine ms between refits of σ, A, k and γ.'),
  fallbackWidth: z
    .number()
    .positive()
    .max(PARAM_RANGES.factor)
    .default(1)
    .describe('Until σ, A and k are calibrated: half-spread = fallbackWidth × half the observed touch spread (1 = join the touch, 2 = one full spread from the fair value), with the same fee and adverse-selection floor and a linear inventory skew.'),
  minSpreadShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe('Floor: the quoted half-spread is at least this share of half the observed touch spread (the market without our orders), so on a wide book the model may improve the touch but not quote far inside it (0 = off: the model alone decides). Default 0.5: chosen on the AMZN morning, where 91 % of the model\'s fills came while the spread was over 15 ticks, mostly from quotes improving the touch, and lost 1.9 bps each at 10 s (strategies/README.md).'),
  adverseHorizonS: z
    .number()
    .positive()
    .max(PARAM_RANGES.seconds)
    .default(10)
    .describe('Horizon of the markouts of our own maker fills, seconds: the half-spread is floored at the maker fee plus the mean adverse mid move this long after our recent fills. Also the horizon the trade-flow signal predicts over.'),
  adverseSelection: z
    .enum(['add', 'floor'])
    .default('add')
    .describe('How the measured adverse selection of a side enters its quote: add (Cartea–Jaimungal: the expected mid move against a fill is added to the model\'s depth, which is floored at the maker fee) or floor (the half-spread is at least fee + adverse move).'),
  edgeGuard: z
    .enum(['off', 'widen', 'shrink', 'pull'])
    .default('widen')
    .describe('Safe when there is no edge (EdgeGuard): each side\'s own maker fills are marked adverseHorizonS later, side × (mid then − fill price) less the maker fee, in ticks, per regime (touch spread 1 / 2 / 3–4 / 5–8 / 9–16 / 17+ ticks × the side\'s flow state against / neutral / for × the mid last moved <0.1 / 0.1–1 / 1–10 / ≥10 s ago), a side\'s mean shrunk toward 0 by 10 lots of "no edge" and a regime\'s toward its side\'s by 10 lots, weights halving every intensityHalfLifeS; a side whose expected edge in its current regime is negative is widened by the loss in whole ticks (at most one observed market spread; the depth added is taken off its fills\' marks, so the estimate stays the base quote\'s) (widen), quotes e^(−loss / one observed market spread) of its size at the base depth (shrink), or is left unquoted while the loss is a tick or more (pull); the side reducing the inventory backs off less the larger it is and is never pulled. off = no guard. Replaces lossFeedback. Default widen: chosen leave-one-market-out on the four real markets (strategies/README.md).'),
  flowAlpha: z
    .boolean()
    .default(true)
    .describe('Shift the fair value by the mid move over adverseHorizonS that the public trade-flow imbalance predicts, as an online regression measures it (shrunk to 0 unless significant).'),
  flowState: z
    .enum(['off', 'widen', 'pull'])
    .default('widen')
    .describe('Public flow-state adverse selection (FlowStateMarkouts): every public print marks what its resting side earned adverseHorizonS later, per state of the signed trade flow seen from that side (well against … well for, in typical flow sizes); a side whose current state loses after the maker fee is widened by that loss in ticks (widen) or left unquoted (pull). Default widen: chosen on the AMZN morning (strategies/README.md).'),
  flowStateHalfLifeS: z
    .number()
    .positive()
    .max(PARAM_RANGES.seconds)
    .default(5)
    .describe('Half-life of the signed trade flow that defines a side\'s flow state, seconds (5: the burst a print belongs to; kept by the joint leave-one-market-out check on four real markets, strategies/README.md; on the AMZN day its five states ordered the prints from losing to earning in both halves, −3.9 … +4.3 cents a share at 10 s in the morning, −0.26 … +0.26 in the afternoon).'),
  leadingFair: z
    .boolean()
    .default(false)
    .describe('Off by default: on the AMZN morning (the development window) it helped avellaneda-stoikov and hurt glft by as much (strategies/README.md). Lead the fair value by the mid move over adverseHorizonS that touch imbalance, order-flow imbalance and trade-flow imbalance predict (an online regression, each coefficient kept only while significant), and widen the side a jump of the mid went against by the jump for a second (LeadingFair).'),
  queueAware: z
    .boolean()
    .default(false)
    .describe('Queue-aware first level: join the touch or improve it by a tick by expected value (fill probability from the estimated queue ahead × edge after fee and adverse move), and keep a resting order\'s price while the model\'s move gains less edge than re-queuing loses (QueueTracker). Off by default: alone it raised the held-out median edge on 3 of 4 real markets, but with the other two changes of that round it did not beat the defaults held out (the joint check, strategies/README.md).'),
  toxicityGuard: z
    .boolean()
    .default(true)
    .describe('Apply the toxicity guard overlay (its defaults) to the quotes: a side whose recent fills mark out negative 5 s later widens by the adverse move and, past two half-spreads, halves its size. On by default: on the AMZN morning (the development window) it cut glft\'s loss from 1,413 to 129 USD and avellaneda-stoikov\'s from 1,349 to 283 (glft 1,337 to 278 on main\'s L3 order-id replay).'),
  fastVolHalfLifeS: z
    .number()
    .positive()
    .max(PARAM_RANGES.seconds)
    .default(30)
    .describe('Half-life of the fast σ estimate, seconds: the models price with max(fast σ, σ), so a jump widens within seconds and the widening decays with volHalfLifeS; γ is set against the long-run σ (intensityHalfLifeS).'),
  unwindAfterS: z
    .number()
    .positive()
    .max(PARAM_RANGES.seconds)
    .optional()
    .describe('Cost-aware taker unwind: after this many seconds at |position| ≥ maxPosition, send an IOC for one lot at the opposite touch when crossing (half-spread from the fair value + taker fee) costs less than the marginal risk premium of the last lot, γσ²H·(|q| − ½) ticks. Unset (default) = off.'),
} as const;

const baseObject = z.object(modelBaseShape);
/** Parsed shared parameters. */
export type ModelBaseParams = z.infer<typeof baseObject>;
