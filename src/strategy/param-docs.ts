import { z } from 'zod';

/** One parameter of a strategy or overlay, as `mmbot strategies` lists it. */
export interface ParamDoc {
  readonly name: string;
  /** JSON type (integer, number, boolean, string, array) or the enum values joined by `|`. */
  readonly type: string;
  readonly required: boolean;
  /** The default, when the schema has one (JSON value). */
  readonly default?: unknown;
  /** Bounds and other constraints, e.g. `≥ 1`, `≤ 20`, `> 0`. */
  readonly constraints: readonly string[];
  /** The schema's description (units, meaning). */
  readonly description: string;
}

type Json = Record<string, unknown>;

/** The parameters of an object schema (from its JSON Schema: types, defaults, bounds, descriptions). */
export function paramDocs(schema: z.ZodType, omit: readonly string[] = []): ParamDoc[] {
  const js = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Json;
  const props = (js['properties'] ?? {}) as Record<string, Json>;
  const required = new Set((js['required'] ?? []) as string[]);
  const out: ParamDoc[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (omit.includes(name)) continue;
    const constraints: string[] = [];
    // zod's int() adds the safe-integer range as bounds: not worth listing.
    const bound = (k: string, sym: string): void => {
      const v = p[k];
      if (typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER) constraints.push(`${sym} ${v}`);
    };
    bound('minimum', '≥');
    bound('exclusiveMinimum', '>');
    bound('maximum', '≤');
    bound('exclusiveMaximum', '<');
    const type = Array.isArray(p['enum']) ? (p['enum'] as unknown[]).join('|') : typeof p['type'] === 'string' ? (p['type'] as string) : 'any';
    out.push({
      name,
      type,
      // A field with a default is optional on input even when zod lists it as required.
      required: required.has(name) && !('default' in p),
      ...('default' in p ? { default: p['default'] } : {}),
      constraints,
      description: typeof p['description'] === 'string' ? (p['description'] as string) : '',
    });
  }
  return out;
}
