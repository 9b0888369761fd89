import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { badFrameKind, logBadFrames } from '../../src/app/live/bad-frames.ts';
import { MmError } from '../../src/core/errors.ts';

const skipped = (path: string, msg: string): MmError => new MmError('DECODE_FAILED', `market-data frame skipped: ${path}: ${msg}`, { path, frame: '{}' });

describe('bad frames', () => {
  it('folds array indices and the offending value out of the kind', () => {
    expect(badFrameKind(skipped('$.b[3].p', '$.b[3].p: expected decimal string, got "x"'))).toBe('$.b[].p: expected decimal string');
    expect(badFrameKind(skipped('$', '$: expected valid JSON, got "Unexpected end of JSON input"'))).toBe('$: expected valid JSON');
  });

  it('counts every bad frame, logs each kind once, and logs refusals without counting them', () => {
    const warns: string[] = [];
    const log = { warn: (_o: unknown, m: string) => void warns.push(m) } as never;
    const errors$ = new Subject<MmError>();
    const sub = logBadFrames(errors$, 'market-data stream', log);
    for (let i = 0; i < 5; i++) errors$.next(skipped(`$.b[${i}].p`, `$.b[${i}].p: expected decimal string, got "${i}"`));
    errors$.next(skipped('$', '$: expected valid JSON, got "x"'));
    errors$.next(new MmError('NOT_FOUND', 'subscribe EURUSD-PERP refused: unknown symbol', {}));
    expect(sub.tally().total).toBe(6);
    expect([...sub.tally().byKind.values()]).toEqual([5, 1]);
    expect(warns).toHaveLength(3);
    expect(warns[2]).toContain('refused');
    sub.unsubscribe();
  });
});
