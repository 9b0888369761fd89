import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The repo stands alone (issue 36): a user has the repo, not the design notes it was built from, so
 * no README, doc, source file, strategy, config or example may cite one of them or the folder they
 * live in beside the repo. The facts live in docs/venue-rules.md, docs/venue-protocol.md,
 * docs/strategy-models.md and docs/fill-models.md. The patterns are precise so that the repo's own
 * file names (`venue-rules.md`, `venue-protocol.md`) do not count as citations.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SCOPE = ['README.md', 'docs', 'src', 'strategies', 'config', 'examples'];

/** Each pattern names a design note that is not in the repo; the label is what a failure shows. */
const CITATIONS: ReadonlyArray<readonly [string, RegExp]> = [
  ['interface-spec', /interface[- ]spec/gi],
  ['seed spec', /\bseed spec/gi],
  ['protocol.md', /(?<![-\w/])protocol\.md|(?<![-\w/.])protocol\s+(?:(?:\/\/|\*)\s+)?§/g],
  ['rules.md', /(?<![-\w/])rules\.md|(?<![-\w/.])rules\s+(?:(?:\/\/|\*)\s+)?§/g],
  ['strategy-math', /strategy[- ]math/gi],
  ['backtest-models', /backtest-models/g],
  ['../shared', /\.\.\/shared/g],
];

/** Tracked files under the scope (untracked scratch does not ship). */
function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--', ...SCOPE], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\0').filter((f) => f !== '' && !/\.(png|jpe?g|gif|gz|zip)$/.test(f));
}

/** `file:line: label` for every citation of a design note outside the repo (a citation may wrap a line). */
function citations(files: readonly string[], read: (f: string) => string): string[] {
  const hits: string[] = [];
  for (const file of files) {
    const text = read(file);
    for (const [label, re] of CITATIONS) {
      for (const m of text.matchAll(re)) hits.push(`${file}:${text.slice(0, m.index).split('\n').length}: ${label}`);
    }
  }
  return hits.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

describe('docs that stand alone', () => {
  it('no tracked file under README.md, docs/, src/, strategies/, config/ or examples/ cites a design note outside the repo', () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(citations(files, (f) => readFileSync(join(ROOT, f), 'utf8'))).toEqual([]);
  });

  it('the patterns catch the old citation forms and pass the repo’s own doc names', () => {
    const text: Record<string, string> = {
      'a.ts': '// fee (rules.md §7)\n// see docs/venue-rules.md §7 and docs/venue-protocol.md §5, rules §12.3 wrapped: rules\n// §9',
      'b.md': 'after strategy-math §4.3; data in ../shared/data; interface-spec "Reward payout status"',
      'c.md': 'protocol.md §2.2 and docs/backtest-models.md; per the seed spec; the venue interface specification',
    };
    expect(citations(Object.keys(text), (f) => text[f]!)).toEqual([
      'a.ts:1: rules.md',
      'a.ts:2: rules.md',
      'a.ts:2: rules.md',
      'b.md:1: ../shared',
      'b.md:1: interface-spec',
      'b.md:1: strategy-math',
      'c.md:1: backtest-models',
      'c.md:1: interface-spec',
      'c.md:1: protocol.md',
      'c.md:1: seed spec',
    ]);
  });
});
