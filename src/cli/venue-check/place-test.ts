/**
 * `--place-test`: one post-only bid at the minimum size, 5% under the market (inside the venue's
 * ±10% price band, so it is accepted and rests, far enough that no one trades with it in the
 * seconds it lives), then its cancel, then a look at the open orders to be sure none is left.
 */
import { Decimal } from '../../core/decimal.ts';
import { asClientOrderId, asSymbol } from '../../core/ids.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { isTerminal } from '../../domain/order-state.ts';
import type { PlaceOrder } from '../../domain/intents.ts';
import type { RestClient } from '../../client/rest-client.ts';

/** How far under the reference price the test bid rests: 5%, half the venue's band. */
export const PLACE_TEST_DISCOUNT = new Decimal('0.95');

/** The reference price (best bid, else mark, else last) and the band's floor, as the ticker gives them. */
export interface TickerPrices {
  readonly bid?: string | null | undefined;
  readonly mark?: string | null | undefined;
  readonly last?: string | null | undefined;
  readonly bandLow?: string | null | undefined;
}

/**
 * The test bid's price in ticks: 5% under the reference, snapped down, never under the band floor.
 * @throws Error when the ticker carries no price to start from.
 */
export function placeTestPriceTicks(inst: Instrument, p: TickerPrices): number {
  const ref = p.bid ?? p.mark ?? p.last;
  if (ref === null || ref === undefined) throw new Error(`${inst.symbol} has no bid, mark or last price to place a test order far from`);
  const ticks = inst.grid.decimalToTicks(new Decimal(ref).mul(PLACE_TEST_DISCOUNT), 'down');
  const floor = p.bandLow !== null && p.bandLow !== undefined ? inst.grid.decimalToTicks(new Decimal(p.bandLow), 'up') : 1;
  return Math.max(ticks, floor, 1);
}

/**
 * Places the test bid over REST, cancels it, and checks the open orders no longer hold it.
 * Resolves to a one-line account of what happened. @throws Error naming the step that failed.
 */
export async function placeAndCancel(rest: RestClient, inst: Instrument): Promise<string> {
  const t = (await rest.ticker(inst.symbol)).ticker;
  const priceTicks = placeTestPriceTicks(inst, { bid: t.bp, mark: t.m, last: t.p, bandLow: t.pl });
  const intent: PlaceOrder = {
    kind: 'place',
    symbol: asSymbol(inst.symbol),
    side: 'buy',
    priceTicks,
    qty: inst.minOrderSize,
    tif: 'GTC',
    postOnly: true,
    reprice: 'rej',
    selfTrade: 'CancelIncoming',
    // Unique per run and far from the daemon's own ids, so `unknown_orders: cancel` never mistakes it.
    clientOrderId: asClientOrderId(Date.now() * 1000 + Math.floor(Math.random() * 1000)),
    tag: 'mmcheck',
  };
  const price = inst.grid.toPrice(priceTicks);
  const { orderId } = await rest.placeOrder(intent).catch((e: unknown) => {
    throw new Error(`placing a post-only bid of ${intent.qty} ${inst.symbol} at ${price} failed: ${e instanceof Error ? e.message : String(e)}`);
  });
  try {
    await rest.cancelOrder({ orderId, clientOrderId: intent.clientOrderId });
  } catch (e) {
    // A place reply only means "request accepted": a post-only reject arrives later, and then the
    // cancel fails too. Say which it was, from the order's own state.
    const status = await rest.orderStatus({ orderId }).catch(() => null);
    const state = status ? `; the order is ${status.state}${status.rejectReason ? ` (${status.rejectReason}${status.rejectMessage ? `: ${status.rejectMessage}` : ''})` : ''}` : '';
    const handCancel = status === null || !isTerminal(status.state) ? '; cancel it by hand' : '';
    throw new Error(`order ${orderId} was placed but its cancel failed: ${e instanceof Error ? e.message : String(e)}${state}${handCancel}`);
  }
  // The cancel's reply only says it was accepted; the order leaves the book a moment later.
  for (let attempt = 0; ; attempt++) {
    const left = (await rest.openOrders()).some((o) => o.orderId === orderId);
    if (!left) break;
    if (attempt >= 10) throw new Error(`order ${orderId} is still open 2 s after its cancel; cancel it by hand`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return `post-only bid ${orderId} for ${intent.qty} ${inst.symbol} at ${price} placed and cancelled; none left open`;
}
