import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { encodeJson } from './canonical.ts';
import { sha256OfFile } from './fingerprint.ts';
import { cachedByStat } from './stat-cache.ts';

/** Import forms whose specifier is a string literal: static, re-export, side-effect, dynamic, require. */
const IMPORT_FORMS = [/\b(?:import|export)\s[^;'"`]*?\bfrom\s*['"]([^'"\n]+)['"]/g, /\bimport\s*['"]([^'"\n]+)['"]/g, /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g, /\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g];

/**
 * The relative specifiers (`./x`, `../y.js`) a module's source imports, distinct, in order. Bare
 * specifiers (packages, `node:`) are not followed: packages are versioned by the lockfile and mmbot's
 * own code by the code version. A commented-out import counts too (harmless: one more file hashed).
 */
export function localImports(source: string): string[] {
  const out: string[] = [];
  for (const form of IMPORT_FORMS)
    for (const m of source.matchAll(form)) {
      const spec = m[1]!;
      if ((spec.startsWith('./') || spec.startsWith('../')) && !out.includes(spec)) out.push(spec);
    }
  return out;
}

const isFile = async (p: string): Promise<boolean> => (await stat(p).catch(() => null))?.isFile() === true;

/** Where a relative specifier leads from `fromFile` (TypeScript's `.js` → `.ts` included); null when nowhere. */
export async function resolveLocal(fromFile: string, spec: string): Promise<string | null> {
  const p = resolve(dirname(fromFile), spec);
  const swapped = p.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts').replace(/\.cjs$/, '.cts');
  const candidates = /\.[cm]?[jt]sx?$/.test(p) ? [p, swapped] : [p, `${p}.ts`, `${p}.js`, `${p}.mts`, `${p}.mjs`, `${p}/index.ts`, `${p}/index.js`];
  for (const c of candidates) if (await isFile(c)) return c;
  return null;
}

const posix = (p: string): string => p.split(sep).join('/');

/**
 * sha256 over a module and every file it reaches through relative imports (each named by its path
 * relative to the module's folder, so the same tree elsewhere hashes the same; an import that leads
 * nowhere is part of the hash as missing). File hashes are memoized by path, size and mtime.
 * @throws when the module itself cannot be read.
 */
export async function moduleGraphHash(entry: string): Promise<string> {
  const root = dirname(resolve(entry));
  const seen = new Map<string, string>();
  const missing = new Set<string>();
  const queue = [resolve(entry)];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.set(file, await cachedByStat('sha256', file, null, sha256OfFile));
    for (const spec of localImports(await readFile(file, 'utf8'))) {
      const target = await resolveLocal(file, spec);
      if (target === null) missing.add(`${posix(relative(root, file))} → ${spec}`);
      else if (!seen.has(target)) queue.push(target);
    }
  }
  const files = [...seen].map(([f, h]) => [posix(relative(root, f)), h] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `sha256:${createHash('sha256').update(encodeJson({ files, missing: [...missing].sort() })).digest('hex')}`;
}
