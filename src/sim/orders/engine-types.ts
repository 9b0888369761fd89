import type { Clock } from '../../core/clock.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import type { RiskContext } from '../accounts/risk.ts';
import type { OrderBook } from '../book/order-book.ts';
import type { VenueIds } from '../ids.ts';
import type { InstrumentMarket } from '../prices.ts';
import type { SimOrder, TradeEvent, VenueOrderEvent } from '../types.ts';
import type { Reject } from './validate.ts';

/** Default of the orders kept per account for history and status queries (`retention.orders_per_account`). */
export const HISTORY_CAP = 100_000;

/** What the engine needs from the venue around it. */
export interface EngineDeps {
  readonly clock: Clock;
  readonly ids: VenueIds;
  readonly accounts: AccountRegistry;
  readonly markets: ReadonlyMap<string, InstrumentMarket>;
  readonly books: ReadonlyMap<string, OrderBook>;
  ackLatencyMs(): number;
  maxOpenOrdersPerSymbol(): number;
  riskContext(): RiskContext;
  /** Next forced reject for this symbol, consumed when returned. */
  takeForcedReject(symbol: string): Reject | null;
  /** Emits an order event to the account's listeners; `build` runs only when someone listens. */
  emitOrder(accountId: string, build: () => VenueOrderEvent): void;
  /** True when someone listens to this account's order events (callers skip building closures otherwise). */
  listening(accountId: string): boolean;
  emitTrade(t: TradeEvent): void;
  tradeListened(): boolean;
  emitBook(symbol: string): void;
  /** Orders kept per account (oldest terminal ones are forgotten beyond it; default HISTORY_CAP). */
  readonly orderHistoryCap?: number;
}

/** Who acts: the user, the account and (for cancel-on-disconnect) the WS connection. */
export interface Actor {
  readonly userId: string;
  readonly accountId: string;
  readonly connId?: string | null;
}

/** How an order is designated in cancel/replace/status: by venue id or by client id. */
export type OrderRef = { readonly oid: string } | { readonly cid: string };

/** Outcome of a cancel or replace request at the gateway. */
export type RequestOutcome<T = undefined> =
  | { readonly status: 'accepted'; readonly value: T }
  | { readonly status: 'pending' }
  | { readonly status: 'not_found' }
  | { readonly status: 'refused'; readonly order: SimOrder; readonly text: string };

/** Called once an order has been processed (acknowledged and matched, or rejected). */
export type Processed = (order: SimOrder) => void;
