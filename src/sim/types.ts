import type { RejectReason, RepriceBehavior, SelfTradePrevention, Side, TimeInForce } from '../domain/enums.ts';
import type { OrderState } from '../domain/order-state.ts';

/**
 * A venue-side order. Mutable on purpose: the matching engine updates quantities and state in
 * place, and the order doubles as its own node in the price level's FIFO queue (intrusive list),
 * so resting, filling and cancelling never scan.
 */
export interface SimOrder {
  readonly oid: string;
  readonly userId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly side: Side;
  priceTicks: number;
  /** The price as sent (kept for reject echoes when it is off the grid). */
  priceText: string;
  readonly qty: number;
  filledQty: number;
  remainingQty: number;
  state: OrderState;
  readonly tif: TimeInForce;
  readonly postOnly: boolean;
  readonly reprice: RepriceBehavior;
  readonly stp: SelfTradePrevention;
  readonly tag: string | null;
  /** Client order id as a decimal u64 string, null when unset. */
  readonly cid: string | null;
  rejectReason: RejectReason | null;
  text: string | null;
  /** Receipt time, epoch ns. */
  readonly createdNs: bigint;
  /** Last state change, epoch ns (history sorts and filters on the receipt time). */
  updatedNs: bigint;
  /** WS connection that placed it (cancel-on-disconnect), null for REST and internal flow. */
  readonly connId: string | null;
  /** Set when the order replaces another (the original's oid). */
  readonly replaces: string | null;
  /** Intrusive FIFO links; null when not resting. */
  prev: SimOrder | null;
  next: SimOrder | null;
  restingLevel: unknown;
  /** The id as `OrderIndex` keys it: the minting block's shared head and the last character's slot. */
  readonly idHead: string;
  readonly idSlot: number;
  /** Intrusive links of the owning account's open-order list (`OpenOrders`). */
  acctPrev: SimOrder | null;
  acctNext: SimOrder | null;
}

/** What a caller asks for when placing (already syntactically valid). */
export interface PlaceSpec {
  readonly symbol: string;
  readonly side: Side;
  readonly qty: number;
  /** Decimal price string as sent. */
  readonly price: string;
  readonly tif: TimeInForce;
  readonly postOnly: boolean;
  readonly reprice?: RepriceBehavior;
  readonly stp?: SelfTradePrevention;
  readonly tag?: string | null;
  readonly cid?: string | null;
}

/** What a replace may change; omitted fields inherit from the original. */
export interface ReplaceSpec {
  readonly price?: string;
  readonly qty?: number;
  readonly tif?: TimeInForce;
  readonly postOnly?: boolean;
  readonly reprice?: RepriceBehavior;
}

/** A frozen copy of an order at the moment an event was produced. */
export type OrderSnapshot = Readonly<Omit<SimOrder, 'prev' | 'next' | 'restingLevel' | 'idHead' | 'idSlot' | 'acctPrev' | 'acctNext'>>;

/** Fill detail of one side of a trade, as the order WS `xs` carries it. */
export interface FillDetail {
  readonly tradeId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly qty: number;
  readonly priceTicks: number;
  readonly side: Side;
  readonly aggressor: boolean;
}

/** Order lifecycle events, one per wire event type (`t`). */
export type VenueOrderEvent =
  | { readonly t: 'n' | 'x' | 'd'; readonly eid: string; readonly tsNs: bigint; readonly order: OrderSnapshot }
  | { readonly t: 'p' | 'f'; readonly eid: string; readonly tsNs: bigint; readonly order: OrderSnapshot; readonly fill: FillDetail }
  | { readonly t: 'c'; readonly eid: string; readonly tsNs: bigint; readonly order: OrderSnapshot; readonly reason: string; readonly text: string }
  | { readonly t: 'j'; readonly eid: string; readonly tsNs: bigint; readonly order: OrderSnapshot; readonly reason: RejectReason | null; readonly text: string }
  | { readonly t: 'r'; readonly eid: string; readonly tsNs: bigint; readonly original: OrderSnapshot; readonly replacement: OrderSnapshot }
  | {
      readonly t: 'e';
      readonly tsNs: bigint;
      readonly oid: string | null;
      readonly cid: string | null;
      readonly reason: string;
      readonly text: string;
      readonly order: OrderSnapshot | null;
    };

/** A public trade print; `takerSide` is the aggressor's side. */
export interface TradeEvent {
  readonly tradeId: string;
  readonly symbol: string;
  readonly priceTicks: number;
  readonly qty: number;
  readonly takerSide: Side;
  readonly tsNs: bigint;
  readonly makerAccountId: string;
  readonly takerAccountId: string;
  readonly makerOid: string;
  readonly takerOid: string;
}

/** Copies the mutable order into an immutable snapshot (drops the queue links). */
export function snapshotOrder(o: SimOrder): OrderSnapshot {
  return Object.freeze({
    oid: o.oid,
    userId: o.userId,
    accountId: o.accountId,
    symbol: o.symbol,
    side: o.side,
    priceTicks: o.priceTicks,
    priceText: o.priceText,
    qty: o.qty,
    filledQty: o.filledQty,
    remainingQty: o.remainingQty,
    state: o.state,
    tif: o.tif,
    postOnly: o.postOnly,
    reprice: o.reprice,
    stp: o.stp,
    tag: o.tag,
    cid: o.cid,
    rejectReason: o.rejectReason,
    text: o.text,
    createdNs: o.createdNs,
    updatedNs: o.updatedNs,
    connId: o.connId,
    replaces: o.replaces,
  });
}
