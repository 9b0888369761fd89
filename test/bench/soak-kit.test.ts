import { describe, expect, it } from 'vitest';
import { linearSlope, parseProcStatus, residentMb } from './soak-kit.ts';

describe('soak-kit', () => {
  it('reads VmRSS and RssAnon from /proc/<pid>/status text', () => {
    const text = 'Name:\tnode\nVmPeak:\t 1234567 kB\nVmRSS:\t  143360 kB\nRssAnon:\t   97280 kB\nRssFile:\t   46080 kB\n';
    expect(parseProcStatus(text)).toEqual({ rss: 140, anon: 95 });
  });

  it('leaves anon unknown when the kernel does not report RssAnon, and fails without VmRSS', () => {
    expect(parseProcStatus('VmRSS:\t2048 kB\n')).toEqual({ rss: 2, anon: null });
    expect(parseProcStatus('Name:\tzombie\n')).toBeNull();
  });

  it('reads its own resident memory and null for a process that does not exist', () => {
    const own = residentMb(process.pid);
    expect(own?.rss).toBeGreaterThan(0);
    expect(residentMb(2 ** 22 + 12_345)).toBeNull();
  });

  it('fits a least-squares slope', () => {
    expect(linearSlope([0, 1, 2, 3], [1, 3, 5, 7])).toBeCloseTo(2, 12);
    expect(linearSlope([0, 1, 2, 3], [5, 4, 6, 5])).toBeCloseTo(0.2, 12);
    expect(linearSlope([1], [1])).toBe(0);
    expect(linearSlope([2, 2], [1, 9])).toBe(0);
  });
});
