/**
 * parityReport's bookkeeping on a hand-made recording: live fills (x lines) are booked like the
 * replay's (mid of the recorded book just before the fill, the same fee rates and closing mark),
 * divergence is relative to live, markouts read the recorded mid path.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { command } from '../../src/cli/commands/backtest.ts';
import type { BookUpdated } from '../../src/domain/events.ts';
import { MidPath, parityHtml, parityReport, parityTable } from '../../src/backtest/parity.ts';
import { runBacktest } from '../../src/backtest/runner.ts';
import { defaultSettings } from '../../src/backtest/settings.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../src/engine/index.ts';
import { createRecordingWriter, recordingHeader, toColumnar, type OwnExecution, type RecordedEvent } from '../../src/record/index.ts';
import { testInstrument } from '../record/fixtures.ts';
import { oneRestingOrder } from './scripted-engine.ts';

const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
const S = inst.symbol;
const T0 = 1_800_000_000_000;
const book = (t: number, bid: number, ask: number, snapshot = true): BookUpdated => ({
  type: 'book', symbol: S, level: 2, isSnapshot: snapshot, bids: [{ priceTicks: bid, qty: 500 }], asks: [{ priceTicks: ask, qty: 500 }], tsEvent: t, tsRecv: t + 1,
});
const fill = (t: number, side: 'buy' | 'sell', priceTicks: number, qty: number): OwnExecution => ({
  type: 'execution', symbol: S, kind: 'filled', orderId: `O-${t}`, side, priceTicks, qty, fill: { priceTicks, qty, aggressor: false, tradeId: `T-${t}` }, tsEvent: t, tsRecv: t + 2,
});

describe('parity report', () => {
  it('books the live fills with the recorded mid before them and compares with the replay', async () => {
    const events: RecordedEvent[] = [
      book(T0, 11380, 11382, true),
      { type: 'round-trip', symbol: S, op: 'place', ms: 3, ok: true, tsEvent: T0 + 10, tsRecv: T0 + 13 },
      fill(T0 + 50, 'buy', 11380, 100), // mid 11381: +1 tick × 100
      book(T0 + 50, 11379, 11381), // the frame after the fill, same instant: not the mid the fill met
      book(T0 + 500, 11382, 11384),
      fill(T0 + 600, 'sell', 11384, 100), // mid 11383: +1 tick × 100
      book(T0 + 2_000, 11383, 11385),
      book(T0 + 40_000, 11383, 11385),
    ];
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 't', fees: { [S]: { maker: '0.0001', taker: '0.0002' } } }), [inst], events);
    const path = new MidPath(col);
    expect([path.before(0, T0 + 50), path.at(0, T0 + 50), path.at(0, T0 + 1_050)]).toEqual([11381, 11380, 11383]);
    const run = await runBacktest({
      data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
      settings: defaultSettings(), createEngine,
    });
    expect(run.latency).toEqual({ source: 'recorded', roundTrips: 1 });
    expect(run.fees[S]).toEqual({ maker: 0.0001, taker: 0.0002, source: 'recording' });
    const p = parityReport(run, 0.2);
    const unit = 0.0001; // USD per tick × contract
    expect(p.live).toMatchObject({ fills: 2, maker_fills: 2, volume: 200 });
    expect(p.live.spread_capture_usd).toBeCloseTo(2 * 100 * unit, 9);
    expect(p.live.fees_usd).toBeCloseTo((11380 + 11384) * 100 * unit * 0.0001, 9);
    // Flat after the two fills: inventory PnL = trading PnL − spread capture = 4 ticks × 100 − 2 × 100.
    expect(p.live.inventory_pnl_usd).toBeCloseTo(2 * 100 * unit, 9);
    // Markouts (MarkoutTracker, notional-weighted, from the mid at the fill): the buy (mid 11381)
    // sees 11383 after 1 s, the sell (mid 11383) sees 11383; after 10 s 11384 and 11384.
    const w1 = 11380 * 100;
    const w2 = 11384 * 100;
    const bps = (from: number, to: number, side: number) => ((side * (to - from)) / from) * 1e4;
    expect(p.live.markouts_bps['1s']).toBeCloseTo((w1 * bps(11381, 11383, 1) + w2 * bps(11383, 11383, -1)) / (w1 + w2), 5);
    expect(p.live.markouts_bps['10s']).toBeCloseTo((w1 * bps(11381, 11384, 1) + w2 * bps(11383, 11384, -1)) / (w1 + w2), 5);
    expect(p.live.markouts_bps['60s']).toBeNull(); // the recording ends 40 s in
    expect(p.rows.some((r) => r.figure === 'markout_60s_bps')).toBe(false);
    expect(p.replay.fills).toBe(0);
    const rows = Object.fromEntries(p.rows.map((r) => [r.figure, r.divergence]));
    expect(rows['fills']).toBe(-1);
    expect(rows['fees_usd']).toBe(-1);
    expect(p.within_tolerance).toBe(false);
    expect(p.live_round_trips).toEqual({ place: { count: 1, p50_ms: 3, p90_ms: 3 } });
    expect(parityTable(p)).toMatch(/fills\s+2\s+0\s+-2\s+-100\.0%\s+BEYOND/);
    expect(parityHtml(p)).toContain('<b>beyond</b>');
    expect(parityHtml(p)).not.toMatch(/<script|https?:/);
  });

  it('books replay fills like live ones, at the recorded mid just before their venue time', async () => {
    // A frame at the print's instant moves the mid from 11380 to 11379 before the print that fills
    // our bid at 11379; the live fill at that instant is booked at 11380 (+1 tick × 100), and so is
    // the replay's now (the exchange's own booking read the moved book: 0).
    const events: RecordedEvent[] = [
      book(T0, 11378, 11382, true),
      fill(T0 + 1_000, 'buy', 11379, 100),
      { type: 'book', symbol: S, level: 2, isSnapshot: false, bids: [], asks: [{ priceTicks: 11382, qty: 0 }, { priceTicks: 11380, qty: 500 }], tsEvent: T0 + 1_000, tsRecv: T0 + 1_001 },
      { type: 'trade', symbol: S, priceTicks: 11379, qty: 100, aggressor: 'sell', tsEvent: T0 + 1_000, tsRecv: T0 + 1_001 },
      book(T0 + 5_000, 11378, 11382, true),
    ];
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 't' }), [inst], events);
    const run = await runBacktest({
      data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
      settings: defaultSettings({ orderLatency: { entry: 2, response: 2 } }), createEngine: oneRestingOrder(S, 'buy', 11379, 100),
    });
    expect(run.fills.map((f) => [f.priceTicks, f.qty, f.midTicks])).toEqual([[11379, 100, 11379]]);
    const p = parityReport(run);
    const row = p.rows.find((r) => r.figure === 'spread_capture_usd')!;
    expect([row.live, row.replay, row.difference]).toEqual([0.01, 0.01, 0]); // 1 tick × 100 × 0.0001 USD
  });

  it('divergence is relative to live; zero live and zero replay agree', async () => {
    const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 't' }), [inst], [book(T0, 11380, 11382, true), book(T0 + 1_000, 11380, 11382)]);
    const run = await runBacktest({ data: col, strategies: [], risk: DEFAULT_RISK_CONFIG, execution: DEFAULT_EXECUTION_CONFIG, orderManager: DEFAULT_ORDER_MANAGER_CONFIG, settings: defaultSettings(), createEngine });
    const p = parityReport(run);
    expect(p.rows.every((r) => r.divergence === 0)).toBe(true);
    expect(p.within_tolerance).toBe(true);
    expect(p.order_latency).toBe('model');
  });
});

describe('mmbot backtest --parity', () => {
  it('writes report.json parity and parity.html, prints the table, and exits 1 beyond the tolerance; refuses recordings without x lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mmbot-parity-cli-'));
    try {
      const write = async (name: string, withSession: boolean): Promise<string> => {
        const path = join(dir, name);
        const w = createRecordingWriter(path, { instruments: [inst], startedAtMs: T0, source: 't' });
        w.write(book(T0, 11380, 11382));
        if (withSession) w.write(fill(T0 + 50, 'buy', 11380, 100));
        for (let k = 1; k < 50; k++) w.write(book(T0 + 100 * k, 11380 + (k % 3), 11383 + (k % 3)));
        await w.close();
        return path;
      };
      const rec = await write('live.jsonl.gz', true);
      const bare = await write('bare.jsonl.gz', false);
      const config = join(dir, 'bt.yaml');
      writeFileSync(config, 'venue: { mode: embedded-sim }\nbot:\n  strategies:\n    - { id: fs, symbol: EURUSD-PERP, strategy: fixed-spread, params: { levels: 1, halfSpreadTicks: 50, size: 100, maxPosition: 1000 } }\nlogging: { level: silent }\n');
      let out = '';
      const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        out += String(chunk);
        return true;
      });
      let code: number;
      try {
        code = await command.run(['--config', config, '--parity', rec, '--out', join(dir, 'out'), '--no-cache']);
      } finally {
        spy.mockRestore();
      }
      // The replayed bot quotes 50 ticks away and never fills; live filled once: −100% on fills.
      expect(code).toBe(1);
      const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { parity: { live: { fills: number }; replay: { fills: number }; within_tolerance: boolean } };
      expect([report.parity.live.fills, report.parity.replay.fills, report.parity.within_tolerance]).toEqual([1, 0, false]);
      expect(readFileSync(join(dir, 'out', 'parity.html'), 'utf8')).toContain('Live vs replay');
      expect(out).toMatch(/live vs replay[\s\S]*fills\s+1\s+0\s+-1\s+-100\.0%\s+BEYOND/);
      await expect(command.run(['--config', config, '--parity', bare, '--out', join(dir, 'out2'), '--no-cache'])).rejects.toThrow(/no execution reports/);
      await expect(command.run(['--config', config, '--parity', rec, '--data', bare])).rejects.toThrow(/drop --data/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
