import type { ConfigProblem } from './issues.ts';
import { formatPath } from './path.ts';

/**
 * Keys that would reach an object's prototype rather than the object: YAML keeps them as plain
 * keys, but an assignment (`out[k] = v`, a zod record's copy) turns `__proto__` into the prototype
 * or drops it, so a value nested under it would be read as inherited, or silently ignored.
 */
const RESERVED = new Set(['__proto__']);

/** One problem per reserved key anywhere in a parsed YAML tree (own keys only), named by path. */
export function reservedKeyProblems(tree: unknown): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, i]));
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (RESERVED.has(k)) out.push({ path: formatPath([...path, k]), message: `"${k}" is not a config key (it names an object's prototype; nothing may be nested under it)`, value: undefined });
      else walk(v, [...path, k]);
    }
  };
  walk(tree, []);
  return out;
}
