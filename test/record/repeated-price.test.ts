import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadColumnar, readRecording, recordingHeader } from '../../src/record/index.ts';
import { repeatedPrice } from '../../src/record/repeated-price.ts';
import { testInstrument } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-repeated-price-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const S = 'EURUSD-PERP';

/** A recording: a snapshot with 1,000 bid at 11380, one delta (its bids as given), a print of 10 there. */
function recording(name: string, deltaBids: string): string {
  const header = JSON.stringify(recordingHeader({ instruments: [testInstrument(S, '0.0001', 1)], startedAtMs: 0, source: 't' }));
  const lines = [
    header,
    `{"t":"b","s":"${S}","e":1,"r":1,"f":1,"b":[[11380,1000]],"a":[[11390,100]]}`,
    `{"t":"b","s":"${S}","e":3,"r":3,"f":0,"b":${deltaBids},"a":[]}`,
    `{"t":"t","s":"${S}","e":4,"r":4,"p":11380,"q":10,"d":"S"}`,
  ];
  const p = join(dir, name);
  writeFileSync(p, gzipSync(`${lines.join('\n')}\n`));
  return p;
}

describe('a book line listing one price twice on a side is refused when loading (issue 32 item 6)', () => {
  it('a delta 1000 → 0, then → 500 names the file, line and level (it loaded, and the replay put the queue ahead of a resting buy at 0: the print of 10 filled 10 while the level showed 500)', async () => {
    const p = recording('twice.jsonl.gz', '[[11380,0],[11380,500]]');
    const want = `${p}:3: b[1]: price 11380 is listed twice in one book (b[0] too); a book gives each price once per side`;
    await expect(loadColumnar([p])).rejects.toMatchObject({ code: 'RECORDING_INVALID', message: want });
    await expect(readRecording(p)).rejects.toMatchObject({ code: 'RECORDING_INVALID', message: want });
    // The same change given once loads: 1,000 → 500.
    const col = await loadColumnar([recording('once.jsonl.gz', '[[11380,500]]')]);
    expect(Array.from(col.levels.subarray(2 * col.a[1]!, 2 * col.a[1]! + 2))).toEqual([11380, 500]);
  });

  it('in a snapshot too, and out of order: 11380 at b[0] and b[2]', async () => {
    const header = JSON.stringify(recordingHeader({ instruments: [testInstrument(S, '0.0001', 1)], startedAtMs: 0, source: 't' }));
    const p = join(dir, 'snap.jsonl.gz');
    writeFileSync(p, gzipSync(`${header}\n{"t":"b","s":"${S}","e":1,"r":1,"f":1,"b":[[11380,10],[11370,5],[11380,7]],"a":[[11390,1]]}\n`));
    await expect(loadColumnar([p])).rejects.toThrow(`${p}:2: b[2]: price 11380 is listed twice in one book (b[0] too)`);
  });

  it('repeatedPrice: one pass for monotonic sides, the first repeated pair otherwise, strided over [price, qty] pairs', () => {
    expect(repeatedPrice([5, 4, 3])).toBeNull();
    expect(repeatedPrice([3, 4, 5])).toBeNull();
    expect(repeatedPrice([5, 3, 4])).toBeNull();
    expect(repeatedPrice([5, 5])).toEqual([0, 1]);
    expect(repeatedPrice([4, 9, 3, 9, 4])).toEqual([1, 3]);
    // levels 1..3 of [p, q] pairs: prices 7, 8, 7
    expect(repeatedPrice([1, 0, 7, 1, 8, 1, 7, 2], 1, 3, 2)).toEqual([0, 2]);
  });
});
