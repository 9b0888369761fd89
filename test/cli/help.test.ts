import { afterEach, describe, expect, it, vi } from 'vitest';
import { command as run } from '../../src/cli/commands/run.ts';
import { KILL_SWITCH_EXIT_CODE } from '../../src/cli/live/run-daemon.ts';
import { main } from '../../src/cli/main.ts';

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

  it('mmbot run --help lists every exit code the daemon returns, the kill switch\'s 3 included', () => {
    expect(KILL_SWITCH_EXIT_CODE).toBe(3);
    expect(run.usage).toContain('Exit codes: 0 stopped cleanly, 1 failed (or orders left unconfirmed), 2 bad config or usage,\n3 stopped by a kill-switch trigger whose action is stop, 130 a second signal (exits at once).');
  });
});
