import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expandGrid, rankRows, sweepCsv, type SweepRow } from '../../src/backtest/sweep.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-sweep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (index: number, net: number, error: string | null = null): SweepRow => ({
  index, point: [['a', index]], net, netWithRewards: net, sharpe: 0, maxDrawdown: 0, fills: 0, makerShare: 0, uptimeTwoSided: 0, insideRewardSpread: 0, markout60sBps: net / 10, error,
});

describe('sweep grid and ranking', () => {
  it('expands the cartesian product, first axis slowest', () => {
    const pts = expandGrid([{ path: 'x', values: [1, 2] }, { path: 'y', values: ['a', 'b', 'c'] }]);
    expect(pts).toHaveLength(6);
    expect(pts[0]).toEqual([['x', 1], ['y', 'a']]);
    expect(pts[5]).toEqual([['x', 2], ['y', 'c']]);
  });

  it('ranks best first, ties in grid order, failures last; CSV has one column per axis', () => {
    const ranked = rankRows([row(0, 1), row(1, 5), row(2, 5), row(3, 9, 'boom')], 'net');
    expect(ranked.map((r) => r.index)).toEqual([1, 2, 0, 3]);
    const csv = sweepCsv(ranked).trim().split('\n');
    expect(csv[0]).toBe('rank,a,net_usd,net_with_rewards_usd,sharpe,max_drawdown_usd,fills,maker_share,uptime_two_sided,inside_reward_spread,markout_60s_bps,error');
    expect(csv[1]!.startsWith('1,1,5.000000')).toBe(true);
    expect(csv[4]!.endsWith(',boom')).toBe(true);
  });

  it('ranks by the 60 s markout, runs without a matured fill after every figure', () => {
    const rows = [row(0, -20), row(1, 10), { ...row(2, 50), markout60sBps: NaN }, row(3, 0)];
    expect(rankRows(rows, 'markout_60s').map((r) => r.index)).toEqual([1, 3, 0, 2]);
    expect(sweepCsv(rankRows(rows, 'markout_60s')).trim().split('\n').map((l) => l.split(',').at(-2))).toEqual(['markout_60s_bps', '1.0000', '0.0000', '-2.0000', '']);
  });
});

describe('backtest config loading', () => {
  it('applies grid overrides to the daemon format + backtest section and validates both', async () => {
    const s = await loadBacktestSetup(join(ROOT, 'config/backtest.yaml'), [['bot.strategies.0.params.halfSpreadTicks', 3], ['backtest.queue_model.kind', 'power3']]);
    expect(s.spec.strategies[0]!.params['halfSpreadTicks']).toBe(3);
    expect(s.spec.settings.queueModel.kind).toBe('power3');
    expect(s.dataPaths[0]).toBe(join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz'));
    await expect(loadBacktestSetup(join(ROOT, 'config/backtest.yaml'), [['backtest.queue_model.kind', 'magic']])).rejects.toThrow(/backtest\.queue_model\.kind/);
    await expect(loadBacktestSetup(join(ROOT, 'config/backtest.yaml'), [['backtest.order_latency.entry', -1]])).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    await expect(loadBacktestSetup(join(ROOT, 'config/backtest.yaml'), [['bot.strategies.0.params.size', 'big']])).rejects.toThrow(/bot\.strategies\[0\]\.params\.size|params\.size/);
  });
});
