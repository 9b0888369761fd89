import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const unit = readFileSync(join(ROOT, 'deploy/systemd/mmbot.service'), 'utf8');
const key = (k: string): string[] => unit.split('\n').filter((l) => l.startsWith(`${k}=`)).map((l) => l.slice(k.length + 1));

describe('deploy/systemd/mmbot.service', () => {
  it('starts node on the CLI directly (a SIGTERM to npx would reach npm, not the daemon) with a run command the CLI accepts', () => {
    const exec = key('ExecStart');
    expect(exec).toHaveLength(1);
    expect(exec[0]).toMatch(/^\/usr\/bin\/node \S+\/bin\/mmbot\.js run --config \S+/);
    expect(exec[0]).not.toMatch(/npx|npm/);
    const runUsage = readFileSync(join(ROOT, 'src/cli/commands/run.ts'), 'utf8');
    for (const flag of exec[0]!.match(/--[a-z-]+/g) ?? []) expect(runUsage).toContain(`'${flag.slice(2)}'`);
  });

  it('stops with SIGTERM and time to cancel; no restart after a bad config (2) or a kill-switch stop (3)', () => {
    expect(key('KillSignal')).toEqual(['SIGTERM']);
    expect(Number(key('TimeoutStopSec')[0])).toBeGreaterThanOrEqual(30);
    expect(key('Restart')).toEqual(['on-failure']);
    expect(key('RestartPreventExitStatus')[0]!.split(' ').sort()).toEqual(['2', '3']);
  });
});
