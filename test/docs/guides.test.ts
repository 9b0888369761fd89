import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The README and the guides stay true to the CLI: every `mmbot <command> --flag` written in a shell
 * block names a command that exists and flags its usage text lists, every file such a command reads
 * exists or is made earlier in the doc, no block reads what a command it backgrounded writes, and
 * every relative link points at a file of the repo. (The journeys themselves run in their own tests: the demo in
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
    for (const raw of block[1]!.replace(/\\\n\s*/g, ' ').split('\n')) {
      const line = raw.replace(/#.*$/, '');
      for (const m of line.matchAll(/(?:^|[\s;&|(])(?:npx |node bin\/mmbot\.js |\.\/bin\/mmbot\.js )?mmbot ((?:[^;&|#)]|&(?!&))*)/g)) {
        out.push(m[1]!.trim().split(/\s+/));
      }
    }
  }
  return out;
}

// Flags whose value is a file the command reads, and flags whose value is a file it writes.
const INPUT_FLAGS = ['--config', '--grid', '--data', '--instrument', '--book', '--trades', '--messages', '--orderbook', '--mbo', '--parity'];
const OUTPUT_FLAGS = ['--out', '--credentials-out'];

/**
 * Files the doc's shell blocks read that neither exist in the repo nor were made before, in
 * document order: by an earlier command's output flag, or by a block headed `# <file>` (a file the
 * reader is told to save). A newcomer pasting the blocks in order would get FILE_NOT_FOUND.
 */
function unmadeInputs(text: string): string[] {
  const made = new Set<string>();
  const missing: string[] = [];
  for (const block of text.matchAll(/```([a-z]*)\n([\s\S]*?)```/g)) {
    const saved = /^\s*# ([\w./-]+\.[a-z]+)\s*$/.exec(block[2]!.split('\n')[0]!)?.[1];
    if (saved !== undefined) made.add(saved);
    if (block[1] !== 'sh') continue;
    for (const args of invocations(block[0]!)) {
      for (let i = 0; i + 1 < args.length; i++) {
        const value = args[i + 1]!;
        if (/[…<>$]|^[a-z]+:\/\//.test(value)) continue; // a placeholder or a URL
        if (OUTPUT_FLAGS.includes(args[i]!)) made.add(value);
        else if (INPUT_FLAGS.includes(args[i]!) && !made.has(value) && !existsSync(join(ROOT, value))) missing.push(`${args[0]} ${args[i]} ${value}`);
      }
    }
  }
  return missing;
}

/**
 * Files a backgrounded command (`mmbot … --out f &`) writes that a later line of the same block
 * reads: pasted as one block, the reader runs before the file exists (or reads a previous run's).
 */
function racedOutputs(text: string): string[] {
  const raced: string[] = [];
  for (const block of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block[1]!.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.replace(/#.*$/, '').trim());
    lines.forEach((line, i) => {
      if (!/[^&]&$/.test(line)) return;
      for (const m of line.matchAll(new RegExp(`(?:${OUTPUT_FLAGS.join('|')}) (\\S+)`, 'g'))) {
        if (lines.slice(i + 1).some((later) => later.includes(m[1]!))) raced.push(m[1]!);
      }
    });
  }
  return raced;
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

  it.each(DOCS.map((d) => [d.slice(ROOT.length + 1), d]))('%s: every file its shell blocks read exists or is made before', (_n, doc) => {
    expect(unmadeInputs(readFileSync(doc, 'utf8'))).toEqual([]);
  });

  it.each(DOCS.map((d) => [d.slice(ROOT.length + 1), d]))('%s: no block reads what a command it backgrounded writes', (_n, doc) => {
    expect(racedOutputs(readFileSync(doc, 'utf8'))).toEqual([]);
  });

  it('a backgrounded command\'s output read in the same block is caught', () => {
    const raced = '```sh\nnpx mmbot sim --port 8080 --credentials-out /tmp/venue.json &\nexport K=$(node -p "require(\'/tmp/venue.json\').api_key")\n```\n';
    expect(racedOutputs(raced)).toEqual(['/tmp/venue.json']);
    const apart = '```sh\nnpx mmbot sim --port 8080 --credentials-out /tmp/venue.json\n```\n\n```sh\nexport K=$(node -p "require(\'/tmp/venue.json\').api_key")\n```\n';
    expect(racedOutputs(apart)).toEqual([]);
  });

  it('a file read before the block that makes it is caught', () => {
    const doc = '```sh\nnpx mmbot backtest --config mine.yaml\n```\n\n```yaml\n# mine.yaml\nvenue: {}\n```\n';
    expect(unmadeInputs(doc)).toEqual(['backtest --config mine.yaml']);
    const ordered = '```yaml\n# mine.yaml\nvenue: {}\n```\n\n```sh\nnpx mmbot record --local --out my.jsonl.gz\nnpx mmbot backtest --config mine.yaml \\\n  --data my.jsonl.gz\n```\n';
    expect(unmadeInputs(ordered)).toEqual([]);
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
