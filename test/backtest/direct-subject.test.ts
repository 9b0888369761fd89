import { describe, expect, it } from 'vitest';
import { DirectSubject } from '../../src/backtest/direct-subject.ts';

describe('DirectSubject', () => {
  it('delivers each value to every subscriber in subscription order, synchronously', () => {
    const s = new DirectSubject<number>();
    const seen: string[] = [];
    s.observable.subscribe((v) => seen.push(`a${v}`));
    s.next(1);
    s.observable.subscribe((v) => seen.push(`b${v}`));
    s.next(2);
    expect(seen).toEqual(['a1', 'a2', 'b2']);
  });

  it('lets a subscriber leave during delivery without skipping the others', () => {
    const s = new DirectSubject<number>();
    const seen: string[] = [];
    const first = s.observable.subscribe((v) => {
      seen.push(`a${v}`);
      first.unsubscribe();
    });
    s.observable.subscribe((v) => seen.push(`b${v}`));
    s.next(1);
    s.next(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
  });

  it('ends subscriptions on complete and error, and ends late subscribers at once', () => {
    const done = new DirectSubject<number>();
    const log: string[] = [];
    done.observable.subscribe({ next: (v) => log.push(`v${v}`), complete: () => log.push('complete') });
    done.next(1);
    done.complete();
    done.next(2);
    done.observable.subscribe({ complete: () => log.push('late complete') });
    expect(log).toEqual(['v1', 'complete', 'late complete']);

    const failed = new DirectSubject<number>();
    const errors: unknown[] = [];
    failed.observable.subscribe({ error: (e: unknown) => errors.push(e) });
    failed.error('boom');
    failed.observable.subscribe({ error: (e: unknown) => errors.push(`late ${String(e)}`) });
    expect(errors).toEqual(['boom', 'late boom']);
  });
});
