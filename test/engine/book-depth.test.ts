import { describe, expect, it } from 'vitest';
import { sameTopLevels } from '../../src/domain/index.ts';
import { EURUSD, ScriptedStrategy, harness, l2Book as book, quotes } from './harness.ts';

class TouchStrategy extends ScriptedStrategy {
  readonly bookDepth = 1;
}

describe('strategy bookDepth', () => {
  it('a book update below the levels the strategy reads updates the book without calling it', async () => {
    const s = new TouchStrategy();
    s.next = quotes(EURUSD, 10_990, 11_010);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    const t = h.clock.nowMs();
    h.market$.next(book(t, [[11_000, 5], [10_999, 5]], [[11_002, 5], [11_003, 5]]));
    await h.settle();
    const n = s.calls;
    h.market$.next(book(t, [[11_000, 5], [10_999, 9]], [[11_002, 5]])); // deeper levels only
    await h.settle();
    expect(s.calls).toBe(n);
    expect(h.engine.snapshot().symbols[0]!.working).toHaveLength(2);
    h.market$.next(book(t, [[11_000, 6]], [[11_002, 5]])); // touch size
    await h.settle();
    expect(s.calls).toBe(n + 1);
  });

  it('without bookDepth every book update calls the strategy', async () => {
    const s = new ScriptedStrategy();
    s.next = quotes(EURUSD, 10_990, 11_010);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    const t = h.clock.nowMs();
    h.market$.next(book(t, [[11_000, 5], [10_999, 5]], [[11_002, 5]]));
    await h.settle();
    const n = s.calls;
    h.market$.next(book(t, [[11_000, 5], [10_999, 9]], [[11_002, 5]]));
    await h.settle();
    expect(s.calls).toBe(n + 1);
  });

  it('a bookDepth that is not a positive integer is a config error naming the strategy', async () => {
    const s = Object.assign(new ScriptedStrategy(), { bookDepth: 0 });
    await expect(harness([{ id: 'bad-one', symbol: EURUSD, strategy: s }])).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('bad-one') });
  });

  it('sameTopLevels compares prices and sizes of the first n levels of both sides', () => {
    const a = book(0, [[10, 1], [9, 1]], [[12, 1]]);
    expect(sameTopLevels(a, book(0, [[10, 1], [8, 4]], [[12, 1], [13, 1]]), 1)).toBe(true);
    expect(sameTopLevels(a, book(0, [[10, 1], [8, 4]], [[12, 1]]), 2)).toBe(false);
    expect(sameTopLevels(a, book(0, [[10, 2]], [[12, 1]]), 1)).toBe(false);
    expect(sameTopLevels(a, book(0, [], [[12, 1]]), 1)).toBe(false);
    expect(sameTopLevels(a, a, 5)).toBe(true);
  });
});
