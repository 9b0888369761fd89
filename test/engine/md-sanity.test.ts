import { describe, expect, it } from 'vitest';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import { DEFAULT_RISK_CONFIG, type EngineLog } from '../../src/engine/index.ts';
import type { Strategy, StrategyContext } from '../../src/strategy/contract.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, tickerEv } from './harness.ts';

/** Joins the touch with one contract a side: it quotes whatever book it sees, as the bot did. */
class TouchJoiner implements Strategy {
  quote(ctx: StrategyContext): DesiredQuotes | null {
    const b = ctx.book?.bids[0];
    const a = ctx.book?.asks[0];
    if (!b || !a) return null;
    return { symbol: EURUSD, bids: [{ priceTicks: b.priceTicks, qty: 1 }], asks: [{ priceTicks: a.priceTicks, qty: 1 }] };
  }
}

function captureLog(): EngineLog & { lines: { level: string; msg: string; obj: object }[] } {
  const lines: { level: string; msg: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg = '') => void lines.push({ level, msg, obj });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const prices = (h: { gw: { open(): { side: string; priceTicks: number }[] } }) => h.gw.open().map((o) => `${o.side} ${o.priceTicks}`).sort();

describe('market-data sanity in the engine (tick 0.0001: 1.14 = 11400 ticks)', () => {
  it('a crossed book that persists 1 s pulls the quotes with the reason in the state; a sane book brings them back', async () => {
    const log = captureLog();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: new TouchJoiner() }], { log });
    h.market$.next(tickerEv(EURUSD, h.clock.nowMs(), { markTicks: 11_400 }));
    h.market$.next(bookEv(EURUSD, 11_399, 11_401, h.clock.nowMs()));
    await h.settle();
    expect(prices(h)).toEqual(['buy 11399', 'sell 11401']);
    // Crossed 1.15 / 1.13: the old engine's post-only clamp moved the quotes to 1.1299 / 1.1501 for as
    // long as it lasted; until it is suspect the working orders are now held where they were.
    h.market$.next(bookEv(EURUSD, 11_500, 11_300, h.clock.nowMs()));
    await h.settle();
    expect(prices(h)).toEqual(['buy 11399', 'sell 11401']);
    await h.advance(750, 250);
    expect(prices(h)).toEqual(['buy 11399', 'sell 11401']);
    await h.advance(250, 250);
    expect(h.gw.open()).toEqual([]);
    const sym = h.engine.snapshot().symbols[0]!;
    expect(sym.tradingState).toBe('HALTED');
    expect(sym.tradingReason).toBe('market data suspect: crossed book: bid 1.15 ≥ ask 1.13 for 1000 ms');
    await h.advance(5_000, 250);
    // One WARN and one event for the whole episode, not one per tick.
    const warns = log.lines.filter((l) => l.level === 'warn');
    expect(warns.map((l) => l.msg)).toEqual(['market data suspect on EURUSD-PERP: crossed book: bid 1.15 ≥ ask 1.13 for 1000 ms; quotes pulled until it is sane again']);
    expect(h.of('market-data-suspect').map((e) => e.kind)).toEqual(['crossed-book']);
    expect(h.gw.open()).toEqual([]);
    h.market$.next(bookEv(EURUSD, 11_398, 11_402, h.clock.nowMs()));
    await h.settle();
    expect(prices(h)).toEqual(['buy 11398', 'sell 11402']);
    expect(h.engine.snapshot().symbols[0]!.tradingState).toBe('ACTIVE');
    expect(h.of('market-data-suspect').map((e) => e.kind)).toEqual(['crossed-book', null]);
  });

  it('an absurd 0.0001 / 0.0002 book for a pair marked at 1.14 sends nothing, even with a venue band of 0.0001–99999', async () => {
    const log = captureLog();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: new TouchJoiner() }], { log });
    h.market$.next(tickerEv(EURUSD, h.clock.nowMs(), { markTicks: 11_400, bandLowerTicks: 1, bandUpperTicks: 999_990_000 }));
    h.market$.next(bookEv(EURUSD, 11_399, 11_401, h.clock.nowMs()));
    await h.settle();
    const before = h.gw.requests.length;
    h.market$.next(bookEv(EURUSD, 1, 2, h.clock.nowMs()));
    await h.advance(2_000, 250);
    // The old engine placed a bid at 0.0001 (and replaced its ask down to 0.0002).
    const sent = h.gw.requests.slice(before).filter((r) => r.call === 'place' || r.call === 'replace');
    expect(sent).toEqual([]);
    expect(h.gw.open()).toEqual([]);
    expect(h.engine.snapshot().symbols[0]!.tradingReason).toBe('market data suspect: mid 0.00015 is 9999 bps from the mark 1.14');
    expect(log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('a book with a negative best bid is suspect at once', async () => {
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: new TouchJoiner() }]);
    h.market$.next(bookEv(EURUSD, 11_399, 11_401, h.clock.nowMs()));
    await h.settle();
    h.market$.next(bookEv(EURUSD, -11_411, 11_401, h.clock.nowMs()));
    await h.settle();
    expect(h.gw.open()).toEqual([]);
    expect(h.engine.snapshot().symbols[0]!.tradingReason).toBe('market data suspect: best bid -1.1411 is not a positive price');
  });

  it('a quote beyond the fat-finger band of the mark is trimmed on a sane book (500 bps of 1.14: 10830..11970)', async () => {
    const a = new ScriptedStrategy();
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: a }]);
    a.next = { symbol: EURUSD, bids: [{ priceTicks: 11_390, qty: 1 }, { priceTicks: 10_829, qty: 1 }], asks: [{ priceTicks: 11_971, qty: 1 }] };
    h.market$.next(tickerEv(EURUSD, h.clock.nowMs(), { markTicks: 11_400 }));
    h.market$.next(bookEv(EURUSD, 11_399, 11_401, h.clock.nowMs()));
    await h.settle();
    expect(prices(h)).toEqual(['buy 11390']);
    expect(h.of('quotes-trimmed').map((e) => e.reasons)).toEqual([['fat-finger']]);
    expect(h.engine.snapshot().symbols[0]!.tradingState).toBe('ACTIVE');
  });

  it('replaceRisk applies new market-data thresholds live (crossed_book_ms 0: a crossed book is no longer suspect)', async () => {
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: new TouchJoiner() }]);
    h.market$.next(bookEv(EURUSD, 11_500, 11_300, h.clock.nowMs()));
    await h.advance(1_000, 250);
    expect(h.engine.snapshot().symbols[0]!.marketDataSuspect).toBe('crossed-book');
    h.engine.replaceRisk({ ...DEFAULT_RISK_CONFIG, marketData: { crossedBookMs: 0, maxMidDeviationBps: 300 } });
    await h.advance(250, 250);
    expect(h.engine.snapshot().symbols[0]!.marketDataSuspect).toBeNull();
    expect(prices(h)).toEqual(['buy 11299', 'sell 11501']);
  });
});
