/** Every numeric parameter of every built-in strategy has a sane range (issue 35 #8). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinDefinitions } from '../../src/app/live/strategies.ts';
import { overlayKinds } from '../../src/strategy/overlays/config.ts';
import { PARAM_RANGES } from '../../src/strategy/param-ranges.ts';

type Json = { readonly [k: string]: unknown };

/** Numeric leaves of a JSON schema with their bounds (`exclusive*` counted as bounds). */
function numericLeaves(node: unknown, path: string, out: { path: string; min: number | undefined; max: number | undefined }[]): void {
  if (node === null || typeof node !== 'object') return;
  const n = node as Json;
  if (n['type'] === 'number' || n['type'] === 'integer') {
    const num = (k: string): number | undefined => (typeof n[k] === 'number' ? (n[k] as number) : undefined);
    out.push({ path, min: num('minimum') ?? num('exclusiveMinimum'), max: num('maximum') ?? num('exclusiveMaximum') });
  }
  if (n['properties']) for (const [k, v] of Object.entries(n['properties'] as Json)) numericLeaves(v, path ? `${path}.${k}` : k, out);
  if (n['items']) numericLeaves(n['items'], `${path}[]`, out);
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(n[k])) for (const v of n[k] as unknown[]) numericLeaves(v, path, out);
}

describe('strategy parameter ranges (issue 35 #8)', () => {
  it('every numeric parameter of every built-in strategy is bounded below and above, within ±10⁹', async () => {
    const defs = await builtinDefinitions();
    expect(defs.map((d) => d.name).sort()).toEqual(['avellaneda-stoikov', 'basis', 'fixed-spread', 'glft']);
    const unbounded: string[] = [];
    let checked = 0;
    for (const d of defs) {
      const leaves: { path: string; min: number | undefined; max: number | undefined }[] = [];
      numericLeaves(z.toJSONSchema(d.params, { target: 'draft-7', io: 'input', unrepresentable: 'any' }), '', leaves);
      for (const l of leaves) {
        checked++;
        // zod writes ±MAX_SAFE_INTEGER for a bare int(): that is no range.
        if (l.min === undefined || l.max === undefined || Math.abs(l.min) > 1e9 || Math.abs(l.max) > 1e9) unbounded.push(`${d.name}.${l.path} [${l.min}, ${l.max}]`);
      }
    }
    expect(unbounded).toEqual([]);
    expect(checked).toBe(68); // the walker does see them all (a broken walker would pass on nothing)
  });

  it('so is every numeric parameter of every overlay', () => {
    const unbounded: string[] = [];
    let checked = 0;
    for (const o of overlayKinds) {
      const leaves: { path: string; min: number | undefined; max: number | undefined }[] = [];
      numericLeaves(z.toJSONSchema(o.params, { target: 'draft-7', io: 'input', unrepresentable: 'any' }), '', leaves);
      for (const l of leaves) {
        checked++;
        if (l.min === undefined || l.max === undefined || Math.abs(l.min) > 1e9 || Math.abs(l.max) > 1e9) unbounded.push(`${o.kind}.${l.path} [${l.min}, ${l.max}]`);
      }
    }
    expect(unbounded).toEqual([]);
    expect(checked).toBe(18);
  });

  it('ctl set halfSpreadBps=1e300 (what the schema sees) is refused naming the path and the bound', async () => {
    const fixed = (await builtinDefinitions()).find((d) => d.name === 'fixed-spread')!;
    const r = fixed.params.safeParse({ halfSpreadBps: 1e300 });
    expect(r.success).toBe(false);
    expect(r.error!.issues).toEqual([expect.objectContaining({ path: ['halfSpreadBps'], code: 'too_big', maximum: PARAM_RANGES.bps })]);
    expect(fixed.params.safeParse({ halfSpreadBps: PARAM_RANGES.bps }).success).toBe(true);
  });
});
