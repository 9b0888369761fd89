import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.ts';
import { MmError } from '../../src/core/errors.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'mmbot-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the real CLI; resolves with exit code, stdout and stderr whatever the code. */
async function mmbot(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, ['bin/mmbot.js', ...args], { cwd: ROOT, timeout: 60_000, env: { ...process.env, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

const LITERAL = `venue:
  mode: remote
  base_url: http://127.0.0.1:9
  api_key: ak-literal-0001
  api_secret: the-literal-secret-value
bot:
  strategies:
    - { symbol: EURUSD-PERP, strategy: fixed-spread, params: { halfSpreadTicks: 2, size: 1, maxPosition: 10 } }
monitoring: { enabled: false }
`;

const withToken = (token: string): string => `venue: { mode: embedded-sim }
bot:
  strategies:
    - { symbol: EURUSD-PERP, strategy: fixed-spread, params: { halfSpreadTicks: 2, size: 1, maxPosition: 10 } }
monitoring:
  control: { token: "${token}" }
`;

describe('secrets in config files (issue 24 #4)', () => {
  it('config check and run refuse literal api_key/api_secret in a 0644 file (exit 2, values never echoed)', async () => {
    const file = join(dir, 'literal.yaml');
    writeFileSync(file, LITERAL);
    chmodSync(file, 0o644);
    const message = 'a secret written in a file others can read (mode 0644): use ${ENV_VAR}, or chmod 600 the file, or pass --allow-plaintext-secrets';
    for (const args of [['config', 'check', file], ['run', '--config', file]]) {
      const r = await mmbot(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file}: venue.api_key: ${message}`);
      expect(r.stderr).toContain(`${file}: venue.api_secret: ${message}`);
      expect(r.stderr).not.toContain('the-literal-secret-value');
    }
  }, 60_000);

  it('mode 0600 or --allow-plaintext-secrets: accepted with a loud warning on stderr', async () => {
    const file = join(dir, 'private.yaml');
    writeFileSync(file, LITERAL);
    chmodSync(file, 0o600);
    const ok = await mmbot(['config', 'check', file]);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe(`WARNING: ${file}: venue.api_key, venue.api_secret are secrets written in the file (mode 0600); secrets belong in the environment (\${ENV_VAR})\n`);
    const shared = join(dir, 'shared.yaml');
    writeFileSync(shared, LITERAL);
    chmodSync(shared, 0o640);
    const allowed = await mmbot(['config', 'check', shared, '--allow-plaintext-secrets']);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain('are secrets written in the file (mode 0640)');
  }, 60_000);

  it('${ENV} references are not literal secrets: no warning, whatever the mode', async () => {
    const file = join(dir, 'env.yaml');
    writeFileSync(file, LITERAL.replace('ak-literal-0001', '${T_KEY}').replace('the-literal-secret-value', '${T_SECRET}'));
    chmodSync(file, 0o644);
    const r = await mmbot(['config', 'check', file], { T_KEY: 'k', T_SECRET: 's' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  }, 60_000);

  it('issue 35 #6: secrets under __proto__ or behind an empty ${X:-} are refused by config check in a 0644 file (exit 2)', async () => {
    const hidden = join(dir, 'hidden.yaml');
    writeFileSync(hidden, LITERAL.replace('  api_key: ak-literal-0001\n  api_secret: the-literal-secret-value\n', '  __proto__: { api_key: ak-literal-0001, api_secret: the-literal-secret-value }\n'));
    chmodSync(hidden, 0o644);
    const h = await mmbot(['config', 'check', hidden]);
    expect(h.code).toBe(2);
    expect(h.stderr).toContain(`${hidden}: venue.__proto__: "__proto__" is not a config key`);
    expect(h.stderr).not.toContain('the-literal-secret-value');
    const suffixed = join(dir, 'suffixed.yaml');
    writeFileSync(suffixed, LITERAL.replace('the-literal-secret-value', '"s3cret${X:-}"'));
    chmodSync(suffixed, 0o644);
    const s = await mmbot(['config', 'check', suffixed]);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain(`${suffixed}: venue.api_secret: a secret written in a file others can read (mode 0644)`);
    expect(s.stderr).not.toContain('s3cret');
  }, 60_000);

  it('weak control tokens are refused with a clear error naming the rule, not the token', async () => {
    const lookup = (await import('../../src/app/live/strategies.ts')).builtinLookup;
    const strategies = await lookup();
    const refused = (token: string): string => {
      try {
        parseConfig(withToken(token), 'bot.yaml', { strategies });
      } catch (e) {
        expect(e).toBeInstanceOf(MmError);
        expect((e as MmError).code).toBe('CONFIG_INVALID');
        expect((e as MmError).message).not.toContain(token);
        return (e as MmError).message;
      }
      return 'accepted';
    };
    expect(refused('hunter2')).toBe('bot.yaml: monitoring.control.token: control token too short (7 characters, at least 32): generate one with `openssl rand -hex 32`');
    expect(refused('ab'.repeat(20))).toBe('bot.yaml: monitoring.control.token: control token too predictable (2 distinct characters, at least 8): generate one with `openssl rand -hex 32`');
    expect(refused('3f9c2a7e1b8d4f60a5c9e2d7b1f4a8c3')).toBe('accepted');
    expect(refused('')).toBe('accepted'); // empty = acting disabled
  });
});
