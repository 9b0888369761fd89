import { describe, expect, it } from 'vitest';
import type { StrategyContext } from '../../src/strategy/contract.ts';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import { DEFAULT_ORDER_MANAGER_CONFIG } from '../../src/engine/index.ts';
import { EURUSD, ScriptedStrategy, harness, l2Book as book, quotes } from './harness.ts';

const TICK_MS = DEFAULT_ORDER_MANAGER_CONFIG.tickIntervalMs;

/** Reads the touch only; stable until `untilMs(now of the call)`; remembers the order statuses each call saw. */
class StableStrategy extends ScriptedStrategy {
  readonly bookDepth = 1;
  seen: string[] = [];
  #lastNow = 0;
  constructor(readonly untilMs: (nowMs: number) => number) {
    super();
  }
  override quote(ctx: StrategyContext): DesiredQuotes | null {
    this.#lastNow = ctx.nowMs;
    this.seen = ctx.workingOrders.map((o) => o.status);
    return super.quote(ctx);
  }
  stableUntilMs(): number {
    return this.untilMs(this.#lastNow);
  }
}

describe('Strategy.stableUntilMs: the periodic tick skips a call that cannot change anything', () => {
  it('a strategy without the hook is called on every tick', async () => {
    const s = new ScriptedStrategy();
    s.next = quotes(EURUSD, 10_990, 11_010);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    h.market$.next(book(h.clock.nowMs(), [[11_000, 5]], [[11_002, 5]]));
    await h.settle();
    const n = s.calls;
    await h.advance(10_000);
    expect(s.calls - n).toBe(10_000 / TICK_MS);
  });

  it('stable for ever: after the ack reached it (the working orders changed), no tick calls it', async () => {
    const s = new StableStrategy(() => Infinity);
    s.next = quotes(EURUSD, 10_990, 11_010);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], {}, { beforeStart: (gw) => (gw.autoAck = false) });
    h.market$.next(book(h.clock.nowMs(), [[11_000, 5]], [[11_002, 5]]));
    await h.advance(1_000);
    const n = s.calls;
    expect(s.seen).toEqual(['pending-new', 'pending-new']);
    for (const o of h.gw.open()) h.gw.ack(o.clientOrderId!);
    await h.advance(10_000);
    // The acks change the working orders without an evaluation: the next tick calls once more.
    expect(s.calls - n).toBe(1);
    expect(s.seen).toEqual(['open', 'open']);
    expect(h.engine.snapshot().symbols[0]!.working).toHaveLength(2);
  });

  it('a book change below bookDepth does not wake it, a change at the touch does (at once)', async () => {
    const s = new StableStrategy(() => Infinity);
    s.next = quotes(EURUSD, 10_990, 11_010);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    const t = h.clock.nowMs();
    h.market$.next(book(t, [[11_000, 5], [10_999, 5]], [[11_002, 5]]));
    await h.advance(1_000);
    const n = s.calls;
    h.market$.next(book(t, [[11_000, 5], [10_999, 9]], [[11_002, 5]]));
    await h.advance(1_000);
    expect(s.calls).toBe(n);
    h.market$.next(book(t, [[11_000, 6], [10_999, 9]], [[11_002, 5]]));
    await h.settle();
    expect(s.calls).toBe(n + 1);
    await h.advance(1_000);
    expect(s.calls).toBe(n + 1);
  });

  it('stable for 1 s after each call: the tick calls it once a second', async () => {
    const s = new StableStrategy((now) => now + 1_000);
    s.next = quotes(EURUSD, 10_990, 11_010);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    h.market$.next(book(h.clock.nowMs(), [[11_000, 5]], [[11_002, 5]]));
    await h.advance(1_000); // the acks' call included
    const n = s.calls;
    await h.advance(10_000);
    expect(s.calls - n).toBe(10);
  });

  it('a fill reaches it at once (the fill and the position are inputs)', async () => {
    const s = new StableStrategy(() => Infinity);
    s.next = quotes(EURUSD, 10_990, 11_010);
    const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }]);
    h.market$.next(book(h.clock.nowMs(), [[11_000, 5]], [[11_002, 5]]));
    await h.advance(1_000);
    const n = s.calls;
    const bid = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.fill({ clientOrderId: bid.clientOrderId! }, 1);
    await h.settle();
    expect(s.calls).toBe(n + 1);
    expect(s.lastCtx!.position).toBe(1);
  });
});
