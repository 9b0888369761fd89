import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeResults, replaceBench } from './results-file.ts';
import { linearSlope } from './soak-kit.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('bench results file', () => {
  it('a failed bench leaves none of its old figures; other benches keep theirs', () => {
    const prev = {
      'wire.a': { value: 1, unit: 'us', bench: 'wire' },
      'wire.b': { value: 2, unit: 'us', bench: 'wire' },
      'sim.x': { value: 3, unit: 'ops', bench: 'sim' },
    };
    expect(replaceBench(prev, 'wire', null)).toEqual({ 'sim.x': prev['sim.x'] });
  });

  it('a bench that ran replaces all of its figures, dropping ones it no longer reports', () => {
    const prev = { 'wire.a': { value: 1, unit: 'us', bench: 'wire' }, 'wire.gone': { value: 9, unit: 'us', bench: 'wire' } };
    expect(replaceBench(prev, 'wire', { 'wire.a': { value: 5, unit: 'us' } })).toEqual({ 'wire.a': { value: 5, unit: 'us', bench: 'wire' } });
  });

  it('merges into the file on disk (untagged legacy entries of the same name are replaced)', () => {
    const d = mkdtempSync(join(tmpdir(), 'results-'));
    dirs.push(d);
    const f = join(d, 'results.json');
    writeFileSync(f, JSON.stringify({ 'soak.daemon.rss_mb_end': { value: 1, unit: 'MB' }, 'engine.t': { value: 2, unit: 'us', bench: 'engine' } }));
    mergeResults(f, 'soak', { 'soak.daemon.rss_mb_end': { value: 80, unit: 'MB' } });
    expect(JSON.parse(readFileSync(f, 'utf8'))).toEqual({
      'engine.t': { value: 2, unit: 'us', bench: 'engine' },
      'soak.daemon.rss_mb_end': { value: 80, unit: 'MB', bench: 'soak' },
    });
  });

  it('linearSlope fits a line', () => {
    expect(linearSlope([0, 1, 2, 3], [1, 3, 5, 7])).toBeCloseTo(2);
    expect(linearSlope([1], [1])).toBe(0);
  });
});
