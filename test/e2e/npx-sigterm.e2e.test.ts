import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnLogged } from './bot-process.ts';

/*
 * A supervisor stopping `npx mmbot run` sends SIGTERM to npx. npm kills its `sh -c` and exits, but
 * the signal never reaches node: before, the daemon kept running and quoting, orphaned. Now it
 * notices npm is gone and stops as on SIGTERM: orders cancelled, confirmed, exit.
 */
const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-npx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('SIGTERM to npx mmbot run', () => {
  it('stops the daemon cleanly (orders cancelled and confirmed), leaving no process behind', async () => {
    const doc = parseDocument(readFileSync(join(ROOT, 'config/demo.yaml'), 'utf8'));
    doc.setIn(['venue', 'sim', 'clock_speed'], 4);
    doc.setIn(['monitoring', 'port'], 0);
    const path = join(dir, 'demo.yaml');
    writeFileSync(path, doc.toString());
    const bot = spawnLogged('npx', ['mmbot', 'run', '--config', path, '--json'], { MMBOT_CONTROL_TOKEN: '' });
    let daemonPid = -1;
    try {
      const running = await bot.waitFor((l) => l.msg?.startsWith('mmbot running') === true, 60_000, 'the daemon to start');
      daemonPid = running['pid'] as number;
      expect(daemonPid).not.toBe(bot.proc.pid); // npx → sh -c → node: the daemon is a grandchild
      await bot.waitFor((l) => l.msg?.startsWith('fill ') === true, 30_000, 'a first fill');
      bot.proc.kill('SIGTERM');
      await bot.exited;
      const stopped = await bot.waitFor((l) => l.msg === 'stopped: no open orders left', 20_000, 'the daemon to stop after npx was terminated');
      expect(stopped['pid']).toBe(daemonPid);
      const deadline = Date.now() + 10_000;
      while (alive(daemonPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(alive(daemonPid)).toBe(false);
      expect(bot.lines.some((l) => typeof l.msg === 'string' && l.msg.includes('npm, which started this daemon, is gone'))).toBe(true);
    } finally {
      if (daemonPid > 0 && alive(daemonPid)) process.kill(daemonPid, 'SIGKILL');
      if (bot.proc.exitCode === null) bot.proc.kill('SIGKILL');
    }
  }, 120_000);
});
