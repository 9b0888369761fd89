/**
 * Malformed frames for the fuzz tests: fast-check arbitraries that take real frames (the venue
 * fixtures in test/fixtures/venue, and valid client requests) and truncate them, flip bytes,
 * mutate their JSON (wrong types, missing and unknown keys, huge and odd values, deep nesting) or
 * replace them with garbage. Deterministic for a given seed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/** How a frame was broken. */
export const MUTATIONS = ['truncated', 'byte-flip', 'json-value', 'json-drop-key', 'json-add-key', 'json-wrap', 'garbage', 'empty', 'deep-nesting', 'huge-string'] as const;
/** One mutation kind. */
export type Mutation = (typeof MUTATIONS)[number];

/** A broken frame and how it was made. */
export interface FuzzFrame {
  readonly mutation: Mutation;
  readonly seedName: string;
  readonly text: string;
}

const FIXTURES = join(import.meta.dirname, '../fixtures/venue');

/** Every venue fixture, minified (responses, order-WS and market-data frames). */
export function fixtureSeeds(filter: (name: string) => boolean = () => true): { name: string; text: string }[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json') && filter(f))
    .sort()
    .map((name) => ({ name, text: JSON.stringify(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'))) }));
}

/** Valid client requests on the order WS (the venue's request handler input). */
export const ORDER_REQUEST_SEEDS: readonly { name: string; text: string }[] = [
  { t: 'p', s: 'EURUSD-PERP', d: 'B', q: 100, p: '1.1300', tif: 'GTC', po: false, cid: 7 },
  { t: 'p', s: 'EURUSD-PERP', d: 'S', q: 100, p: '1.1500', tif: 'IOC', po: true, tag: 'x' },
  { t: 'r', oid: 'O-01K0000000000000000000000', p: '1.1301', q: 200 },
  { t: 'x', oid: 'O-01K0000000000000000000000' },
  { t: 'X', s: 'EURUSD-PERP' },
  { t: 's', oid: 'O-01K0000000000000000000000' },
  { t: 'o' },
  { t: 'h' },
  { t: 'ef', symbol: 'EURUSD-PERP' },
].map((m, i) => ({ name: `order-request-${m.t}`, text: JSON.stringify({ rid: i + 1, ...m }) }));

/** Valid client requests on the market-data WS. */
export const MD_REQUEST_SEEDS: readonly { name: string; text: string }[] = [
  { type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_2' },
  { type: 'subscribe', symbol: 'EURUSD-PERP', level: 'LEVEL_3' },
  { type: 'unsubscribe', symbol: 'EURUSD-PERP' },
  { type: 'subscribe_candles', symbol: 'EURUSD-PERP', width: '1m' },
].map((m, i) => ({ name: `md-request-${String(m.type)}`, text: JSON.stringify({ rid: i + 1, ...m }) }));

const ODD_VALUES: readonly unknown[] = [null, true, -1, 0, 1.5, 1e308, -1e308, 2 ** 64, '', 'x', 'NaN', '-0', '1e999', '0x10', ' 1.2 ', '💥', [], {}, [null], { t: null }, '\u0000', 'B'.repeat(300)];

/** Paths to every value inside `v` (objects and arrays), root excluded. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = [], depth = 0): (string | number)[][] {
  if (depth > 6 || v === null || typeof v !== 'object') return out;
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.slice(0, 8).map((x, i) => [i, x]) : Object.entries(v).slice(0, 40);
  for (const [k, x] of entries) {
    const p = [...prefix, k];
    out.push(p);
    paths(x, p, out, depth + 1);
  }
  return out;
}

function setAt(root: unknown, path: (string | number)[], fn: (parent: Record<string | number, unknown>, key: string | number) => void): void {
  let cur = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) cur = cur[path[i]!] as Record<string | number, unknown>;
  fn(cur, path[path.length - 1]!);
}

/** Applies `mutation` to `text` using the integers `a`, `b` as its random choices. */
export function mutate(text: string, mutation: Mutation, a: number, b: number): string {
  switch (mutation) {
    case 'truncated':
      return text.slice(0, a % Math.max(1, text.length));
    case 'byte-flip': {
      const chars = [...text];
      const n = 1 + (b % 4);
      for (let k = 0; k < n; k++) {
        const i = (a + k * 7919) % chars.length;
        chars[i] = String.fromCharCode((chars[i]!.charCodeAt(0) ^ (1 << ((b + k) % 7))) & 0x7f);
      }
      return chars.join('');
    }
    case 'garbage': {
      const alphabet = '{}[]":,0123456789.-eEtrufalsn \\abcxyz\u00ff';
      let s = '';
      for (let i = 0; i < 1 + (a % 64); i++) s += alphabet[(a * 31 + b * 17 + i * 13) % alphabet.length];
      return s;
    }
    case 'empty':
      return ['', ' ', 'null', '[]', '{}', '""', '0', 'true'][a % 8]!;
    case 'deep-nesting':
      return `${'['.repeat(1000 + (a % 5000))}${']'.repeat(b % 2 === 0 ? 1000 + (a % 5000) : 3)}`;
    case 'huge-string':
      return JSON.stringify({ t: 'n', rid: 1, x: 'A'.repeat(10_000 + (a % 200_000)) });
    default:
      break;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text.slice(0, a % Math.max(1, text.length));
  }
  if (mutation === 'json-wrap') return JSON.stringify([v, v][a % 2] === v && b % 2 === 0 ? [v] : { data: v });
  const ps = paths(v);
  if (ps.length === 0) return JSON.stringify(ODD_VALUES[a % ODD_VALUES.length]);
  const p = ps[a % ps.length]!;
  if (mutation === 'json-value') setAt(v, p, (parent, k) => void (parent[k] = ODD_VALUES[b % ODD_VALUES.length]));
  else if (mutation === 'json-drop-key') setAt(v, p, (parent, k) => (Array.isArray(parent) ? void parent.splice(Number(k), 1) : void delete parent[k]));
  else setAt(v, p, (parent) => void (Array.isArray(parent) ? parent.push(ODD_VALUES[b % ODD_VALUES.length]) : (parent[`zz${b % 10}`] = ODD_VALUES[b % ODD_VALUES.length])));
  return JSON.stringify(v);
}

/** Broken frames made from `seeds`. */
export function fuzzFrameArb(seeds: readonly { name: string; text: string }[]): fc.Arbitrary<FuzzFrame> {
  return fc
    .record({ i: fc.nat(), mutation: fc.constantFrom(...MUTATIONS), a: fc.nat(), b: fc.nat() })
    .map(({ i, mutation, a, b }) => {
      const seed = seeds[i % seeds.length]!;
      return { mutation, seedName: seed.name, text: mutate(seed.text, mutation, a, b) };
    });
}

/** `n` broken frames from `seeds`, reproducible from `seed`. */
export function sampleFrames(seeds: readonly { name: string; text: string }[], n: number, seed: number): FuzzFrame[] {
  return fc.sample(fuzzFrameArb(seeds), { numRuns: n, seed });
}
