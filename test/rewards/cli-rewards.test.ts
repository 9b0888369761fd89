import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { command } from '../../src/cli/commands/rewards.ts';
import { main } from '../../src/cli/main.ts';
import { startVenue, type RunningVenue } from '../../src/sim/index.ts';

/** `mmbot rewards` end to end against the local venue's reward endpoint (auth, paging, output). */
let venue: RunningVenue | undefined;
beforeAll(async () => {
  venue = await startVenue({ port: 0, config: { instruments: { only: ['AAPL-PERP'] } } });
}, 20_000);
afterAll(async () => {
  await venue?.stop();
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    return { code: await main(['rewards', ...args]), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('mmbot rewards', () => {
  it('prints a table and JSON from the venue (empty ledger on a fresh venue)', async () => {
    const c = venue!.credentials;
    const conn = ['--base-url', venue!.baseUrl, '--api-key', c.api_key, '--api-secret', c.api_secret];
    const table = await run([...conn, '--symbol', 'AAPL-PERP', '--from', '2026-01-01']);
    expect(table.err).toBe('');
    expect(table.code).toBe(0);
    expect(table.out).toContain('Reward accruals: 0 row(s) (symbol=AAPL-PERP, from=2026-01-01)');
    expect(table.out).toContain('Totals by status');
    const json = await run([...conn, '--json', '--status', 'paid']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.out) as { totalCount: number; totalsByStatus: Record<string, string>; query: { status: string } };
    expect(doc.totalCount).toBe(0);
    expect(doc.query.status).toBe('paid');
    expect(doc.totalsByStatus['paid']).toBe('0.000000');
  });

  it('bad flags and missing credentials are usage errors naming what is wrong (exit 2)', async () => {
    const bad = await run(['--status', 'pending', '--base-url', 'http://x', '--api-key', 'k', '--api-secret', 's']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--status must be one of');
    const saved = { ...process.env };
    delete process.env['MMBOT_BASE_URL'];
    delete process.env['MMBOT_API_KEY'];
    delete process.env['MMBOT_API_SECRET'];
    try {
      const missing = await run([]);
      expect(missing.code).toBe(2);
      expect(missing.err).toContain('missing connection settings: --base-url (or MMBOT_BASE_URL)');
    } finally {
      Object.assign(process.env, saved);
    }
    const wrong = await run(['--base-url', venue!.baseUrl, '--api-key', 'nope', '--api-secret', 'nope']);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/UNAUTHORIZED|FORBIDDEN/);
    expect(command.usage).toContain('--json');
  });
});
