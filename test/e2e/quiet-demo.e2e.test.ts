import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBot } from './bot-process.ts';

/*
 * `npm start`'s config for one venue minute (clock ×4, so 15 s of wall time), as a newcomer sees
 * it: every line at WARN or above is a false alarm unless something really went wrong, and on a
 * clean run nothing does. The only changes to config/demo.yaml: the clock speed and a free port.
 */
const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-quiet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the demo (npm start) logs no warning in a clean minute', () => {
  it('one venue minute: fills, status lines, 0 WARN or ERROR lines, exit 0 on SIGINT', async () => {
    const doc = parseDocument(readFileSync(join(ROOT, 'config/demo.yaml'), 'utf8'));
    doc.setIn(['venue', 'sim', 'clock_speed'], 4);
    doc.setIn(['monitoring', 'port'], 0);
    const path = join(dir, 'demo.yaml');
    writeFileSync(path, doc.toString());
    const bot = spawnBot(['run', '--config', path, '--json'], { MMBOT_CONTROL_TOKEN: '' });
    try {
      await bot.waitFor((l) => l.msg?.startsWith('mmbot running') === true, 30_000, 'the daemon to start');
      const console = await bot.waitFor((l) => l.msg?.startsWith('console ') === true, 5_000, 'the console line');
      expect(console.msg).toMatch(/^console http:\/\/127\.0\.0\.1:\d+\/ \(read-only: actions disabled, set MMBOT_CONTROL_TOKEN to enable them\)$/);
      await new Promise((r) => setTimeout(r, 15_000));
    } finally {
      bot.proc.kill('SIGINT');
    }
    expect(await bot.exited).toBe(0);
    expect(bot.lines.some((l) => l.msg?.startsWith('fill ') === true)).toBe(true);
    const loud = bot.lines.filter((l) => l.level === 'warn' || l.level === 'error' || l.level === 'fatal').map((l) => `${l.level}: ${l.msg}`);
    expect(loud).toEqual([]);
  }, 90_000);
});
