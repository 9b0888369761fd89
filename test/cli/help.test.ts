import { afterEach, describe, expect, it, vi } from 'vitest';
import { command as run } from '../../src/cli/commands/run.ts';
import { KILL_SWITCH_EXIT_CODE } from '../../src/app/live/run-daemon.ts';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_SUMMARIES } from '../../src/cli/command-summaries.ts';
import { main, type Command } from '../../src/cli/main.ts';

const ROOT = join(import.meta.dirname, '../..');
const commandFiles = readdirSync(join(ROOT, 'src/cli/commands')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();

afterEach(() => vi.restoreAllMocks());

describe('mmbot help', () => {
  it('lists every command with its summary starting in one column (walk-forward included)', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    expect(await main(['help'])).toBe(0);
    const rows = out.split('\n').filter((l) => /^ {2}[a-z]/.test(l));
    expect(rows.map((r) => r.trim().split(' ')[0])).toContain('walk-forward');
    // Each row is "  <name padded> <summary>": the summary starts right after the longest name.
    const column = rows.map((r) => /^ {2}[a-z-]+ +/.exec(r)![0].length);
    expect(new Set(column)).toEqual(new Set(['  walk-forward '.length]));
  });

  it('has one summary per command file, and each command module shows that same summary', async () => {
    expect(Object.keys(COMMAND_SUMMARIES).sort()).toEqual(commandFiles);
    for (const name of commandFiles) {
      const mod = (await import(join(ROOT, 'src/cli/commands', `${name}.ts`))) as { command: Command };
      expect(mod.command.summary, name).toBe(COMMAND_SUMMARIES[name as keyof typeof COMMAND_SUMMARIES]);
    }
  });

  it('prints the list without loading any command module (loading all fifteen took 1.2–1.7 s)', async () => {
    const loaded: string[] = [];
    vi.resetModules();
    for (const name of commandFiles)
      vi.doMock(`../../src/cli/commands/${name}.ts`, () => {
        loaded.push(name);
        return { command: { summary: '', usage: '', run: () => Promise.resolve(0) } };
      });
    try {
      const fresh = (await import('../../src/cli/main.ts')) as typeof import('../../src/cli/main.ts');
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      expect(await fresh.main(['help'])).toBe(0);
      expect(loaded).toEqual([]);
      // The mocks are live: running a command does load its module.
      expect(await fresh.main(['wire'])).toBe(0);
      expect(loaded).toEqual(['wire']);
    } finally {
      for (const name of commandFiles) vi.doUnmock(`../../src/cli/commands/${name}.ts`);
      vi.resetModules();
    }
  });

  it('mmbot run --help lists every exit code the daemon returns, the kill switch\'s 3 included', () => {
    expect(KILL_SWITCH_EXIT_CODE).toBe(3);
    expect(run.usage).toContain('Exit codes: 0 stopped cleanly, 1 failed (or orders left unconfirmed), 2 bad config or usage,\n3 stopped by a kill-switch trigger whose action is stop, 130 a second signal (exits at once).');
  });
});
