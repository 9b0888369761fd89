import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Merge conflict markers in committed text: TypeScript would not compile with them, but a README,
 * a guide or a config can carry them unnoticed (src/record/README.md did, for two stops). Only the
 * `<<<<<<< ` and `>>>>>>> ` lines are looked for: a line of `=======` is also a Markdown heading
 * underline.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const MARKER = /^(<<<<<<<|>>>>>>>)( |$)/m;
const SKIP = new Set(['node_modules', '.git', '.tmp', 'dist', 'backtests', 'coverage']);
const TEXT = /\.(md|ts|ya?ml|json|mjs)$/;

function textFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return textFiles(p);
    return TEXT.test(name) ? [p] : [];
  });
}

describe('no merge conflict markers in tracked text files', () => {
  it('none in any .md, .ts, .yaml, .yml, .json or .mjs file of the repo', () => {
    const files = textFiles(ROOT);
    expect(files.length).toBeGreaterThan(100);
    const bad = files.filter((f) => MARKER.test(readFileSync(f, 'utf8'))).map((f) => f.slice(ROOT.length + 1));
    expect(bad).toEqual([]);
  });
});
