import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { MmError } from '../core/errors.ts';
import type { StrategyDefinition } from './contract.ts';

/** A built-in strategy: its name, a summary and where its module lives (loaded on demand). */
export interface BuiltinStrategy {
  readonly name: string;
  readonly description: string;
  readonly url: URL;
}

/**
 * The built-in strategies (top-level `strategies/<name>/index.ts`). They are loaded by URL rather
 * than imported, because strategies import the public API (src/index.ts), which imports this file.
 */
export const builtinStrategies: readonly BuiltinStrategy[] = Object.freeze([
  {
    name: 'fixed-spread',
    description: 'Symmetric ladder around the mid: half-spread and spacing in ticks or bps, inventory size skew, optional position cap',
    url: new URL('../../strategies/fixed-spread/index.ts', import.meta.url),
  },
  {
    name: 'basis',
    description: 'Quotes a dated future off a liquid leg plus an online basis, skewed on net delta, hedging on the liquid leg with IOC orders within a band and a cost budget',
    url: new URL('../../strategies/basis/index.ts', import.meta.url),
  },
  {
    name: 'avellaneda-stoikov',
    description: 'Avellaneda–Stoikov reservation price and optimal spread (rolling or cyclic horizon), σ and k calibrated online',
    url: new URL('../../strategies/avellaneda-stoikov/index.ts', import.meta.url),
  },
  {
    name: 'glft',
    description: 'Guéant–Lehalle–Fernandez-Tapia closed-form quotes, σ/A/k calibrated online, adj₁/adj₂ multipliers and drift',
    url: new URL('../../strategies/glft/index.ts', import.meta.url),
  },
]);

/** True when `x` looks like a StrategyDefinition (name, params schema, create). */
export function isStrategyDefinition(x: unknown): x is StrategyDefinition {
  if (typeof x !== 'object' || x === null) return false;
  const d = x as Record<string, unknown>;
  const params = d['params'] as { safeParse?: unknown } | undefined;
  return typeof d['name'] === 'string' && typeof d['create'] === 'function' && typeof params?.safeParse === 'function';
}

const looksLikePath = (s: string): boolean => s.includes('/') || s.includes('\\') || /\.(ts|js|mjs)$/.test(s);

/**
 * Loads a strategy by built-in name or module path (relative to `baseDir`, default the working
 * directory). The module's default export, or its named `strategy` export, must be a
 * StrategyDefinition.
 * @throws MmError STRATEGY_INVALID naming the strategy and what is wrong.
 */
export async function loadStrategy(nameOrPath: string, baseDir: string = process.cwd()): Promise<StrategyDefinition> {
  const builtin = builtinStrategies.find((b) => b.name === nameOrPath);
  if (!builtin && !looksLikePath(nameOrPath)) {
    throw new MmError('STRATEGY_INVALID', `unknown strategy "${nameOrPath}": built-ins are ${builtinStrategies.map((b) => b.name).join(', ')}; or give a module path`, { strategy: nameOrPath });
  }
  const url = builtin ? builtin.url.href : pathToFileURL(isAbsolute(nameOrPath) ? nameOrPath : resolve(baseDir, nameOrPath)).href;
  const kept = loaded.get(url);
  if (kept) return kept;
  const def = await importStrategy(nameOrPath, url); // a failure is not kept: the next call tries again
  loaded.set(url, def);
  return def;
}

/**
 * Definitions by module URL, kept once loaded. ESM keeps a module by URL anyway (an edited file is
 * not read again), but every `import()` still asks the loader hooks to resolve it (tsx: a round trip
 * to their thread, and a look at the file), which a sweep thread would pay on every job.
 */
const loaded = new Map<string, StrategyDefinition>();

async function importStrategy(nameOrPath: string, url: string): Promise<StrategyDefinition> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (err) {
    throw new MmError('STRATEGY_INVALID', `strategy "${nameOrPath}" failed to load from ${url}: ${err instanceof Error ? err.message : String(err)}`, { strategy: nameOrPath, url }, { cause: err });
  }
  const def = isStrategyDefinition(mod['default']) ? mod['default'] : mod['strategy'];
  if (!isStrategyDefinition(def)) {
    throw new MmError('STRATEGY_INVALID', `strategy module ${url} has no default export or \`strategy\` export that is a StrategyDefinition { name, params, create }`, { strategy: nameOrPath, url });
  }
  return def;
}

/** Parameters a built-in no longer takes, and what replaces them: named when a config still sets one. */
const RETIRED_PARAMS: Readonly<Record<string, string>> = {
  lossFeedback: 'the model quoters no longer take it: edgeGuard replaces it (widen, the default, backs a side off by the loss its own fills are expected to take in the regime it rests in; off turns it off)',
};

/** " (…what replaces it)" for an unknown key that a built-in used to take, else "". */
function retiredHint(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return '';
  const hints = issue.keys.filter((k) => RETIRED_PARAMS[k] !== undefined).map((k) => `${k}: ${RETIRED_PARAMS[k]}`);
  return hints.length > 0 ? ` (${hints.join('; ')})` : '';
}

/**
 * Validates raw parameters against a strategy's schema.
 * @throws MmError STRATEGY_INVALID naming each bad parameter path, the problem and the value.
 */
export function parseStrategyParams<S extends z.ZodType>(def: StrategyDefinition<S>, raw: unknown, where = def.name): z.infer<S> {
  const r = def.params.safeParse(raw ?? {});
  if (r.success) return r.data as z.infer<S>;
  const issues = r.error.issues.map((i) => `${[where, ...i.path.map(String)].join('.')}: ${i.message}${retiredHint(i)}`);
  throw new MmError('STRATEGY_INVALID', `invalid parameters for strategy ${def.name}: ${issues.join('; ')}`, { strategy: def.name, issues });
}
