import type { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { Fill, Order, OrderStatus } from '../domain/order.ts';
import type { VenuePosition } from '../domain/position.ts';
import { mapPosition, unwrap } from './wire-port.ts';
import { resolvePlaceOutcome, resolveReplaceOutcome, type EntryOutcome } from './order-outcome.ts';
import type { OrderWsClient } from './order-ws-client.ts';
import type { RestClient } from './rest-client.ts';

/**
 * Structurally identical to the engine's `OrderGateway` (engine/ports.ts), which client/ may not
 * import; the cli hands this object to the engine as is.
 */
export interface VenueOrderGateway {
  place(intent: PlaceOrder): Promise<{ readonly orderId: VenueOrderId }>;
  replace(intent: ReplaceOrder): Promise<{ readonly orderId: VenueOrderId }>;
  cancel(intent: CancelOrder): Promise<{ readonly accepted: boolean }>;
  cancelAll(symbol: Symbol | null): Promise<void>;
  status(ref: { readonly orderId?: VenueOrderId; readonly clientOrderId?: ClientOrderId }): Promise<OrderStatus | null>;
  openOrders(): Promise<readonly Order[]>;
}

/** Structurally identical to the engine's `AccountReader`. */
export interface VenueAccountReader {
  fills(fromMs: number, toMs: number): Promise<readonly (Fill & { readonly fee: Decimal })[]>;
  positions(): Promise<ReadonlyMap<string, VenuePosition>>;
}

/** Counters of how requests were served (for metrics and tests). */
export interface GatewayStats {
  viaWs: number;
  viaRest: number;
  resolvedByStatus: number;
}

const isCode = (e: unknown, ...codes: string[]): e is MmError => e instanceof MmError && codes.includes(e.code);

/**
 * The live OrderGateway: requests go over the order WebSocket; when it is down (DISCONNECTED:
 * nothing was sent) they go over REST instead. A place or replace whose WS reply never came
 * (TIMEOUT: outcome unknown) is resolved by asking REST for the order by cid, never resent blind.
 * Cancels and status reads, being safe to repeat, simply fall back to REST.
 */
export function venueGateway(orderWs: OrderWsClient, rest: RestClient): VenueOrderGateway & { readonly stats: GatewayStats } {
  const stats: GatewayStats = { viaWs: 0, viaRest: 0, resolvedByStatus: 0 };
  const viaRest = <T>(p: Promise<T>): Promise<T> => {
    stats.viaRest++;
    return p;
  };
  /**
   * Cancels and status reads are safe to repeat: over the WS when logged in, and over REST when it
   * is down or the WS request failed without a definite answer (dropped, timed out).
   */
  const safeRead = async <T>(viaWsFn: () => Promise<T>, viaRestFn: () => Promise<T>): Promise<T> => {
    if (orderWs.connected) {
      stats.viaWs++;
      try {
        return await viaWsFn();
      } catch (e) {
        if (!isCode(e, 'DISCONNECTED', 'TIMEOUT')) throw e;
      }
    }
    return viaRest(viaRestFn());
  };
  /**
   * Places and replaces go over the WS when logged in, an unknown outcome resolved by status
   * (`resolveXxxOutcome`); over REST when the WS is down or dropped before the send.
   */
  const orderEntry = async (
    viaWsFn: () => Promise<EntryOutcome>,
    viaRestFn: () => Promise<{ readonly orderId: VenueOrderId }>,
  ): Promise<{ readonly orderId: VenueOrderId }> => {
    if (!orderWs.connected) return viaRest(viaRestFn());
    stats.viaWs++;
    try {
      const r = await viaWsFn();
      if (r.resolvedByStatus) stats.resolvedByStatus++;
      return r;
    } catch (e) {
      // Dropped between the check and the send: nothing went out, REST may carry it.
      if (isCode(e, 'DISCONNECTED')) return viaRest(viaRestFn());
      throw e;
    }
  };

  return {
    stats,
    place: (intent) =>
      orderEntry(
        () => resolvePlaceOutcome(() => orderWs.place(intent).then((x) => ({ oid: x.orderId })), intent.clientOrderId, (cid) => rest.orderStatus({ clientOrderId: cid })),
        () => rest.placeOrder(intent),
      ),
    replace: (intent) =>
      orderEntry(
        () => resolveReplaceOutcome(() => orderWs.replace(intent).then((x) => ({ oid: x.orderId })), intent, (ref) => rest.orderStatus(ref)),
        () => rest.replaceOrder(intent),
      ),
    cancel: (intent) => safeRead(() => orderWs.cancel(intent), () => rest.cancelOrder(intent)),
    cancelAll: (symbol) => safeRead(() => orderWs.cancelAll(symbol), () => rest.cancelAllOrders(symbol)),
    status: (ref) => safeRead(() => orderWs.status(ref), () => rest.orderStatus(ref)),
    openOrders: () => safeRead(() => orderWs.openOrders(), () => rest.openOrders()),
  };
}

const SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000;
const msToNs = (ms: number): string => (BigInt(Math.floor(ms)) * 1_000_000n).toString();

/**
 * The AccountReader over REST: fills in [fromMs, toMs) (queried in ≤ 7-day windows, as the venue
 * requires, oldest first) and the venue's positions by symbol (quantity, cost basis, realized PnL,
 * last fill time: what a restart seeds from).
 */
export function venueAccountReader(rest: RestClient): VenueAccountReader {
  return {
    async fills(fromMs, toMs) {
      const out: (Fill & { readonly fee: Decimal })[] = [];
      for (let start = fromMs; start < toMs; start += SEVEN_DAYS_MS) {
        const end = Math.min(toMs, start + SEVEN_DAYS_MS);
        for await (const f of rest.allFills({ start_timestamp_ns: msToNs(start), end_timestamp_ns: msToNs(end), sort_ts: 'asc', limit: 500 })) {
          if (f.tsEvent >= fromMs && f.tsEvent < toMs) out.push(f);
        }
      }
      out.sort((a, b) => a.tsEvent - b.tsEvent);
      return out;
    },
    async positions() {
      const r = await rest.positions();
      return new Map(r.positions.map((p) => [p.symbol, unwrap(mapPosition(p))] as const));
    },
  };
}
