/**
 * The strategy benchmark's scenarios: local-venue market presets with fixed seeds, and the legs
 * each built-in is run on. Sizes are per symbol so every leg risks a comparable notional.
 */

/** One market recorded from the local venue. */
export interface Scenario {
  /** `market.preset` of the local venue. */
  readonly preset: string;
  readonly seed: number;
  /** Venue seconds recorded. */
  readonly durationS: number;
  readonly symbols: readonly string[];
}

/** One backtest: a built-in on a symbol (or a pair) of a scenario, with only size and maxPosition set. */
export interface Leg {
  readonly strategy: string;
  /** The quoted symbol; for multi-symbol strategies the first of `symbols`. */
  readonly symbols: readonly string[];
  readonly size: number;
  readonly maxPosition: number;
  /** Charge the local venue's default account rates (false: the recording's own, e.g. an import's). */
  readonly venueFees?: boolean;
}

/** Presets of the local venue's synthetic market (src/sim/market/README.md). */
export const PRESETS = ['calm', 'normal', 'toxic', 'trending', 'news'] as const;

/** N seconds of venue time per preset (all by default), one fixed seed each. */
export function scenarios(durationS: number, seed: number, presets: readonly string[] = PRESETS): Scenario[] {
  return presets.map((preset) => ({ preset, seed, durationS, symbols: ['EURUSD-PERP', 'XAU-PERP', 'XAU-2026-DEC'] }));
}

/** Single-symbol built-ins are run on each liquid leg; `basis` quotes the dated future off the perp. */
export function legs(builtins: readonly string[]): Leg[] {
  const single = builtins.filter((b) => b !== 'basis');
  const out: Leg[] = [];
  for (const strategy of single) {
    out.push({ strategy, symbols: ['EURUSD-PERP'], size: 200, maxPosition: 1500, venueFees: true });
    out.push({ strategy, symbols: ['XAU-PERP'], size: 2, maxPosition: 15, venueFees: true });
  }
  if (builtins.includes('basis')) out.push({ strategy: 'basis', symbols: ['XAU-2026-DEC', 'XAU-PERP'], size: 2, maxPosition: 15, venueFees: true });
  return out;
}
