import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { AfterHotPath } from '../../src/obs/after-hot-path.ts';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('AfterHotPath', () => {
  it('runs watchers after the emitting callback, behind a subscriber that came later (the engine)', async () => {
    const src = new Subject<number>();
    const later = new AfterHotPath();
    const seen: string[] = [];
    later.defer(src).subscribe((v) => seen.push(`watcher ${v}`)); // subscribed first, as monitoring is
    src.subscribe((v) => seen.push(`engine ${v}`));
    src.next(1);
    src.next(2);
    expect(seen).toEqual(['engine 1', 'engine 2']);
    await turn();
    expect(seen).toEqual(['engine 1', 'engine 2', 'watcher 1', 'watcher 2']);
  });

  it('keeps the order of values across the streams it defers (a fill after the book it follows)', async () => {
    const books = new Subject<string>();
    const fills = new Subject<string>();
    const later = new AfterHotPath();
    const seen: string[] = [];
    later.defer(books).subscribe((v) => seen.push(v));
    later.defer(fills).subscribe((v) => seen.push(v));
    books.next('book 1');
    fills.next('fill 1');
    books.next('book 2');
    await turn();
    expect(seen).toEqual(['book 1', 'fill 1', 'book 2']);
  });

  it('flushNow delivers what is queued at once (a scrape sees the latest values); errors and completion queue behind values', async () => {
    const src = new Subject<number>();
    const later = new AfterHotPath();
    const seen: string[] = [];
    later.defer(src).subscribe({ next: (v) => seen.push(`v${v}`), error: (e: Error) => seen.push(`error ${e.message}`) });
    src.next(1);
    later.flushNow();
    expect(seen).toEqual(['v1']);
    src.next(2);
    src.error(new Error('gone'));
    expect(seen).toEqual(['v1']);
    await turn();
    expect(seen).toEqual(['v1', 'v2', 'error gone']);
  });

  it('delivers nothing after unsubscribe, even what was queued before it', async () => {
    const src = new Subject<number>();
    const later = new AfterHotPath();
    const seen: number[] = [];
    const sub = later.defer(src).subscribe((v) => seen.push(v));
    src.next(1);
    sub.unsubscribe();
    await turn();
    expect(seen).toEqual([]);
  });
});
