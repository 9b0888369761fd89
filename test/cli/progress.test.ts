import { describe, expect, it } from 'vitest';
import { tenthsLog } from '../../src/cli/progress.ts';

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
