import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { command } from '../../src/cli/commands/backtest.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DATA = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-ensemble-'));
const out = process.stdout.write.bind(process.stdout);

/** config/backtest.yaml with its backtest section changed (data passed with --data). */
function config(name: string, backtest: Record<string, unknown>, params: Record<string, unknown> = {}): string {
  const doc = parse(readFileSync(join(ROOT, 'config/backtest.yaml'), 'utf8')) as { backtest: Record<string, unknown>; bot: { strategies: { params: Record<string, unknown> }[] } };
  delete doc.backtest['data'];
  Object.assign(doc.backtest, backtest);
  Object.assign(doc.bot.strategies[0]!.params, params);
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}

async function run(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  process.stdout.write = ((s: string) => ((stdout += s), true)) as typeof process.stdout.write;
  try {
    return { code: await command.run(args), stdout };
  } finally {
    process.stdout.write = out;
  }
}

const ALL_OFF = { ensemble: { order_latency: { enabled: false }, feed_jitter: { enabled: false }, start_offset: { enabled: false }, queue_model: { enabled: false }, reaction: { enabled: false } } };
const json = (folder: string): Record<string, any> => JSON.parse(readFileSync(join(folder, 'ensemble.json'), 'utf8'));

afterAll(() => {
  process.stdout.write = out;
});

describe('mmbot backtest --ensemble', () => {
  it('a draw with every perturbation off reproduces the plain backtest exactly', async () => {
    const cfg = config('off', ALL_OFF);
    expect((await run(['--config', cfg, '--data', DATA, '--out', join(dir, 'plain'), '--quiet'])).code).toBe(0);
    const plain = JSON.parse(readFileSync(join(dir, 'plain/report.json'), 'utf8'));
    expect((await run(['--config', cfg, '--data', DATA, '--ensemble', '2', '--jobs', '1', '--out', join(dir, 'off'), '--quiet'])).code).toBe(0);
    const e = json(join(dir, 'off'));
    expect(e['summary'].runs).toBe(2);
    for (const r of e['runs']) {
      expect(r.draw).toMatchObject({ seed: 1, latency_scale: null, feed_jitter_ms: null, start_offset_min: null, queue_model: null, reaction_probability: null });
      expect(r.net_usd).toBe(Math.round(Number(plain.total.pnl.net) * 1e6) / 1e6);
      expect(r.fills).toBe(plain.total.fills.count);
      expect(r.notional_usd).toBe(Math.round(Number(plain.total.fills.notional_usd) * 1e6) / 1e6);
    }
    expect(plain.total.fills.count).toBe(1304); // the sample's plain run, as the ensemble draws reproduce it
    expect(e['summary'].net_usd.sd).toBe(0);
  }, 120_000);

  it('the same seed gives the same ensemble.json, on this thread or on worker threads; another seed other draws', async () => {
    const cfg = config('on', {});
    const a = await run(['--config', cfg, '--data', DATA, '--ensemble', '3', '--seed', '5', '--jobs', '1', '--out', join(dir, 'a')]);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/net USD median -?\d+\.\d\d \[p5 -?\d+\.\d\d, p95 -?\d+\.\d\d\]; P\(net > 0\) \d+ %/);
    await run(['--config', cfg, '--data', DATA, '--ensemble', '3', '--seed', '5', '--jobs', '2', '--out', join(dir, 'b'), '--quiet']);
    await run(['--config', cfg, '--data', DATA, '--ensemble', '3', '--seed', '6', '--jobs', '1', '--out', join(dir, 'c'), '--quiet']);
    const text = (f: string): string => readFileSync(join(dir, f, 'ensemble.json'), 'utf8');
    expect(text('b')).toBe(text('a'));
    expect(text('c')).not.toBe(text('a'));
    const e = json(join(dir, 'a'));
    // Every perturbation drawn (level data: the queue model too), and the draws differ in their figures.
    for (const r of e['runs']) for (const k of ['latency_scale', 'feed_jitter_ms', 'start_offset_min', 'queue_model', 'reaction_probability']) expect(r.draw[k]).not.toBeNull();
    expect(new Set(e['runs'].map((r: { net_usd: number }) => r.net_usd)).size).toBe(3);
    expect(readFileSync(join(dir, 'a/ensemble.html'), 'utf8')).toContain('Draws sorted by net');
  }, 240_000);

  it('--vs runs the second config on the same draws: paired differences and P(better)', async () => {
    const a = config('wide', {}, { halfSpreadTicks: 3 });
    const b = config('tight', {});
    const r = await run(['--config', a, '--vs', b, '--data', DATA, '--ensemble', '3', '--jobs', '1', '--out', join(dir, 'vs')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/paired \(3 draws\): P\(better\) \d+ %/);
    const e = json(join(dir, 'vs'));
    expect(e['vs'].runs.map((x: { draw: unknown }) => x.draw)).toEqual(e['runs'].map((x: { draw: unknown }) => x.draw));
    const diffs = e['runs'].map((x: { net_usd: number }, k: number) => x.net_usd - e['vs'].runs[k].net_usd);
    expect(e['paired'].p_better).toBeCloseTo(diffs.filter((d: number) => d > 0).length / 3, 6);
    expect(e['paired'].diff_net_usd.p50).toBeCloseTo([...diffs].sort((x, y) => x - y)[1], 5);
  }, 240_000);

  it('backtest.reaction in a single run: with competitors answering our improving quotes the fills of the sample fall from 1,304 to 1,093, and report.json says it was on', async () => {
    const cfg = config('reaction', { reaction: { enabled: true } });
    expect((await run(['--config', cfg, '--data', DATA, '--out', join(dir, 'reaction'), '--quiet'])).code).toBe(0);
    const r = JSON.parse(readFileSync(join(dir, 'reaction/report.json'), 'utf8'));
    expect(r.total.fills.count).toBe(1093);
    expect(r.settings.reaction).toEqual({ probability: 0.79, delay_ms: { median_ms: 30, sigma: 3.5 }, size: 100 });
  }, 120_000);

  it('flags of the ensemble without --ensemble are refused', async () => {
    await expect(command.run(['--config', config('x', {}), '--seed', '2'])).rejects.toThrow('--seed belongs to --ensemble <N>');
  });
});
