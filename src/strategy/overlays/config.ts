import { z } from 'zod';
import { fundingCarry, fundingCarrySchema } from './funding-carry.ts';
import type { Overlay } from './overlay.ts';
import { rewardAware, rewardAwareSchema } from './reward-aware.ts';
import { toxicityGuard, toxicityGuardSchema } from './toxicity-guard.ts';
import { volatilityWidening, volatilityWideningSchema } from './volatility-widening.ts';

/** One overlay in a `bot.strategies[].overlays` list, chosen by `kind`. */
export const overlayConfigSchema = z.discriminatedUnion('kind', [fundingCarrySchema, rewardAwareSchema, volatilityWideningSchema, toxicityGuardSchema]);

/** A parsed overlay config. */
export type OverlayConfig = z.infer<typeof overlayConfigSchema>;

/** An overlay kind as `mmbot strategies` lists it: name, summary and parameter schema. */
export interface OverlayKind {
  readonly kind: OverlayConfig['kind'];
  readonly description: string;
  readonly params: z.ZodObject;
}

/** Every overlay kind, in the order `mmbot strategies` lists them. */
export const overlayKinds: readonly OverlayKind[] = [
  { kind: 'funding-carry', description: 'Shift the fair value by the expected funding carry −f̂·P·e^(−Δt/H) toward the side that gets paid (docs/strategy-models.md §4.4), capped; shrink the paying side near settlement', params: fundingCarrySchema },
  { kind: 'reward-aware', description: 'Keep qualifying quotes inside the liquidity program\'s spread limit and minimum notional, resting at least minRestMs, while the expected reward beats the expected adverse selection', params: rewardAwareSchema },
  { kind: 'volatility', description: 'Widen both sides when the fast σ of the mid runs above its slow baseline (optionally cut sizes)', params: volatilityWideningSchema },
  { kind: 'toxicity', description: 'Widen, then step back, when the recent markouts of our fills turn negative', params: toxicityGuardSchema },
];

/** Builds the overlay a config describes. */
export function createOverlay(c: OverlayConfig): Overlay {
  switch (c.kind) {
    case 'funding-carry':
      return fundingCarry(c);
    case 'reward-aware':
      return rewardAware(c);
    case 'volatility':
      return volatilityWidening(c);
    case 'toxicity':
      return toxicityGuard(c);
  }
}
