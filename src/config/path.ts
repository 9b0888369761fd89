/** A location inside a config document, as zod and our walkers report it. */
export type ConfigPath = readonly PropertyKey[];

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats a path the way users read it: `strategies[0].params.levels`, with odd keys quoted
 * (`risk.symbols["EURUSD-PERP"]`). The empty path is `(root)`.
 */
export function formatPath(path: ConfigPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && IDENT.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out === '' ? '(root)' : out;
}

/** The value at `path` inside `root`, or undefined when the path does not exist. */
export function valueAt(root: unknown, path: ConfigPath): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

/** Renders a value for an error message: short JSON, truncated. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return yamlNumber(value);
  let s: string;
  try {
    // JSON has no infinity or NaN (it writes null): show YAML's own spelling instead.
    s = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? yamlNumber(v) : v)) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** `.inf`, `-.inf` or `.nan`: how YAML spells the numbers JSON cannot. */
function yamlNumber(v: number): string {
  return Number.isNaN(v) ? '.nan' : v > 0 ? '.inf' : '-.inf';
}
