import type { StrategyLookup } from '../../config/index.ts';
import type { StrategyDefinition } from '../../strategy/contract.ts';

/** The built-in strategy definitions (the registry's), for config validation and the JSON Schema. */
export function builtinDefinitions(): readonly StrategyDefinition[] {
  return []; // wired to src/strategy's registry once it lands
}

/** Looks a built-in strategy up by name. */
export const builtinLookup: StrategyLookup = (name) => builtinDefinitions().find((d) => d.name === name);
