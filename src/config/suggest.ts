import type { z } from 'zod';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  in?: z.ZodType;
  values?: unknown[];
};
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas reachable at `path` inside `schema` (several through unions). */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): Def[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
      return objectsAt(def.innerType!, path);
    case 'pipe':
      return objectsAt(def.in!, path);
    case 'union':
      return (def.options ?? []).flatMap((o) => objectsAt(o, path));
    case 'array':
      return path.length > 0 && typeof path[0] === 'number' ? objectsAt(def.element!, path.slice(1)) : [];
    case 'record':
      return path.length > 0 ? objectsAt(def.valueType!, path.slice(1)) : [];
    case 'object': {
      if (path.length === 0) return [def];
      const next = def.shape?.[String(path[0])];
      return next ? objectsAt(next, path.slice(1)) : [];
    }
    default:
      return [];
  }
}

/** Edit distance between two short strings. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/**
 * The known key closest to an unknown `key` in the object at `path` of `schema`, when close
 * enough to be a typo (`prot` → `port`); undefined otherwise.
 */
export function suggestKey(schema: z.ZodType, path: readonly PropertyKey[], key: string): string | undefined {
  const known = [...new Set(objectsAt(schema, path).flatMap((d) => Object.keys(d.shape ?? {})))];
  let best: { key: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (!best || d < best.d) best = { key: k, d };
  }
  return best && best.d <= Math.max(2, Math.floor(key.length / 3)) && best.d < key.length ? best.key : undefined;
}

/**
 * For a key that is unknown where it stands but known to another member of a union at `path`
 * (`venue.sim` under `mode: remote`), that member's literal fields, e.g. `mode: embedded-sim`;
 * undefined when the key belongs to no member or no member has a literal field.
 */
export function variantOwning(schema: z.ZodType, path: readonly PropertyKey[], key: string): string | undefined {
  for (const obj of objectsAt(schema, path)) {
    if (!obj.shape || !(key in obj.shape)) continue;
    const literals = Object.entries(obj.shape).flatMap(([k, v]) => {
      const d = defOf(v);
      return d.type === 'literal' && d.values?.length === 1 ? [`${k}: ${String(d.values[0])}`] : [];
    });
    if (literals.length > 0) return literals.join(', ');
  }
  return undefined;
}
