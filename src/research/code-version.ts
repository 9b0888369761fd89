import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : /\.(ts|js|json)$/.test(e.name) ? [join(dir, e.name)] : []))
    .sort();
}

/**
 * The running code's version: sha256 over every source file of `src/` (relative path and content)
 * and package.json's version, computed once per process (~300 files, a few ms). Two machines with
 * the same checkout agree; any edit changes it, so results of different code never mix.
 */
export function codeVersion(): string {
  if (cached !== null) return cached;
  const srcDir = fileURLToPath(new URL('..', import.meta.url));
  const h = createHash('sha256');
  let version = '';
  try {
    version = String((JSON.parse(readFileSync(join(srcDir, '..', 'package.json'), 'utf8')) as { version?: unknown }).version ?? '');
  } catch {
    // A relocated tree without package.json: the sources alone name the version.
  }
  h.update(`mmbot ${version}\n`);
  for (const f of walk(srcDir)) {
    h.update(`${relative(srcDir, f).split('\\').join('/')}\n`);
    h.update(readFileSync(f));
    h.update('\n');
  }
  cached = `${version}+${h.digest('hex').slice(0, 16)}`;
  return cached;
}
