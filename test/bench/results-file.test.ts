import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { machineInfo, mergeResults, replaceBench, type MachineInfo } from './results-file.ts';
import { linearSlope } from './soak-kit.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const M: MachineInfo = { cpu: 'AMD EPYC 7B13', cores: 2, load_avg_at_start: [8.5, 7.25, 6], node: 'v20.20.2', started_at: '2026-11-27T12:00:00.000Z' };

describe('bench results file', () => {
  it('a failed bench leaves none of its old figures; other benches keep theirs', () => {
    const prev = {
      'wire.a': { value: 1, unit: 'us', bench: 'wire' },
      'wire.b': { value: 2, unit: 'us', bench: 'wire' },
      'sim.x': { value: 3, unit: 'ops', bench: 'sim' },
    };
    expect(replaceBench(prev, 'wire', null, M)).toEqual({ 'sim.x': prev['sim.x'] });
  });

  it('a bench that ran replaces all of its figures, dropping ones it no longer reports', () => {
    const prev = { 'wire.a': { value: 1, unit: 'us', bench: 'wire' }, 'wire.gone': { value: 9, unit: 'us', bench: 'wire' } };
    expect(replaceBench(prev, 'wire', { 'wire.a': { value: 5, unit: 'us' } }, M)).toEqual({ 'wire.a': { value: 5, unit: 'us', target: null, bench: 'wire', machine: M } });
  });

  it('merges into the file on disk (untagged legacy entries of the same name are replaced)', () => {
    const d = mkdtempSync(join(tmpdir(), 'results-'));
    dirs.push(d);
    const f = join(d, 'results.json');
    writeFileSync(f, JSON.stringify({ 'soak.daemon.rss_mb_end': { value: 1, unit: 'MB' }, 'engine.t': { value: 2, unit: 'us', bench: 'engine' } }));
    mergeResults(f, 'soak', { 'soak.daemon.rss_mb_end': { value: 80, unit: 'MB', target: '< 100' } }, M);
    expect(JSON.parse(readFileSync(f, 'utf8'))).toEqual({
      'engine.t': { value: 2, unit: 'us', bench: 'engine' },
      'soak.daemon.rss_mb_end': { value: 80, unit: 'MB', target: '< 100', bench: 'soak', machine: M },
    });
  });

  it('stores each figure with its target and the machine its bench started on', () => {
    const fresh = { 'backtest.amzn_day_events_per_s': { value: 56954.4321, unit: 'events/s', target: '>= 1000000' }, 'backtest.amzn_day_fills': { value: 223, unit: 'fills', target: '' } };
    expect(replaceBench({}, 'amzn-day', fresh, M)).toEqual({
      'backtest.amzn_day_events_per_s': { value: 56954.4, unit: 'events/s', target: '>= 1000000', bench: 'amzn-day', machine: M },
      'backtest.amzn_day_fills': { value: 223, unit: 'fills', target: null, bench: 'amzn-day', machine: M },
    });
  });

  it('machineInfo reads this machine: CPU model, cores, load average to 2 decimals', () => {
    const m = machineInfo(new Date(Date.UTC(2026, 10, 27, 12)));
    expect(m.cores).toBe(cpus().length);
    expect(m.cpu).toBe(cpus()[0]!.model.trim());
    expect(m.node).toBe(process.version);
    expect(m.started_at).toBe('2026-11-27T12:00:00.000Z');
    expect(m.load_avg_at_start).toHaveLength(3);
    for (const x of m.load_avg_at_start) expect(Number(x.toFixed(2))).toBe(x);
  });

  it('linearSlope fits a line', () => {
    expect(linearSlope([0, 1, 2, 3], [1, 3, 5, 7])).toBeCloseTo(2);
    expect(linearSlope([1], [1])).toBe(0);
  });
});
