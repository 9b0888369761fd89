import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { command } from '../../src/cli/commands/config.ts';
import { MmError } from '../../src/core/errors.ts';

const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-config-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command capturing stdout. */
async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await command.run(args), out };
  } finally {
    spy.mockRestore();
  }
}

describe('mmbot config', () => {
  it('check says ok for the demo and --print shows the effective config', async () => {
    const r = await run(['check', join(ROOT, 'config/demo.yaml'), '--print']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('demo.yaml: ok (venue embedded-sim; strategies eurusd)');
    expect(JSON.parse(r.out.slice(r.out.indexOf('{')))).toMatchObject({ monitoring: { port: 9464 } });
  });

  it('check redacts secrets when printing', async () => {
    vi.stubEnv('AX_BASE_URL', 'https://gateway.sandbox.example.com');
    vi.stubEnv('AX_API_KEY', 'key-123');
    vi.stubEnv('AX_API_SECRET', 'secret-456');
    try {
      const r = await run(['check', join(ROOT, 'config/live-template.yaml'), '--print']);
      expect(r.code).toBe(0);
      expect(r.out).not.toContain('secret-456');
      expect(r.out).not.toContain('key-123');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('schema --out writes the same schema as docs/config.schema.json', async () => {
    const out = join(dir, 'schema.json');
    expect((await run(['schema', '--out', out])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(JSON.parse(readFileSync(join(ROOT, 'docs/config.schema.json'), 'utf8')));
  });

  it('an unknown subcommand is a usage error', async () => {
    await expect(command.run(['frobnicate'])).rejects.toThrow(MmError);
  });
});
