import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/index.ts';
import { FillBook, type BookedFill } from '../../src/engine/fills.ts';

const fill = (i: number, tsMs: number, estimated = false): BookedFill => ({ slot: null as never, tradeId: `T${i}`, fee: new Decimal(0), estimated, tsMs });

describe('FillBook memory', () => {
  it('forgets settled fills older than keepMs before the newest, keeps unsettled ones', () => {
    const b = new FillBook(50_000, 60_000);
    b.add(FillBook.key('T-est', 'O'), fill(-1, 0, true));
    for (let i = 0; i < 10_000; i++) b.add(FillBook.key(`T${i}`, 'O'), fill(i, i * 1_000));
    // 10 000 fills a second apart: about the last minute (plus one prune batch) is kept, not all.
    expect(b.size).toBeLessThan(400);
    expect(b.get(FillBook.key('T9999', 'O'))).toBeDefined();
    expect(b.get(FillBook.key('T10', 'O'))).toBeUndefined();
    // A fill whose fee is still estimated stays until settled (REST would otherwise book it twice).
    expect(b.get(FillBook.key('T-est', 'O'))).toBeDefined();
    expect(b.estimatedCount).toBe(1);
  });
});
