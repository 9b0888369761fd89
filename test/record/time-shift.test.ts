import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticMarket } from '../../src/backtest/synthetic-recording.ts';
import { createRecordingWriter, readRecording } from '../../src/record/index.ts';
import { shiftEvent, shiftRecording } from '../../src/record/time-shift.ts';
import { testInstrument } from './fixtures.ts';

const DAY_MS = 86_400_000;
const START = 1_700_000_000_000;
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'time-shift-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('shiftRecording', () => {
  it('moves every timestamp by the offset and nothing else (books, trades, tickers, funding)', async () => {
    const d = tmp();
    const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
    const src = join(d, 'day.jsonl.gz');
    const w = createRecordingWriter(src, { instruments: [inst], startedAtMs: START, source: 'synthetic' });
    for (const ev of syntheticMarket({ instrument: inst, seed: 3, events: 3000, startMs: START, midTicks: 11380, levels: 5, meanGapMs: 2, tickerEveryMs: 1000, fundingAtMs: START + 3000 })) w.write(ev);
    await w.close();
    const out = join(d, 'next-day.jsonl.gz');
    const n = await shiftRecording(src, out, DAY_MS);
    const a = await readRecording(src);
    const b = await readRecording(out);
    expect(n).toBe(a.events.length);
    expect(b.header.started_at).toBe(START + DAY_MS);
    expect(b.events).toEqual(a.events.map((e) => shiftEvent(e, DAY_MS)));
    const kinds = new Set(a.events.map((e) => e.type));
    expect([...kinds].sort()).toEqual(['book', 'funding', 'ticker', 'trade']);
    const funding = b.events.find((e) => e.type === 'funding');
    expect(funding?.type === 'funding' && funding.settlement.tsEvent - funding.tsEvent).toBe(0);
    expect(funding?.tsEvent).toBeGreaterThanOrEqual(START + DAY_MS + 3000);
    // Shifting back gives the original events exactly (integer-ms times here).
    const back = join(d, 'back.jsonl.gz');
    await shiftRecording(out, back, -DAY_MS);
    expect((await readRecording(back)).events).toEqual(a.events);
  });

  it('keeps order-level books as they were (order lists and ids, snapshot vs delta)', async () => {
    const d = tmp();
    const inst = { symbol: 'X', tick_size: '0.01', multiplier: '1', min_order_size: 1, kind: 'perpetual', product: 'X', category: 'imported', description: 'X', expiration_ms: null, initial_margin_pct: '10', maintenance_margin_pct: '5', band_lower_pct: '100', band_upper_pct: '100', funding_cap_upper_pct: null, funding_cap_lower_pct: null, funding_schedule: null, funding_variant: null, estimated_funding_supported: false };
    const header = { format: 'mmbot-recording', version: 5, symbols: ['X'], instruments: { X: inst }, started_at: 1000, source: 'test', book_level: 3, order_ids: true };
    const lines = [
      JSON.stringify(header),
      '{"t":"b","s":"X","e":1000.25,"r":1000.25,"f":1,"b":[[100,30,[10,20],[7,8]]],"a":[[102,5,[5],[9]]]}',
      '{"t":"b","s":"X","e":1001,"r":1001.5,"f":0,"b":[[100,20,[20],[8]]],"a":[]}',
      '{"t":"t","s":"X","e":1002,"r":1002,"p":100,"q":10,"d":"S","c":"h"}',
    ];
    const src = join(d, 'l3.jsonl');
    writeFileSync(src, `${lines.join('\n')}\n`);
    const out = join(d, 'l3-shifted.jsonl.gz');
    expect(await shiftRecording(src, out, 2 * DAY_MS)).toBe(3);
    const b = await readRecording(out);
    expect(b.header).toEqual({ ...header, started_at: 1000 + 2 * DAY_MS });
    expect(b.events.map((e) => [e.type, e.tsEvent - 2 * DAY_MS, e.tsRecv - 2 * DAY_MS])).toEqual([
      ['book', 1000.25, 1000.25],
      ['book', 1001, 1001.5],
      ['trade', 1002, 1002],
    ]);
    const [snap, delta] = b.events;
    expect(snap?.type === 'book' && [snap.isSnapshot, snap.bids[0]?.orders, snap.bids[0]?.orderIds]).toEqual([true, [10, 20], [7, 8]]);
    expect(delta?.type === 'book' && [delta.isSnapshot, delta.bids[0]?.orders, delta.bids[0]?.orderIds]).toEqual([false, [20], [8]]);
  });
});
