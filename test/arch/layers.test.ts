import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The architecture table (docs/architecture.md): which layer may import which. */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  domain: ['core'],
  wire: ['core', 'domain'],
  client: ['core', 'domain', 'wire'],
  strategy: ['core', 'domain'],
  risk: ['core', 'domain'],
  execution: ['core', 'domain'],
  engine: ['core', 'domain', 'strategy', 'risk', 'execution'],
  rewards: ['core', 'domain', 'wire', 'client'],
  sim: ['core', 'domain', 'wire'],
  record: ['core', 'domain'],
  backtest: ['core', 'domain', 'strategy', 'risk', 'execution', 'engine', 'record'],
  obs: ['core', 'domain'],
  config: ['core', 'domain', 'strategy'],
  // Research at scale: jobs, backends, leaderboards, searches and walk-forward over backtests.
  research: ['core', 'domain', 'strategy', 'risk', 'execution', 'engine', 'record', 'backtest', 'config'],
  // The daemon's assembly: live venue wiring, the console, monitoring, pollers, the virtual-clock venue.
  app: ['core', 'domain', 'wire', 'client', 'strategy', 'risk', 'execution', 'engine', 'rewards', 'sim', 'record', 'backtest', 'obs', 'config', 'research'],
  cli: ['*'],
  // src/index.ts: the public API strategies import.
  index: ['core', 'domain', 'strategy'],
};

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT_RE = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith('.')) out.push(resolve(dirname(file), spec));
  }
  return out;
}

function layerOf(file: string): string {
  const rel = relative(SRC, file);
  if (rel === 'index.ts') return 'index';
  return rel.split(/[\\/]/)[0]!;
}

const files = walk(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)] as const));

describe('layer imports', () => {
  it('every src folder is a known layer', () => {
    const unknown = [...new Set(files.map(layerOf))].filter((l) => !(l in ALLOWED));
    expect(unknown).toEqual([]);
  });

  it('imports follow the architecture table', () => {
    const violations: string[] = [];
    for (const [file, deps] of graph) {
      const from = layerOf(file);
      const allowed = ALLOWED[from] ?? [];
      for (const dep of deps) {
        if (!dep.startsWith(SRC)) {
          violations.push(`${relative(ROOT, file)} imports outside src: ${relative(ROOT, dep)}`);
          continue;
        }
        const to = layerOf(dep);
        if (to === from || allowed.includes('*') || allowed.includes(to)) continue;
        violations.push(`${relative(ROOT, file)} (${from}) may not import ${relative(ROOT, dep)} (${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('has no import cycles between files', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(f)), f].map((p) => relative(SRC, p)).join(' → '));
        return;
      }
      state.set(f, 'visiting');
      for (const d of graph.get(f) ?? []) if (graph.has(d)) visit(d, [...stack, f]);
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });
});
