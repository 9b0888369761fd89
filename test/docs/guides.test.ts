import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The README and the guides stay true to the CLI: every `mmbot <command> --flag` written in a shell
 * block names a command that exists and flags its usage text lists, and every relative link points
 * at a file of the repo. (The journeys themselves run in their own tests: the demo in
 * test/e2e/quiet-demo, the sample backtest in test/backtest/golden, `mmbot new strategy` and the
 * strategy example in test/cli/outside-repo-strategy, the imports in test/record/import.)
 */
const ROOT = resolve(import.meta.dirname, '../..');
const GUIDES = readdirSync(join(ROOT, 'docs/guides')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs/guides', f));
const DOCS = [join(ROOT, 'README.md'), ...GUIDES];

/** `mmbot …` invocations in ```sh blocks, one per line (after `npx`, `node bin/mmbot.js`, env vars). */
function invocations(text: string): string[][] {
  const out: string[][] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const line = raw.replace(/#.*$/, '');
      for (const m of line.matchAll(/(?:^|[\s;&|(])(?:npx |node bin\/mmbot\.js |\.\/bin\/mmbot\.js )?mmbot ((?:[^;&|#)]|&(?!&))*)/g)) {
        out.push(m[1]!.trim().split(/\s+/));
      }
    }
  }
  return out;
}

async function usageOf(name: string): Promise<string | null> {
  const file = join(ROOT, 'src/cli/commands', `${name}.ts`);
  if (!existsSync(file)) return null;
  const mod = (await import(file)) as { command: { usage: string } };
  return mod.command.usage;
}

describe('README and guides', () => {
  it('the README is a map: under 250 lines, linking every guide', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(250);
    for (const g of GUIDES) expect(readme).toContain(`docs/guides/${g.split('/').at(-1)}`);
  });

  it.each(DOCS.map((d) => [d.slice(ROOT.length + 1), d]))('%s: every mmbot command and flag in its shell blocks exists', async (_n, doc) => {
    const calls = invocations(readFileSync(doc, 'utf8'));
    for (const [name, ...args] of calls) {
      if (name === undefined || name === 'help' || name.startsWith('<')) continue;
      const usage = await usageOf(name);
      expect(usage, `${doc}: unknown command "mmbot ${name}"`).not.toBeNull();
      for (const a of args) {
        const flag = /^--[a-z][a-z0-9-]*/.exec(a)?.[0];
        if (flag && flag !== '--help') expect(usage, `${doc}: "mmbot ${name}" has no ${flag}`).toContain(flag);
      }
    }
  });

  it.each(DOCS.map((d) => [d.slice(ROOT.length + 1), d]))('%s: relative links point at files of the repo', (_n, doc) => {
    const text = readFileSync(doc, 'utf8');
    for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      const url = m[1]!;
      if (/^[a-z]+:/.test(url)) continue;
      expect(existsSync(resolve(dirname(doc), url)), `${doc}: broken link ${url}`).toBe(true);
    }
  });
});
