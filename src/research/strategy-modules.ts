import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { RunSpec } from '../backtest/run-spec.ts';
import { builtinStrategies } from '../strategy/registry.ts';

const memo = new Map<string, { key: string; hash: string }>();

/** The file a strategy named by path loads from (relative to the config's folder); null for a built-in. */
export function strategyModulePath(nameOrPath: string, baseDir: string | null): string | null {
  if (builtinStrategies.some((b) => b.name === nameOrPath)) return null;
  return isAbsolute(nameOrPath) ? nameOrPath : resolve(baseDir ?? process.cwd(), nameOrPath);
}

/** sha256 of a strategy module's file, memoized by path, size and mtime; `unreadable` when it cannot be read. */
export function strategyModuleHash(file: string): string {
  let key: string;
  try {
    const st = statSync(file);
    key = `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'unreadable';
  }
  const hit = memo.get(file);
  if (hit?.key === key) return hit.hash;
  const hash = `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
  memo.set(file, { key, hash });
  return hash;
}

/**
 * The content hashes of the strategies a spec loads from module paths (built-ins are part of the
 * code version), keyed by the name the config gives: part of a job's id, so editing a user's
 * strategy file never reuses results of the old file, and checked by workers before they run it.
 */
export function strategyModuleHashes(spec: RunSpec, baseDir: string | null): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const s of spec.strategies) {
    const file = strategyModulePath(s.strategy, baseDir);
    if (file !== null) out[s.strategy] = strategyModuleHash(file);
  }
  return out;
}
