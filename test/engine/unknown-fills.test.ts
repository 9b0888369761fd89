import { describe, expect, it } from 'vitest';
import { asAccountId, asClientOrderId, asExecutionId, asVenueOrderId } from '../../src/core/ids.ts';
import type { Order, OrderFilled, VenuePosition } from '../../src/domain/index.ts';
import type { AccountReader } from '../../src/engine/index.ts';
import { CidFactory } from '../../src/engine/cid.ts';
import { EURUSD, ScriptedStrategy, bookEv, harness, quotes, type Harness } from './harness.ts';

/*
 * Ghost fills (issue 35, item 1): a fill on the order stream for an order the engine never placed,
 * or for another account, must not move the position. It is reported (`unknown-fill`, with its
 * figures) and the venue is asked at once (REST fills, then positions): a fill the venue really
 * made is booked from REST, a ghost is not booked at all.
 */

/** A fill event as the venue's order stream would carry it, for an order the test describes. */
function fillEvent(h: Harness, o: { orderId: string; cid: string | null; account: string; side: 'buy' | 'sell'; qty: number; priceTicks: number; tradeId: string }): OrderFilled {
  const t = h.clock.nowMs();
  const order: Order = {
    orderId: asVenueOrderId(o.orderId),
    clientOrderId: o.cid === null ? null : asClientOrderId(o.cid),
    accountId: asAccountId(o.account),
    userId: null,
    symbol: EURUSD,
    side: o.side,
    priceTicks: o.priceTicks,
    qty: o.qty,
    filledQty: o.qty,
    remainingQty: 0,
    state: 'FILLED',
    tif: 'GTC',
    postOnly: true,
    reprice: 'bo',
    tag: null,
    rejectReason: null,
    text: null,
    createdMs: t,
  };
  return { type: 'filled', order, partial: false, tradeId: o.tradeId, fillPriceTicks: o.priceTicks, fillQty: o.qty, fillSide: o.side, aggressor: false, executionId: asExecutionId(`E-${o.tradeId}`), tsEvent: t, tsRecv: t };
}

/** A harness short 300 (the venue's position at start-up), quoting one level a side, counting position reads. */
async function shortThreeHundred(): Promise<{ h: Harness; reads: { positions: number; fills: number } }> {
  const reads = { positions: 0, fills: 0 };
  let inner: AccountReader | null = null;
  const counting: AccountReader = {
    fills: (from, to) => (reads.fills++, inner!.fills(from, to)),
    positions: () => (reads.positions++, inner!.positions()),
  };
  const s = new ScriptedStrategy();
  const h = await harness([{ id: 's', symbol: EURUSD, strategy: s }], { accountId: 'ACC-1' }, {
    accounts: counting,
    beforeStart: (gw) => {
      inner = gw.accountReader();
      gw.priorPositions.set(EURUSD, { qty: -300, costBasis: null, realizedPnl: null, lastFillMs: null } satisfies VenuePosition);
    },
  });
  s.next = quotes(EURUSD, 11000, 11010, 10);
  h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
  await h.advance(100, 10);
  return { h, reads };
}

const position = (h: Harness): number => h.engine.snapshot().symbols[0]!.position.qty;

