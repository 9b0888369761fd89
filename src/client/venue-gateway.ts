import type { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { CancelOrder, PlaceOrder, ReplaceOrder } from '../domain/intents.ts';
import type { Fill, Order, OrderStatus } from '../domain/order.ts';
import { resolvePlaceOutcome, resolveReplaceOutcome } from './order-outcome.ts';
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
  positions(): Promise<ReadonlyMap<string, number>>;
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
  const counted = <T extends { readonly resolvedByStatus?: true }>(r: T): { readonly orderId: VenueOrderId } & T => {
    if (r.resolvedByStatus) stats.resolvedByStatus++;
    return r as { readonly orderId: VenueOrderId } & T;
  };

  return {
    stats,
    async place(intent) {
      if (!orderWs.connected) return viaRest(rest.placeOrder(intent));
      stats.viaWs++;
      try {
        const r = await resolvePlaceOutcome(
          () => orderWs.place(intent).then((x) => ({ oid: x.orderId })),
          intent.clientOrderId,
          (cid) => rest.orderStatus({ clientOrderId: cid }),
        );
        return counted(r);
      } catch (e) {
        // Dropped between the check and the send: nothing went out, REST may carry it.
        if (isCode(e, 'DISCONNECTED')) return viaRest(rest.placeOrder(intent));
        throw e;
      }
    },
    async replace(intent) {
      if (!orderWs.connected) return viaRest(rest.replaceOrder(intent));
      stats.viaWs++;
      try {
        const r = await resolveReplaceOutcome(
          () => orderWs.replace(intent).then((x) => ({ oid: x.orderId })),
          intent,
          (ref) => rest.orderStatus(ref),
        );
        return counted(r);
      } catch (e) {
        if (isCode(e, 'DISCONNECTED')) return viaRest(rest.replaceOrder(intent));
        throw e;
      }
    },
    async cancel(intent) {
      if (orderWs.connected) {
        stats.viaWs++;
        try {
          return await orderWs.cancel(intent);
        } catch (e) {
          if (!isCode(e, 'DISCONNECTED', 'TIMEOUT')) throw e;
        }
      }
      return viaRest(rest.cancelOrder(intent));
    },
    async cancelAll(symbol) {
      if (orderWs.connected) {
        stats.viaWs++;
        try {
          return await orderWs.cancelAll(symbol);
        } catch (e) {
          if (!isCode(e, 'DISCONNECTED', 'TIMEOUT')) throw e;
        }
      }
      return viaRest(rest.cancelAllOrders(symbol));
    },
    async status(ref) {
      if (orderWs.connected) {
        stats.viaWs++;
        try {
          return await orderWs.status(ref);
        } catch (e) {
          if (!isCode(e, 'DISCONNECTED', 'TIMEOUT')) throw e;
        }
      }
      return viaRest(rest.orderStatus(ref));
    },
    async openOrders() {
      if (orderWs.connected) {
        stats.viaWs++;
        try {
          return await orderWs.openOrders();
        } catch (e) {
          if (!isCode(e, 'DISCONNECTED', 'TIMEOUT')) throw e;
        }
      }
      return viaRest(rest.openOrders());
    },
  };
}

const SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000;
const msToNs = (ms: number): string => (BigInt(Math.floor(ms)) * 1_000_000n).toString();

/**
 * The AccountReader over REST: fills in [fromMs, toMs) (queried in ≤ 7-day windows, as the venue
 * requires, oldest first) and signed positions by symbol.
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
      return new Map(r.positions.map((p) => [p.symbol, p.signed_quantity] as const));
    },
  };
}
