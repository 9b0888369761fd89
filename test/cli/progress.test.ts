import { describe, expect, it } from 'vitest';
import { drawWidth, progressBar, tenthsLog } from '../../src/cli/progress.ts';

describe('progress lines without a terminal', () => {
  it('a line per tenth; a resumed run starts past what was done and paces its ETA on its own work', () => {
    const fresh = tenthsLog(100, 0, 0);
    expect(fresh(5, 5, 1_000)).toBeNull();
    expect(fresh(10, 10, 2_000)).toBe('  10/100 ETA 18s'); // 0.2 s a job × 90 left
    expect(fresh(15, 15, 3_000)).toBeNull();
    expect(fresh(100, 100, 20_000)).toBe('  100/100');
    // 42 of 100 came from the journal: the first result is not a tenth reached, and the ETA is paced
    // on this session's jobs only (before: a line at 43 extrapolating start-up over 57 jobs).
    const resumed = tenthsLog(100, 42, 0);
    expect(resumed(43, 1, 1_500)).toBeNull();
    expect(resumed(50, 8, 2_000)).toBe('  50/100 ETA 13s'); // 0.25 s a job × 50 left
  });
});

/** A stream that claims to be a terminal, with the columns a pty reports, keeping what is written. */
function fakeTerminal(columns: number | undefined, write: (s: string) => void = () => {}): NodeJS.WriteStream {
  return { isTTY: true, columns, write: (s: string) => (write(s), true) } as unknown as NodeJS.WriteStream;
}

describe('the progress bar never fails the run it shows', () => {
  it('a terminal that reports 0 columns (a pty under script -qec) draws at 120 and clears without a RangeError', () => {
    const out: string[] = [];
    const bar = progressBar('import', fakeTerminal(0, (s) => out.push(s)));
    bar.update(5, 10, 'rows');
    expect(() => bar.end()).not.toThrow(); // before: ' '.repeat(-1) threw "Invalid count value: -1"
    expect(out[0]).toContain(' 50%');
    expect(out[0]!.length).toBe(1 + 119);
    expect(out.at(-1)).toBe(`\r${' '.repeat(119)}\r`);
  });

  it('a stream whose write throws switches the bar off instead of throwing', () => {
    let calls = 0;
    const bar = progressBar('import', fakeTerminal(80, () => {
      calls++;
      throw new Error('EIO');
    }));
    expect(() => bar.update(1, 2)).not.toThrow();
    expect(() => bar.update(2, 2)).not.toThrow();
    expect(() => bar.end()).not.toThrow();
    expect(calls).toBe(1);
  });

  it('widths: a real terminal is used up to 120 columns; 0, NaN and absurdly narrow fall back to 120', () => {
    expect(drawWidth(80)).toBe(80);
    expect(drawWidth(300)).toBe(120);
    expect(drawWidth(0)).toBe(120);
    expect(drawWidth(Number.NaN)).toBe(120);
    expect(drawWidth(undefined)).toBe(120);
  });
});
