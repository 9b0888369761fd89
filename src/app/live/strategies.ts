import { checkStrategyParams, configInvalid, formatPath, type BotConfig, type StrategyLookup } from '../../config/index.ts';
import { asSymbol } from '../../core/ids.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { StrategyBinding } from '../../engine/index.ts';
import { builtinStrategies, loadStrategy, withOverlays, type Strategy, type StrategyDefinition } from '../../strategy/index.ts';

let builtins: Promise<readonly StrategyDefinition[]> | undefined;

/** Loads every built-in strategy definition once (their modules load on demand). */
export function builtinDefinitions(): Promise<readonly StrategyDefinition[]> {
  builtins ??= Promise.all(builtinStrategies.map((b) => loadStrategy(b.name)));
  return builtins;
}

/** A synchronous lookup over the built-ins, for loadConfig. */
export async function builtinLookup(): Promise<StrategyLookup> {
  const defs = await builtinDefinitions();
  return (name) => defs.find((d) => d.name === name);
}

/**
 * Builds one strategy instance per config entry, after checking each symbol is listed by the venue
 * and (for module strategies) the params against the module's schema. `lookup` finds the built-ins
 * (the one loadConfig used; default the registry's).
 * @throws MmError CONFIG_INVALID naming the entry, STRATEGY_INVALID when a module fails to load.
 */
export async function buildStrategies(config: BotConfig, catalog: InstrumentCatalog, lookup?: StrategyLookup): Promise<StrategyBinding[]> {
  const builtin = lookup ?? (await builtinLookup());
  const file = config.source.file;
  const bindings: StrategyBinding[] = [];
  for (const [index, entry] of config.bot.strategies.entries()) {
    for (const [k, symbol] of entry.symbols.entries()) {
      if (catalog.get(symbol)) continue;
      const listed = catalog.all().map((i) => i.symbol);
      const shown = `${listed.slice(0, 10).join(', ')}${listed.length > 10 ? ', ...' : ''}`;
      const path = entry.symbols.length > 1 || entry.symbol !== symbol ? ['bot', 'strategies', index, 'symbols', k] : ['bot', 'strategies', index, 'symbol'];
      throw configInvalid(file, [{ path: formatPath(path), message: `"${symbol}" is not listed by the venue (listed: ${shown})`, value: symbol }]);
    }
    // Module strategies are loaded here (loadConfig stays synchronous) and their params checked.
    const definition = await definitionOf(entry, config, builtin);
    const params = entry.paramsChecked ? entry.params : checkStrategyParams(definition, entry.params, { file, index });
    const symbols = entry.symbols.map(asSymbol);
    bindings.push({ id: entry.id, symbol: symbols[0]!, ...(symbols.length > 1 ? { symbols } : {}), strategy: withOverlays(definition.create(params), entry.overlays) });
  }
  return bindings;
}

/** A config entry's strategy definition: the built-in, else the module it names (relative to the config). */
export async function definitionOf(entry: BotConfig['bot']['strategies'][number], config: BotConfig, builtin: StrategyLookup): Promise<StrategyDefinition> {
  return (entry.paramsChecked ? builtin(entry.strategy) : undefined) ?? (await loadStrategy(entry.strategy, config.source.dir));
}

/** A strategy instance from checked params, with the entry's overlays (what buildStrategies binds). */
export function instantiate(definition: StrategyDefinition, params: unknown, overlays: BotConfig['bot']['strategies'][number]['overlays']): Strategy {
  return withOverlays(definition.create(params), overlays);
}
