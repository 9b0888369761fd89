import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { asSymbol } from '../../src/core/ids.ts';
import type { MarketEvent } from '../../src/domain/events.ts';
import { createRecordingWriter, readRecording, startRecorder } from '../../src/record/index.ts';
import { testInstrument } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-recorder-abort-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const S = asSymbol('EURUSD-PERP');
const trade = (t: number): MarketEvent => ({ type: 'trade', symbol: S, priceTicks: 11382, qty: 100, aggressor: 'buy', tsEvent: t, tsRecv: t });

/** Records `n` trades to `path` and stops (or aborts) the recorder. */
async function record(path: string, n: number, how: 'stop' | 'abort'): Promise<void> {
  const market$ = new Subject<MarketEvent>();
  const rec = startRecorder(createRecordingWriter(path, { instruments: [testInstrument()], startedAtMs: 0, source: 'test' }), { market$, connection$: new Subject() }, new VirtualClock(0));
  for (let i = 1; i <= n; i++) market$.next(trade(i));
  if (how === 'stop') await rec.stop();
  else await rec.abort();
}

describe('a recording given up (a failed `mmbot record`) replaces nothing (issue 24 #1)', () => {
  it('abort leaves the previous file byte-identical and no temporary file; stop replaces it', async () => {
    const out = join(dir, 'rec.jsonl.gz');
    await record(out, 3, 'stop');
    const before = readFileSync(out);
    expect((await readRecording(out)).events).toHaveLength(3);
    await record(out, 7, 'abort');
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(['rec.jsonl.gz']);
    await record(out, 5, 'stop');
    expect((await readRecording(out)).events).toHaveLength(5);
    expect(readdirSync(dir)).toEqual(['rec.jsonl.gz']);
  });

  it('abort with no earlier file leaves no file', async () => {
    await record(join(dir, 'none.jsonl.gz'), 2, 'abort');
    expect(readdirSync(dir)).toEqual(['rec.jsonl.gz']);
  });
});
