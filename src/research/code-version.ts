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

/** The folders whose files make up the code: the framework and the built-in strategies. */
export const CODE_DIRS = ['src', 'strategies'] as const;

/**
 * A version name for the code under `rootDir`: package.json's version plus sha256 over every source
 * file of CODE_DIRS (relative path and content). Two checkouts of the same commit agree; any edit
 * of the framework or of a built-in strategy changes it.
 */
export function sourceTreeVersion(rootDir: string): string {
  const h = createHash('sha256');
  let version = '';
  try {
    version = String((JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8')) as { version?: unknown }).version ?? '');
  } catch {
    // A relocated tree without package.json: the sources alone name the version.
  }
  h.update(`mmbot ${version}\n`);
  for (const dir of CODE_DIRS) {
    let files: string[];
    try {
      files = walk(join(rootDir, dir));
    } catch {
      continue; // a tree without built-in strategies
    }
    for (const f of files) {
      h.update(`${relative(rootDir, f).split('\\').join('/')}\n`);
      h.update(readFileSync(f));
      h.update('\n');
    }
  }
  return `${version}+${h.digest('hex').slice(0, 16)}`;
}

/**
 * The running code's version (`sourceTreeVersion` of this checkout), computed once per process
 * (~350 files, a few ms), so results of different code never mix.
 */
export function codeVersion(): string {
  cached ??= sourceTreeVersion(fileURLToPath(new URL('../..', import.meta.url)));
  return cached;
}
