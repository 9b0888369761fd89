import { describe, expect, it } from 'vitest';
import { MmError } from '../../src/core/errors.ts';
import { asClientOrderId, asSymbol, asVenueOrderId } from '../../src/core/ids.ts';
import type { OrderStatus } from '../../src/domain/order.ts';
import { isUnknownOutcome, resolvePlaceOutcome, resolveReplaceOutcome } from '../../src/client/order-outcome.ts';

const cid = asClientOrderId(42);
const status = (orderId: string, state: OrderStatus['state']): OrderStatus => ({
  symbol: asSymbol('EURUSD-PERP'),
  orderId: asVenueOrderId(orderId),
  clientOrderId: cid,
  state,
  filledQty: 0,
  remainingQty: 1,
  rejectReason: null,
  rejectMessage: null,
});
const timeout = () => Promise.reject(new MmError('TIMEOUT', 'no reply'));

describe('resolvePlaceOutcome', () => {
  it('passes a success and a final reject straight through, without a lookup', async () => {
    let lookups = 0;
    const look = async () => (lookups++, null);
    expect(await resolvePlaceOutcome(async () => ({ oid: 'O-1' }), cid, look)).toEqual({ orderId: 'O-1' });
    await expect(resolvePlaceOutcome(() => Promise.reject(new MmError('ORDER_REJECTED', 'no')), cid, look)).rejects.toMatchObject({ code: 'ORDER_REJECTED' });
    await expect(resolvePlaceOutcome(() => Promise.reject(new MmError('RATE_LIMITED', '429')), cid, look)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(lookups).toBe(0);
  });

  it('an unknown outcome found by cid resolves; not found is marked not-placed; a failed lookup unknown', async () => {
    expect(await resolvePlaceOutcome(timeout, cid, async () => status('O-7', 'ACCEPTED'))).toEqual({ orderId: 'O-7', resolvedByStatus: true });
    await expect(resolvePlaceOutcome(timeout, cid, async () => null)).rejects.toMatchObject({ code: 'TIMEOUT', details: { outcome: 'not-placed', clientOrderId: '42' } });
    await expect(resolvePlaceOutcome(timeout, cid, () => Promise.reject(new Error('down')))).rejects.toMatchObject({ code: 'TIMEOUT', details: { outcome: 'unknown' } });
  });

  it('classifies unknown outcomes', () => {
    for (const c of ['TIMEOUT', 'NETWORK_ERROR', 'SERVER_ERROR', 'GATEWAY_TIMEOUT', 'VENUE_UNAVAILABLE'] as const) expect(isUnknownOutcome(new MmError(c, ''))).toBe(true);
    for (const c of ['DISCONNECTED', 'RATE_LIMITED', 'ORDER_REJECTED', 'BAD_REQUEST'] as const) expect(isUnknownOutcome(new MmError(c, ''))).toBe(false);
  });
});

describe('resolveReplaceOutcome', () => {
  const intent = { orderId: asVenueOrderId('O-1'), clientOrderId: cid };
  it('original REPLACED → the replacement found by cid', async () => {
    const look = async (ref: { orderId?: string; clientOrderId?: string }) => (ref.orderId ? status('O-1', 'REPLACED') : status('O-2', 'ACCEPTED'));
    expect(await resolveReplaceOutcome(timeout, intent, look)).toEqual({ orderId: 'O-2', resolvedByStatus: true });
  });
  it('original still open → not-replaced; filled → original-terminal; unknown → unknown', async () => {
    await expect(resolveReplaceOutcome(timeout, intent, async () => status('O-1', 'ACCEPTED'))).rejects.toMatchObject({ details: { outcome: 'not-replaced' } });
    await expect(resolveReplaceOutcome(timeout, intent, async () => status('O-1', 'FILLED'))).rejects.toMatchObject({ details: { outcome: 'original-terminal' } });
    await expect(resolveReplaceOutcome(timeout, intent, async () => null)).rejects.toMatchObject({ details: { outcome: 'unknown' } });
  });
});
