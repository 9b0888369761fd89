import type { RejectReason } from '../../domain/enums.ts';
import { statePermissions } from '../../domain/enums.ts';
import { onlyReduces, type Account } from '../accounts/account.ts';
import { marginCheck, type OrderDelta, type RiskContext } from '../accounts/risk.ts';
import type { InstrumentMarket } from '../prices.ts';
import type { SimOrder } from '../types.ts';

/** A business reject: the venue reason (null for a post-only cross, as captured) and its message. */
export interface Reject {
  readonly reason: RejectReason | null;
  readonly text: string;
}

/**
 * Venue-wide inputs of validation, asked only when needed (an object with methods rather than a
 * context literal with closures, so validating allocates nothing on the hot path).
 */
export interface ValidateEnv {
  maxOpenOrdersPerSymbol(): number;
  /** Asked only when a margin check runs (internal accounts never need it). */
  riskContext(): RiskContext;
}

/**
 * Pre-trade checks in the venue's order (docs/venue-rules.md §8–9, §3, §6). On success `order.priceTicks`
 * is set from the price text. `replacing` is the original of a replace, whose place the order
 * takes. Returns the first reject, or null.
 */
export function validateOrder(order: SimOrder, m: InstrumentMarket | undefined, acct: Account, replacing: SimOrder | null, env: ValidateEnv): Reject | null {
  if (!m) return { reason: 'UNKNOWN_SYMBOL', text: `unknown symbol ${order.symbol}` };
  if (!statePermissions(m.state).canPlace) return { reason: 'EXCHANGE_CLOSED', text: `instrument ${order.symbol} is ${m.state}; orders are not accepted` };
  const ins = m.instrument;
  if (!Number.isSafeInteger(order.qty) || order.qty <= 0 || order.qty < ins.minOrderSize) {
    return { reason: 'INCORRECT_QUANTITY', text: `order quantity ${order.qty} is below the minimum order size ${ins.minOrderSize}` };
  }
  let ticks: number;
  try {
    ticks = ins.grid.toTicks(order.priceText);
  } catch {
    return { reason: 'INVALID_PRICE_INCREMENT', text: `order price ${order.priceText} is not a multiple of the tick size ${ins.grid.tickSize.toString()}` };
  }
  order.priceTicks = ticks;
  if (ticks < m.band.lowerTicks) return { reason: 'PRICE_OUT_OF_BOUNDS', text: "order price is below the exchange's minimum price limit" };
  if (ticks > m.band.upperTicks) return { reason: 'PRICE_OUT_OF_BOUNDS', text: "order price is above the exchange's maximum price limit" };
  if (order.cid !== null) {
    const holder = acct.liveByCid.get(order.cid);
    if (holder !== undefined && holder !== order.oid && holder !== replacing?.oid) {
      return { reason: 'DUPLICATE_CLIENT_ORDER_ID', text: `client order id ${order.cid} is already used by an open order` };
    }
  }
  if (!acct.internal) {
    const max = env.maxOpenOrdersPerSymbol();
    const open = (acct.openAgg.get(order.symbol)?.count ?? 0) - (replacing ? 1 : 0);
    if (open >= max) return { reason: 'MAX_OPEN_ORDERS_EXCEEDED', text: `too many open orders on ${order.symbol} (maximum ${max})` };
  }
  if (acct.isCloseOnly) {
    const pos = acct.positions.get(order.symbol)?.signedQty ?? 0;
    if (!onlyReduces(pos, order.side, order.qty)) return { reason: 'CLOSE_ONLY', text: 'account is close-only; the order would not reduce the position' };
  }
  if (!acct.internal) {
    const add: OrderDelta = { side: order.side, qty: order.qty, priceTicks: ticks };
    const rm = replacing ? { side: replacing.side, qty: replacing.remainingQty, priceTicks: replacing.priceTicks } : null;
    const mc = marginCheck(acct, ins, add, rm, env.riskContext());
    if (!mc.ok) {
      return {
        reason: 'INSUFFICIENT_MARGIN',
        text: `initial margin required for order (${mc.required.toFixed(2)}) is greater than available initial margin (${mc.available.toFixed(2)})`,
      };
    }
  }
  return null;
}
