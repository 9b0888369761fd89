import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecording } from '../../src/record/index.ts';
import { recordVenue } from '../../src/cli/commands/record.ts';
import { startVenue } from '../../src/sim/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-recorder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const waitFor = async (cond: () => boolean, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
};

describe('recording the local venue over the market-data WebSocket', () => {
  it('records books, trades and tickers, and survives a dropped connection with a gap marker and a fresh snapshot', async () => {
    const venue = await startVenue({ seed: 3, config: { clock_speed: 20, seed: 3, market: { step_ms: 100, defaults: { takers: { rate_per_min: 300 } } } } as never });
    const out = join(dir, 'live.jsonl.gz');
    try {
      const session = await recordVenue({
        baseUrl: venue.baseUrl,
        wsUrl: venue.wsUrl,
        credentials: { apiKey: venue.credentials.api_key, apiSecret: venue.credentials.api_secret },
        clock: venue.venue.clock,
        symbols: ['EURUSD-PERP'],
        out,
        fundingPollMs: 0,
        source: 'local-venue',
      });
      await waitFor(() => session.stats.books >= 3 && session.stats.trades >= 1, 10_000);
      let dropped = 0;
      await waitFor(() => (dropped = venue.venue.knobs.dropConnections({ path: '/md/ws' })) > 0, 8000);
      expect(dropped).toBeGreaterThan(0);
      const booksBefore = session.stats.books;
      await waitFor(() => session.stats.gaps === 1 && session.stats.books > booksBefore + 1, 10_000); // reconnect and more frames
      const stats = await session.stop();
      expect(stats.gaps).toBe(1);
    } finally {
      await venue.stop();
    }
    const rec = await readRecording(out);
    const types = rec.events.map((e) => (e.type === 'book' ? (e.isSnapshot ? 'snapshot' : 'delta') : e.type));
    expect(types.find((t) => t === 'snapshot' || t === 'delta')).toBe('snapshot');
    expect(types).toContain('delta');
    expect(types).toContain('trade');
    const g = types.indexOf('gap');
    expect(g).toBeGreaterThan(0);
    const gap = rec.events[g]!;
    expect(gap.tsRecv).toBeGreaterThanOrEqual(gap.tsEvent);
    const nextBook = rec.events.slice(g + 1).find((e) => e.type === 'book');
    expect(nextBook && nextBook.type === 'book' && nextBook.isSnapshot).toBe(true);
    for (const e of rec.events) if (e.type !== 'gap') expect(e.tsRecv).toBeGreaterThanOrEqual(e.tsEvent - 50);
  }, 20_000);
});
