/**
 * The selection groups of the leave-one-market-out bench (lomo.ts): one group per default of the
 * model quoters' parameters (src/strategy/model-params.ts, shared by glft and avellaneda-stoikov),
 * each the default first and then one or two meaningful alternatives. A data table on purpose: a
 * group is added or adjusted by one line, and since ensembles are cached by market and params hash,
 * adding a group never reruns another. Each alternative costs about 20 s per market (16 draws).
 */

/** One candidate setting of a group: a label and the glft params it sets on top of the recipe. */
export interface LomoCandidate {
  readonly label: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** One selection: the parameter it decides, its default (first candidate, no params) and the alternatives. */
export interface LomoGroup {
  /** The parameter's name (what `--lomo-groups` filters on). */
  readonly param: string;
  /** The default first (its params are `{}`: the recipe as it is), then the alternatives. */
  readonly candidates: readonly LomoCandidate[];
}

/** A group of `param`: the default's label, then each alternative value. */
const group = (param: string, dflt: unknown, ...alts: unknown[]): LomoGroup => ({
  param,
  candidates: [{ label: `${param} ${String(dflt)} (default)`, params: {} }, ...alts.map((v) => ({ label: `${param} ${String(v)}`, params: { [param]: v } }))],
});

/**
 * A joint group: every combination of `values` (one value list per parameter, the default's value
 * first), the default's own combination first. One-at-a-time selections ignore how changes
 * interact; the joint group judges them together, held out like any other.
 */
const joint = (name: string, values: Readonly<Record<string, readonly unknown[]>>): LomoGroup => {
  const keys = Object.keys(values);
  let combos: Record<string, unknown>[] = [{}];
  for (const k of keys) combos = combos.flatMap((c) => values[k]!.map((v) => ({ ...c, [k]: v })));
  const label = (c: Record<string, unknown>) => `${name} ${keys.map((k) => `${k}=${String(c[k])}`).join(' ')}`;
  const isDefault = (c: Record<string, unknown>) => keys.every((k) => c[k] === values[k]![0]);
  const dflt = combos.find(isDefault)!;
  return {
    param: name,
    candidates: [{ label: `${label(dflt)} (default)`, params: {} }, ...combos.filter((c) => !isDefault(c)).map((c) => ({ label: label(c), params: c }))],
  };
};

/**
 * The groups. The first is the main group (its default is every group's default). Half-lives get
 * ×½ and ×2; refitIntervalMs has none (a compute cadence, not a trading choice). A group whose
 * parameter this build's glft does not take fails validation and is skipped, named.
 */
export const LOMO_GROUPS: readonly LomoGroup[] = [
  group('minSpreadShare', 0.5, 0, 1),
  group('flowState', 'widen', 'off', 'pull'),
  group('toxicityGuard', true, false),
  group('flowAlpha', true, false),
  group('leadingFair', false, true),
  group('queueAware', false, true),
  group('fairValue', 'mid', 'microprice', 'weighted-mid'),
  group('riskAversion', 1, 0.5, 2),
  group('sizeDecay', 1, 0, 2),
  group('adverseSelection', 'add', 'floor'),
  group('adverseHorizonS', 10, 5, 30),
  group('volHalfLifeS', 300, 150, 600),
  group('fastVolHalfLifeS', 30, 15, 60),
  group('flowStateHalfLifeS', 5, 2.5, 10),
  group('intensityHalfLifeS', 1800, 900),
  group('fallbackWidth', 1, 2),
  group('edgeGuard', 'widen', 'off', 'shrink', 'pull'),
  // The three changes the one-at-a-time selections asked for (queueAware off → on, intensity 1800 →
  // 900 s, flow state 5 → 10 s), judged together against the defaults: all eight combinations.
  joint('joint', { queueAware: [false, true], intensityHalfLifeS: [1800, 900], flowStateHalfLifeS: [5, 10] }),
];
