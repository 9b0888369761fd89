/**
 * `mmbot backtest --check` (src/backtest/check/): each invariant on hand-built order streams, and a
 * hand-built replay whose violation the CLI lists and exits 1 on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkInvariants } from '../../src/backtest/check/invariants.ts';
import type { BacktestFill } from '../../src/backtest/ledger.ts';
import { command } from '../../src/cli/commands/backtest.ts';
import { asVenueOrderId } from '../../src/core/ids.ts';
import type { BookUpdated, OrderEvent } from '../../src/domain/events.ts';
import type { Order } from '../../src/domain/order.ts';
import { createRecordingWriter, recordingHeader, toColumnar } from '../../src/record/index.ts';
import { testInstrument } from '../record/fixtures.ts';

const inst = testInstrument('EURUSD-PERP', '0.0001', 1);
const S = inst.symbol;
const T0 = 1_800_000_000_000;
const book = (t: number, bids: [number, number][], asks: [number, number][], isSnapshot = false): BookUpdated => ({
  type: 'book', symbol: S, level: 2, isSnapshot, bids: bids.map(([priceTicks, qty]) => ({ priceTicks, qty })), asks: asks.map(([priceTicks, qty]) => ({ priceTicks, qty })), tsEvent: t, tsRecv: t,
});
const col = toColumnar(recordingHeader({ instruments: [inst], startedAtMs: T0, source: 't' }), [inst], [
  book(T0, [[11380, 500]], [[11384, 500]], true),
  book(T0 + 100, [], [[11382, 50]]), // from T0 + 100 the best ask is 11382
]);
const order = (id: string, side: 'buy' | 'sell', priceTicks: number, postOnly = true): Order => ({
  orderId: asVenueOrderId(id), clientOrderId: null, accountId: 'backtest', userId: null, symbol: S, side, priceTicks, qty: 10, filledQty: 0, remainingQty: 10,
  state: 'ACCEPTED', tif: 'GTC', postOnly, reprice: 'rej', tag: null, rejectReason: null, text: null, createdMs: 0,
}) as Order;
const base = { executionId: 'E' as never, tsRecv: 0 };
const accepted = (o: Order, t: number): OrderEvent => ({ ...base, type: 'accepted', order: o, tsEvent: t });
const canceled = (o: Order, t: number): OrderEvent => ({ ...base, type: 'canceled', order: o, reason: '', text: '', tsEvent: t });
const filled = (o: Order, t: number, qty: number, aggressor = false): OrderEvent => ({ ...base, type: 'filled', order: o, partial: true, tradeId: 'T', fillPriceTicks: o.priceTicks, fillQty: qty, fillSide: o.side, aggressor, tsEvent: t });
const rules = (events: OrderEvent[], fills: BacktestFill[] = []) => checkInvariants(col, events, fills).violations.map((v) => `${v.rule} ${v.tsMs - T0}`);

describe('checkInvariants: each rule on a hand-built order stream', () => {
  const a = order('O-1', 'buy', 11381);
  it('a clean life (accepted, filled while working, canceled) breaks nothing', () => {
    expect(rules([accepted(a, T0 + 10), filled(a, T0 + 20, 4), canceled(a, T0 + 30)])).toEqual([]);
  });

  it('a fill before the order reached the matching engine, and one of an order never accepted', () => {
    expect(rules([filled(a, T0 + 5, 4), accepted(a, T0 + 10), filled(order('O-9', 'buy', 11381), T0 + 20, 1)])).toEqual(['fill-before-arrival 5', 'fill-before-arrival 20']);
  });

  it('a fill after the cancel arrived', () => {
    expect(rules([accepted(a, T0 + 10), canceled(a, T0 + 30), filled(a, T0 + 30, 4)])).toEqual(['fill-after-cancel 30']);
  });

  it('our buy resting at or above our sell at the end of an instant, once while it lasts', () => {
    const s = order('O-2', 'sell', 11381, false);
    expect(rules([accepted(a, T0 + 10), accepted(s, T0 + 20), accepted(order('O-3', 'buy', 11370), T0 + 25), canceled(s, T0 + 40)])).toEqual(['own-cross 20']);
  });

  it('post-only: a taker fill, and an acceptance across the recorded book as of its arrival', () => {
    // 11382 crosses only once the T0 + 100 frame shows the ask there.
    const early = order('O-4', 'buy', 11382);
    const late = order('O-5', 'buy', 11382);
    expect(rules([accepted(early, T0 + 50), filled(early, T0 + 60, 2, true), accepted(late, T0 + 100)])).toEqual(['post-only-crossed 60', 'post-only-crossed 100']);
  });

  it('maker fills at a price above what the prints traded at or through it (fill-bound.ts: no print here)', () => {
    const f = { symbol: S, side: 'buy', priceTicks: 11382, qty: 10, aggressor: false, source: 'cross' } as BacktestFill;
    expect(checkInvariants(col, [], [f]).violations.map((v) => [v.rule, v.detail])).toEqual([['fill-bound', 'buy at 11382 ticks: our maker fills 10 (10 by book crossings) exceed the 0 the market traded at or through the price']]);
  });
});

describe('mmbot backtest --check lists the violations of a real replay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-check-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (rec: string): Promise<{ code: number; out: string }> => {
    const config = join(dir, 'bt.yaml');
    writeFileSync(config, 'venue: { mode: embedded-sim }\nbot:\n  strategies:\n    - { id: fs, symbol: EURUSD-PERP, strategy: fixed-spread, params: { levels: 1, halfSpreadTicks: 1, size: 100, maxPosition: 1000 } }\nlogging: { level: silent }\n');
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    try {
      return { code: await command.run(['--config', config, '--data', rec, '--out', join(dir, 'out'), '--no-cache', '--check', '--quiet']), out };
    } finally {
      spy.mockRestore();
    }
  };
  const record = async (name: string, frames: BookUpdated[]): Promise<string> => {
    const path = join(dir, name);
    const w = createRecordingWriter(path, { instruments: [inst], startedAtMs: T0, source: 't' });
    for (const f of frames) w.write(f);
    await w.close();
    return path;
  };

  it('a book that crosses our resting bid with no print behind it: fill-bound is listed and the run exits 1', async () => {
    // fixed-spread ±1 tick around 11382 bids 11381; at T0 + 2 s an ask of 300 shows at 11381
    // (the book crossing our bid, which the replay fills as maker) and the recording has no print.
    const frames = [book(T0, [[11380, 500]], [[11384, 500]], true), book(T0 + 2_000, [], [[11381, 300]]), book(T0 + 2_500, [], [[11381, 0]])];
    for (let k = 1; k <= 10; k++) frames.push(book(T0 + 3_000 + 100 * k, [[11380, 500 + k]], []));
    const { code, out } = await run(await record('crossing.jsonl.gz', frames));
    expect(code).toBe(1);
    expect(out).toContain('check: 1 violations (fill-bound 1) over 1 fills');
    expect(out).toContain('fill-bound EURUSD-PERP whole run: buy at 11381 ticks: our maker fills 50 (50 by book crossings) exceed the 0 the market traded at or through the price');
    const json = JSON.parse(readFileSync(join(dir, 'out', 'check.json'), 'utf8')) as { violations: number; list: { rule: string }[] };
    expect([json.violations, json.list[0]!.rule]).toEqual([1, 'fill-bound']);
  });

  it('the same market without the crossing frame: 0 violations, exit 0', async () => {
    const frames = [book(T0, [[11380, 500]], [[11384, 500]], true)];
    for (let k = 1; k <= 10; k++) frames.push(book(T0 + 3_000 + 100 * k, [[11380, 500 + k]], []));
    const { code, out } = await run(await record('quiet.jsonl.gz', frames));
    expect(out).toMatch(/check: 0 violations over 0 fills, \d+ orders, 0 price levels/);
    expect(code).toBe(0);
  });
});
