import type { Strategy } from './contract.ts';
import { toxicityGuard, toxicityGuardSchema } from './overlays/toxicity-guard.ts';
import { withOverlays } from './overlays/with-overlays.ts';

/**
 * A model quoter with the toxicity guard (overlays/toxicity-guard.ts, its defaults) applied to its
 * quotes, as the model quoters' `toxicityGuard` parameter (on by default) asks: on the AMZN morning
 * (the development window) it cut glft's loss from 1,413 to 129 USD and avellaneda-stoikov's from
 * 1,349 to 283; glft 1,337 to 278 on main's L3 order-id replay (strategies/README.md). The quoter's own fields (calibration, the flag that it
 * already prices fast volatility) stay readable on the result.
 */
export function withModelToxicityGuard<S extends Strategy>(quoter: S, on: boolean): S {
  if (!on) return quoter;
  const wrapped = withOverlays(quoter, [toxicityGuard(toxicityGuardSchema.parse({ kind: 'toxicity' }))]);
  return Object.assign(Object.create(quoter) as S, { quote: wrapped.quote.bind(wrapped) });
}
