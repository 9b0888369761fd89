import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/backtest/settings.ts';
import type { SweepRow } from '../../src/backtest/sweep.ts';
import { command as backtest } from '../../src/cli/commands/backtest.ts';
import { command as sweep } from '../../src/cli/commands/sweep.ts';
import { ensembleSchema } from '../../src/domain/backtest-section.ts';
import { ensembleObjectiveRunner, ensembleRow, parseEnsembleObjective, withEnsembleId } from '../../src/research/ensemble-objective.ts';
import { makeJob, type JobResult } from '../../src/research/job.ts';
import type { JobRunner } from '../../src/research/runner.ts';
import { loadSearchFile } from '../../src/research/search-file.ts';

const row = (net: number, maxDrawdown: number): SweepRow => ({ index: 0, point: [], net, netWithRewards: net, sharpe: NaN, maxDrawdown, fills: 1, makerShare: 1, uptimeTwoSided: 1, insideRewardSpread: 0, markout60sBps: NaN, error: null });

describe('ensemble objective (grid file ensemble:)', () => {
  it('parses draws, statistic (default p5) and seed; bad values name the file and key', () => {
    expect(parseEnsembleObjective({ draws: 8 }, 'g.yaml')).toEqual({ draws: 8, statistic: 'p5', seed: 1 });
    expect(() => parseEnsembleObjective({ draws: 1 }, 'g.yaml')).toThrow('g.yaml: ensemble.draws: expected an integer in [2, 1000]');
    expect(() => parseEnsembleObjective({ draws: 4, statistic: 'p99' }, 'g.yaml')).toThrow('g.yaml: ensemble.statistic: expected one of p5, p25, p50, mean');
  });

  it('scores the draws pessimistically: p5 of net, p95 of the drawdown; a failed draw fails the run', () => {
    const rows = Array.from({ length: 21 }, (_, k) => row(k - 10, k * 2)); // net −10..10, drawdown 0..40
    const r = ensembleRow(rows, 'p5');
    expect(r.net).toBe(-9);
    expect(r.maxDrawdown).toBe(38);
    expect(ensembleRow(rows, 'mean').net).toBe(0);
    expect(ensembleRow([...rows, { ...row(0, 0), error: 'boom' }], 'p50').error).toBe('boom');
  });

  it('runs each job as its draws on the inner runner, the same draws for every point, under the job\'s own id', async () => {
    const seen: string[][] = [];
    const inner: JobRunner = {
      async run(jobs) {
        seen.push(jobs.map((j) => j.id));
        // net = the draw's start offset in minutes (from settings.startMs): a figure the draws move.
        return new Map(jobs.map((j) => [j.id, { jobId: j.id, windowId: j.window.id, row: row((j.spec.settings.startMs ?? 0) / 60_000, 1), durationS: 1, transient: false } satisfies JobResult]));
      },
      close: async () => undefined,
    };
    const perturbations = ensembleSchema.parse({});
    const ens = { draws: 5, statistic: 'p50' as const, seed: 3 };
    const spec = { strategies: [], risk: {} as never, execution: {} as never, orderManager: {} as never, engineFees: null, settings: defaultSettings(), stopTimeoutMs: 5000 };
    const job = (i: number) => withEnsembleId(makeJob({ index: i, point: [['x', i]], window: { id: 'all', startMs: null, endMs: null }, data: ['d'], fingerprints: ['f'], spec, codeVersion: 'v' }), ens, perturbations);
    const ctx = { dataStartMs: 0, windowMinutes: 60, orderLevel: false, recordedLatency: false, reaction: { probability: 0.79, delayMedianMs: 30, delaySigma: 3.5, size: 100 } };
    const out = await ensembleObjectiveRunner(inner, ens, perturbations, () => ctx).run([job(0), job(1)]);
    expect(seen[0]).toHaveLength(10);
    expect(new Set(seen[0]).size).toBe(10); // a draw's job id includes its point
    const a = out.get(job(0).id)!;
    expect(a.row.point).toEqual([['x', 0]]);
    expect(a.row.net).toBe(out.get(job(1).id)!.row.net);
    expect(a.row.net).toBeGreaterThan(0);
    expect(a.row.net).toBeLessThanOrEqual(15);
    expect(job(0).id).not.toBe(makeJob({ index: 0, point: [['x', 0]], window: { id: 'all', startMs: null, endMs: null }, data: ['d'], fingerprints: ['f'], spec, codeVersion: 'v' }).id);
  });

  it('mmbot sweep with ensemble: {draws: 3, statistic: p50} ranks by the median the ensemble command reports for the same config and seed', async () => {
    const ROOT = resolve(import.meta.dirname, '../..');
    const dir = mkdtempSync(join(tmpdir(), 'mmbot-ensemble-sweep-'));
    const grid = join(dir, 'grid.yaml');
    writeFileSync(grid, 'grid:\n  bot.strategies.0.params.halfSpreadTicks: [1, 3]\nobjective: net\nensemble: { draws: 3, statistic: p50 }\n');
    expect(loadSearchFile(grid).ensemble).toEqual({ draws: 3, statistic: 'p50', seed: 1 });
    const config = join(ROOT, 'config/backtest.yaml');
    const quiet = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    const err = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expect(await sweep.run(['--config', config, '--grid', grid, '--workers', '1', '--out', join(dir, 'sweep')])).toBe(0);
      expect(await backtest.run(['--config', config, '--ensemble', '3', '--jobs', '1', '--out', join(dir, 'ens'), '--quiet'])).toBe(0);
    } finally {
      process.stdout.write = quiet;
      process.stderr.write = err;
    }
    const lb = JSON.parse(readFileSync(join(dir, 'sweep/leaderboard.json'), 'utf8')) as { entries: { params: Record<string, unknown>; net_usd: number }[] };
    const e = JSON.parse(readFileSync(join(dir, 'ens/ensemble.json'), 'utf8')) as { summary: { net_usd: { p50: number } } };
    const one = lb.entries.find((x) => x.params['bot.strategies.0.params.halfSpreadTicks'] === 1)!;
    expect(one.net_usd).toBeCloseTo(e.summary.net_usd.p50, 5);
    expect(one.net_usd).toBeCloseTo(18.551743, 5); // the median of the three draws, not the plain run's net
  }, 300_000);
});
