import { describe, expect, it } from 'vitest';
import { formatSeedTable, parseSeeds, spreadOf, summarize, type SeededRow } from './seeds.ts';

/** A fake benchmark row: only the figures the aggregation reads matter. */
function row(seed: number, strategy: string, netUsd: number, pnlOverDrawdown: number, p95AbsInventory: number, over: Partial<SeededRow> = {}): SeededRow {
  return {
    seed,
    preset: 'toxic',
    strategy,
    symbol: 'XAU-PERP',
    netUsd,
    maxDrawdownUsd: 100,
    pnlOverDrawdown,
    p95AbsInventory,
    fills: 10 * seed,
    markout1sBps: null,
    markout10sBps: null,
    markout60sBps: null,
    rewardShare: 0,
    hedgeCostUsd: null,
    inBandShare: null,
    ...over,
  };
}

describe('parseSeeds', () => {
  it('reads a count as consecutive seeds from --seed, and a list as given', () => {
    expect(parseSeeds('3', 11)).toEqual([11, 12, 13]);
    expect(parseSeeds('1', 7)).toEqual([7]);
    expect(parseSeeds('11,12,13', 0)).toEqual([11, 12, 13]);
    expect(parseSeeds('5,3,5', 0)).toEqual([5, 3]);
    expect(parseSeeds('42,', 0)).toEqual([42]);
  });

  it('refuses what is neither, naming the value', () => {
    for (const bad of ['', '0', 'a', '1.5', '3,x', '-2', '2147483648,1']) expect(() => parseSeeds(bad, 11), bad).toThrow(/--seeds .*got/);
  });
});

describe('spreadOf', () => {
  it('gives the mean, the sample standard deviation (n - 1), min and max', () => {
    const s = spreadOf([2, 4, 4, 4, 5, 5, 7, 9])!;
    expect(s.mean).toBe(5);
    expect(s.sd).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect([s.min, s.max]).toEqual([2, 9]);
  });

  it('has no SD for one sample and no spread for none or a non-finite one', () => {
    expect(spreadOf([3])).toEqual({ mean: 3, sd: null, min: 3, max: 3 });
    expect(spreadOf([])).toBeNull();
    expect(spreadOf([1, Number.NaN])).toBeNull();
  });
});

describe('summarize', () => {
  const rows: SeededRow[] = [
    row(11, 'fixed-spread', -600, -0.9, 15),
    row(11, 'glft', -300, -0.8, 5),
    row(12, 'fixed-spread', 400, 2, 12),
    row(12, 'glft', 100, 3, 12),
    row(13, 'fixed-spread', -100, -0.5, 14),
    row(13, 'glft', 50, 0.5, 4),
  ];

  it('averages each (preset, strategy, symbol) over its seeds', () => {
    const [fs, glft] = summarize(rows);
    expect(fs!.strategy).toBe('fixed-spread');
    expect(fs!.seeds).toEqual([11, 12, 13]);
    expect(fs!.netUsd!.mean).toBeCloseTo(-100, 12);
    expect(fs!.netUsd!.sd).toBeCloseTo(500, 12);
    expect(glft!.netUsd!.mean).toBeCloseTo(-50, 12);
    expect(glft!.p95AbsInventory!.mean).toBeCloseTo(7, 12);
    expect(glft!.fills!.mean).toBe(120);
  });

  it('counts strict wins against the baseline on the same seed; the baseline has none', () => {
    const [fs, glft] = summarize(rows);
    expect(fs!.beatsPnlOverDrawdown).toBeNull();
    expect(glft!.beatsNetUsd).toEqual({ wins: 2, pairs: 3 });
    expect(glft!.beatsPnlOverDrawdown).toEqual({ wins: 3, pairs: 3 });
    // Lower inventory wins; the tie on seed 12 (12 vs 12) does not.
    expect(glft!.beatsP95AbsInventory).toEqual({ wins: 2, pairs: 3 });
  });

  it('pairs only seeds both ran, and keeps presets, symbols and failures apart', () => {
    const more: SeededRow[] = [
      ...rows.filter((r) => !(r.strategy === 'fixed-spread' && r.seed === 13)),
      row(13, 'fixed-spread', 0, 0, 0, { error: 'backtest crashed' }),
      row(11, 'glft', 1, 1, 1, { preset: 'calm' }),
      row(11, 'fixed-spread', 2, 2, 2, { symbol: 'EURUSD-PERP' }),
      row(11, 'basis', 5, 5, 5, { symbol: 'XAU-2026-DEC+XAU-PERP' }),
    ];
    const out = summarize(more);
    const fs = out.find((s) => s.strategy === 'fixed-spread' && s.symbol === 'XAU-PERP' && s.preset === 'toxic')!;
    expect(fs.seeds).toEqual([11, 12]);
    expect(fs.failedSeeds).toEqual([13]);
    const glft = out.find((s) => s.strategy === 'glft' && s.preset === 'toxic')!;
    expect(glft.beatsPnlOverDrawdown).toEqual({ wins: 2, pairs: 2 });
    // No fixed-spread on calm XAU-PERP, nor on the basis pair: nothing to compare with.
    expect(out.find((s) => s.preset === 'calm')!.beatsNetUsd).toBeNull();
    expect(out.find((s) => s.strategy === 'basis')!.beatsP95AbsInventory).toBeNull();
    expect(out).toHaveLength(5);
  });
});

describe('formatSeedTable', () => {
  it('renders mean ± sd, min … max and k/N per row, with a header that stays one Markdown row', () => {
    const rows: SeededRow[] = [
      row(11, 'fixed-spread', -600, -0.9, 15),
      row(12, 'fixed-spread', 400, 2, 12),
      row(11, 'glft', -300, -0.8, 5),
      row(12, 'glft', 100, 3, 12),
      row(13, 'glft', 0, 0, 0, { error: 'boom' }),
    ];
    const lines = formatSeedTable(summarize(rows)).split('\n');
    expect(lines).toHaveLength(4);
    const cells = (l: string): string[] => l.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    expect(cells(lines[0]!)).toHaveLength(12);
    expect(cells(lines[1]!)).toHaveLength(12);
    expect(cells(lines[2]!)).toEqual(['toxic', 'fixed-spread', 'XAU-PERP', '2', '-100.00 ± 707.11', '-600.00 … 400.00', '0.55 ± 2.05', '14 ± 2', '115', '–', '–', '–']);
    expect(cells(lines[3]!)).toEqual(['toxic', 'glft', 'XAU-PERP', '2 (failed: 13)', '-100.00 ± 282.84', '-300.00 … 100.00', '1.10 ± 2.69', '9 ± 5', '115', '1/2', '2/2', '1/2']);
  });

  it('shows a single seed without a spread', () => {
    const line = formatSeedTable(summarize([row(11, 'glft', -0.001, 1, 3)])).split('\n')[2]!;
    expect(line).toBe('| toxic | glft | XAU-PERP | 1 | 0.00 | 0.00 … 0.00 | 1.00 | 3 | 110 | – | – | – |');
  });
});
