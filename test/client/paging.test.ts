import { describe, expect, it } from 'vitest';
import { collect, cursorPaged, offsetPaged } from '../../src/client/paging.ts';

describe('offsetPaged', () => {
  it('walks every page up to total_count', async () => {
    const data = Array.from({ length: 23 }, (_, i) => i);
    const calls: [number, number][] = [];
    const all = await collect(
      offsetPaged(async (offset, limit) => {
        calls.push([offset, limit]);
        return { items: data.slice(offset, offset + limit), totalCount: data.length };
      }, 10),
    );
    expect(all).toEqual(data);
    expect(calls).toEqual([
      [0, 10],
      [10, 10],
      [20, 10],
    ]);
  });

  it('stops on an empty page even when total_count lies', async () => {
    let n = 0;
    const all = await collect(offsetPaged(async (offset) => (n++, { items: offset < 10 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [], totalCount: 1_000 }), 10));
    expect(all).toHaveLength(10);
    expect(n).toBe(2);
  });
});

describe('cursorPaged', () => {
  it('follows next_cursor until it is absent', async () => {
    const pages: Record<string, { items: string[]; nextCursor?: string | null }> = {
      start: { items: ['a', 'b'], nextCursor: 'c1' },
      c1: { items: ['c'], nextCursor: 'c2' },
      c2: { items: ['d'], nextCursor: null },
    };
    const seen: (string | undefined)[] = [];
    const all = await collect(
      cursorPaged(async (cursor) => {
        seen.push(cursor);
        return pages[cursor ?? 'start']!;
      }),
    );
    expect(all).toEqual(['a', 'b', 'c', 'd']);
    expect(seen).toEqual([undefined, 'c1', 'c2']);
  });

  it('stops when the venue repeats a cursor', async () => {
    let n = 0;
    const all = await collect(cursorPaged(async () => (n++, { items: [n], nextCursor: 'same' })));
    expect(all).toEqual([1, 2]);
  });
});
