import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { monitoringPortOverride } from '../../src/cli/monitoring-port.ts';
import { spawnBot } from '../e2e/bot-process.ts';
import { freePort } from '../support/free-port.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-monport-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));


describe('--monitoring-port and MMBOT_MONITORING_PORT', () => {
  it('the flag wins over the variable; bad values name where they came from', () => {
    expect(monitoringPortOverride('9500', { MMBOT_MONITORING_PORT: '9600' })).toBe(9500);
    expect(monitoringPortOverride(undefined, { MMBOT_MONITORING_PORT: '9600' })).toBe(9600);
    expect(monitoringPortOverride(undefined, { MMBOT_MONITORING_PORT: '' })).toBeNull();
    expect(monitoringPortOverride(undefined, {})).toBeNull();
    expect(() => monitoringPortOverride('70000', {})).toThrow('--monitoring-port must be a port number 0–65535 (0 = any free port), got "70000"');
    expect(() => monitoringPortOverride(undefined, { MMBOT_MONITORING_PORT: 'abc' })).toThrow('MMBOT_MONITORING_PORT must be a port number');
    expect(() => monitoringPortOverride('-1', {})).toThrow('--monitoring-port');
  });

  it('a second bot from the same config serves /metrics on the port the flag names', async () => {
    const doc = parseDocument(readFileSync(join(ROOT, 'config/demo.yaml'), 'utf8'));
    doc.setIn(['monitoring', 'port'], 1); // a port the daemon could not bind: the flag must replace it
    const path = join(dir, 'demo.yaml');
    writeFileSync(path, doc.toString());
    const port = await freePort();
    const bot = spawnBot(['run', '--config', path, '--json', '--monitoring-port', String(port)], { MMBOT_CONTROL_TOKEN: '' });
    try {
      await bot.waitFor((l) => l.msg?.startsWith('mmbot running') === true, 30_000, 'the daemon to start');
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('mmbot_');
    } finally {
      bot.proc.kill('SIGINT');
    }
    expect(await bot.exited).toBe(0);
  }, 60_000);
});
