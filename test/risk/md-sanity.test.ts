import { describe, expect, it } from 'vitest';
import { TickGrid } from '../../src/domain/index.ts';
import { DEFAULT_MD_SANITY_CONFIG, MdSanity } from '../../src/risk/index.ts';

// Tick 0.0001: 1.14 = 11400 ticks.
const fresh = (over: Partial<typeof DEFAULT_MD_SANITY_CONFIG> = {}) => new MdSanity({ ...DEFAULT_MD_SANITY_CONFIG, ...over }, new TickGrid('0.0001'));

describe('MdSanity', () => {
  it('a negative or zero best price is suspect at once and names the value', () => {
    const s = fresh();
    expect(s.update(-11_411, 11_402, null, null, 0)).toBe('suspect');
    expect(s.kind).toBe('bad-price');
    expect(s.detail).toBe('best bid -1.1411 is not a positive price');
    expect(s.update(11_399, 0, null, null, 10)).toBeNull(); // the same episode
    expect(s.detail).toBe('best ask 0 is not a positive price');
    expect(s.update(11_399, 11_401, null, null, 20)).toBe('sane');
    expect(s.kind).toBeNull();
    expect(s.lastSaneMidTicks).toBe(11_400);
  });

  it('a crossed book is suspect once it has lasted crossed_book_ms (1000), not before; a locked one too', () => {
    const s = fresh();
    expect(s.update(11_399, 11_401, 11_400, null, 0)).toBeNull();
    expect(s.update(11_500, 11_300, 11_400, null, 5_000)).toBeNull();
    expect(s.update(11_500, 11_300, 11_400, null, 5_999)).toBeNull();
    expect(s.crossedPending).toBe(true); // the engine holds its orders meanwhile
    expect(s.update(11_500, 11_300, 11_400, null, 6_000)).toBe('suspect');
    expect(s.kind).toBe('crossed-book');
    expect(s.detail).toBe('crossed book: bid 1.15 ≥ ask 1.13 for 1000 ms');
    expect(s.crossedPending).toBe(false);
    expect(s.update(11_399, 11_401, 11_400, null, 6_100)).toBe('sane');
    // Un-crossing restarts the count; a locked book (bid = ask) counts the same.
    expect(s.update(11_400, 11_400, 11_400, null, 7_000)).toBeNull();
    expect(s.update(11_400, 11_400, 11_400, null, 8_000)).toBe('suspect');
    expect(s.detail).toBe('locked book: bid 1.14 ≥ ask 1.14 for 1000 ms');
  });

  it('a mid beyond 300 bps of the venue mark is suspect at once (the 0.0001 / 0.0002 book of a pair at 1.14)', () => {
    const s = fresh();
    expect(s.update(11_399, 11_401, 11_400, null, 0)).toBeNull();
    expect(s.update(1, 2, 11_400, null, 1)).toBe('suspect');
    expect(s.kind).toBe('mid-jump');
    expect(s.detail).toBe('mid 0.00015 is 9999 bps from the mark 1.14');
    // 300 bps of 11400 is 342 ticks: a mid of 11742 passes, 11743 does not.
    expect(s.update(11_741, 11_743, 11_400, null, 2)).toBe('sane');
    expect(s.update(11_742, 11_744, 11_400, null, 3)).toBe('suspect');
  });

  it('checks against the index when there is no mark, and the last sane mid only when the venue sends neither', () => {
    const byIndex = fresh();
    expect(byIndex.update(12_000, 12_002, null, 11_400, 0)).toBe('suspect');
    expect(byIndex.detail).toBe('mid 1.2001 is 527 bps from the index 1.14');
    // With a mark, the mark alone anchors: a dated future trades at its basis to the index.
    expect(byIndex.update(12_000, 12_002, 12_001, 11_400, 1)).toBe('sane');
    const byLast = fresh();
    expect(byLast.update(11_399, 11_401, null, null, 0)).toBeNull();
    expect(byLast.update(12_000, 12_002, null, null, 1)).toBe('suspect');
    expect(byLast.detail).toBe('mid 1.2001 is 527 bps from the last sane mid 1.14');
    // A genuine move the venue's mark confirms is sane, and becomes the new last sane mid.
    expect(byLast.update(12_000, 12_002, 12_001, null, 2)).toBe('sane');
    expect(byLast.lastSaneMidTicks).toBe(12_001);
  });

  it('the reference price is the mark, else the index, else the last sane mid', () => {
    const s = fresh();
    expect(s.referenceTicks(null, null)).toBeNull();
    s.update(11_399, 11_401, null, null, 0);
    expect(s.referenceTicks(null, null)).toBe(11_400);
    expect(s.referenceTicks(null, 11_390.5)).toBe(11_390.5);
    expect(s.referenceTicks(11_380, 11_390.5)).toBe(11_380);
    expect(s.referenceTicks(0, null)).toBe(11_400); // a zero mark is no anchor
  });

  it('0 turns a check off', () => {
    const s = fresh({ crossedBookMs: 0, maxMidDeviationBps: 0 });
    expect(s.update(11_500, 11_300, 11_400, null, 0)).toBeNull();
    expect(s.crossedPending).toBe(false);
    expect(s.update(11_500, 11_300, 11_400, null, 60_000)).toBeNull();
    expect(s.update(1, 2, 11_400, null, 60_001)).toBeNull();
    expect(s.update(0, 2, 11_400, null, 60_002)).toBe('suspect');
  });
});
