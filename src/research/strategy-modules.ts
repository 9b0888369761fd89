import { isAbsolute, resolve } from 'node:path';
import type { RunSpec } from '../backtest/run-spec.ts';
import { builtinStrategies } from '../strategy/registry.ts';
import { moduleGraphHash } from './module-graph.ts';

/** The file a strategy named by path loads from (relative to the config's folder); null for a built-in. */
export function strategyModulePath(nameOrPath: string, baseDir: string | null): string | null {
  if (builtinStrategies.some((b) => b.name === nameOrPath)) return null;
  return isAbsolute(nameOrPath) ? nameOrPath : resolve(baseDir ?? process.cwd(), nameOrPath);
}

/**
 * sha256 of a strategy module's file and of every file it imports by relative path, transitively
 * (`moduleGraphHash`), so editing a helper the strategy imports changes the hash too; `unreadable`
 * when the module cannot be read.
 */
export async function strategyModuleHash(file: string): Promise<string> {
  try {
    return await moduleGraphHash(file);
  } catch {
    return 'unreadable';
  }
}

/**
 * The content hashes of the strategies a spec loads from module paths (built-ins are part of the
 * code version), keyed by the name the config gives. The planner computes them once per grid point
 * and hands them to `makeJob` (like the data fingerprints): part of a job's id, so editing a user's
 * strategy file never reuses results of the old file, and checked by workers before they run it.
 */
export async function strategyModuleHashes(spec: RunSpec, baseDir: string | null): Promise<Readonly<Record<string, string>>> {
  const out: Record<string, string> = {};
  for (const s of spec.strategies) {
    const file = strategyModulePath(s.strategy, baseDir);
    if (file !== null) out[s.strategy] = await strategyModuleHash(file);
  }
  return out;
}