describe('fills that are not ours (issue 35, item 1)', () => {
  it('a ghost fill of 5,000 for an order and client id never placed leaves the position at −300 and asks the venue at once', async () => {
    const { h, reads } = await shortThreeHundred();
    expect(position(h)).toBe(-300);
    const before = { ...reads };
    h.gw.events$.next(fillEvent(h, { orderId: 'O-GHOST', cid: '999', account: 'ACC-1', side: 'buy', qty: 5000, priceTicks: 11005, tradeId: 'T-GHOST' }));
    await h.advance(100, 10);
    // Old code: booked as a normal fill, position −300 → 4,700.
    expect(position(h)).toBe(-300);
    expect(h.of('fill')).toEqual([]);
    expect(h.of('unknown-fill')).toEqual([
      expect.objectContaining({ kind: 'unknown-order', symbol: EURUSD, orderId: 'O-GHOST', clientOrderId: '999', accountId: 'ACC-1', tradeId: 'T-GHOST', side: 'buy', qty: 5000, priceTicks: 11005 }),
    ]);
    // Reconciled at once (not at the next 30 s position check): one REST fills read and one positions read.
    expect(reads.fills - before.fills).toBe(1);
    expect(reads.positions - before.positions).toBe(1);
    // The venue agrees with −300: nothing to correct, and still −300 half a minute later.
    await h.advance(35_000, 500);
    expect(h.of('position-mismatch')).toEqual([]);
    expect(position(h)).toBe(-300);
  });

  it('a burst of ghost fills is reconciled twice (the one running, then one more), not once per fill', async () => {
    const { h, reads } = await shortThreeHundred();
    const before = { ...reads };
    for (let i = 0; i < 3; i++) h.gw.events$.next(fillEvent(h, { orderId: `O-GHOST-${i}`, cid: null, account: 'ACC-1', side: 'sell', qty: 100, priceTicks: 11005, tradeId: `T-GHOST-${i}` }));
    await h.advance(100, 10);
    expect(h.of('unknown-fill')).toHaveLength(3);
    expect(reads.fills - before.fills).toBe(2);
    expect(reads.positions - before.positions).toBe(2);
    expect(position(h)).toBe(-300);
  });

  it('a fill for another account is dropped, even when it names one of our orders', async () => {
    const { h } = await shortThreeHundred();
    const ours = h.gw.open().find((o) => o.side === 'buy')!;
    h.gw.events$.next(fillEvent(h, { orderId: ours.orderId, cid: ours.clientOrderId, account: 'ACC-2', side: 'buy', qty: 10, priceTicks: ours.priceTicks, tradeId: 'T-OTHER' }));
    await h.advance(100, 10);
    // Old code: booked, position −300 → −290.
    expect(position(h)).toBe(-300);
    expect(h.of('fill')).toEqual([]);
    expect(h.of('unknown-fill')).toEqual([expect.objectContaining({ kind: 'other-account', accountId: 'ACC-2', qty: 10, orderId: ours.orderId })]);
  });

  it('a real fill of an order another session placed on the account is booked from REST at once (recovered), not from the stream', async () => {
    const { h } = await shortThreeHundred();
    const foreign = h.gw.addForeign(EURUSD, 'buy', 11004, 40, null);
    h.gw.fill({ orderId: foreign.orderId }, 40);
    await h.advance(100, 10);
    expect(h.of('unknown-fill')).toEqual([expect.objectContaining({ kind: 'unknown-order', orderId: foreign.orderId, qty: 40 })]);
    // Old code: booked from the stream (recovered: false).
    expect(h.of('fill')).toEqual([expect.objectContaining({ orderId: foreign.orderId, qty: 40, recovered: true, position: -260 })]);
    expect(position(h)).toBe(-260);
  });

  it('a late fill of one of our orders the engine already closed is still ours (booked from the stream)', async () => {
    const { h } = await shortThreeHundred();
    const ours = h.gw.open().find((o) => o.side === 'buy')!;
    h.engine.cancelAll();
    await h.advance(100, 10);
    expect(h.gw.open()).toEqual([]);
    h.gw.events$.next(fillEvent(h, { orderId: ours.orderId, cid: ours.clientOrderId, account: 'ACC-1', side: 'buy', qty: 3, priceTicks: ours.priceTicks, tradeId: 'T-LATE' }));
    await h.advance(100, 10);
    expect(h.of('unknown-fill')).toEqual([]);
    expect(h.of('fill')).toEqual([expect.objectContaining({ tradeId: 'T-LATE', qty: 3, recovered: false, position: -297 })]);
  });

  it('CidFactory.issued names exactly the client ids this session handed out (consecutive, so a range)', () => {
    const f = new CidFactory(1_700_000_000_000);
    expect(f.issued(String(1_700_000_000_000n << 20n))).toBe(false); // nothing issued yet
    const a = f.next();
    const b = f.next();
    expect([f.issued(a), f.issued(b)]).toEqual([true, true]);
    expect(f.issued(String(BigInt(b) + 1n))).toBe(false);
    expect(f.issued(String(BigInt(a) - 1n))).toBe(false);
    expect([f.issued(null), f.issued('999'), f.issued('12x'), f.issued('')]).toEqual([false, false, false, false]);
  });
});
