/** The venue's order object and its companions (order WS, open-orders, order history, status). */
import type {
  DateTimeString,
  DecimalString,
  WireCid,
  WireEnum,
  WireOrderState,
  WireRejectReason,
  WireReprice,
  WireSide,
  WireTif,
} from './common.ts';

/**
 * One order as the venue describes it (login `o`, event `o`/`ro`/`no`, open-orders, history).
 * `cid`, `tag`, `r`, `txt` are omitted by the venue when unset; `r` is `null` on post-only rejects.
 */
export interface WireOrder {
  readonly oid: string;
  /** User id (not a UUID in practice); optional because nothing depends on it. */
  readonly u?: string | undefined;
  readonly aid: string;
  readonly s: string;
  readonly p: DecimalString;
  readonly q: number;
  readonly xq: number;
  readonly rq: number;
  readonly o: WireEnum<WireOrderState>;
  readonly d: WireEnum<WireSide>;
  readonly tif: WireEnum<WireTif>;
  readonly po: boolean;
  /** Stored reprice behaviour; the venue reports `rej` even when `po` is false. */
  readonly rb?: WireEnum<WireReprice> | undefined;
  readonly cid?: WireCid | undefined;
  readonly tag?: string | undefined;
  readonly r?: WireEnum<WireRejectReason> | null | undefined;
  readonly txt?: string | undefined;
  /** Receipt time: epoch seconds plus a nanosecond part. */
  readonly ts: number;
  readonly tn: number;
}

/** Fill detail on `p`/`f` events: `d` is the side of this order, `agg` true when it was the taker. */
export interface WireFillDetail {
  readonly tid: string;
  readonly aid: string;
  readonly s: string;
  readonly q: number;
  readonly p: DecimalString;
  readonly d: WireEnum<WireSide>;
  readonly agg: boolean;
}

/** The order-status record (WS `s` reply `res.status`, REST `/orders/order-status` `status`). */
export interface WireOrderStatus {
  readonly symbol: string;
  readonly order_id: string;
  readonly clord_id?: WireCid | null | undefined;
  readonly state: WireEnum<WireOrderState>;
  readonly filled_quantity: number;
  readonly remaining_quantity: number;
  readonly reject_reason?: WireEnum<WireRejectReason> | null | undefined;
  readonly reject_message?: string | null | undefined;
}

/** A fill record from REST (`/api/fills`, `/orders/order-fills`); `realized_pnl` null on opening fills. */
export interface WireFill {
  readonly trade_id: string;
  readonly order_id: string;
  readonly account_id: string;
  readonly timestamp: DateTimeString;
  readonly symbol: string;
  readonly price: DecimalString;
  readonly quantity: number;
  readonly is_taker: boolean;
  readonly fee: DecimalString;
  readonly side: WireEnum<WireSide>;
  readonly realized_pnl: DecimalString | null;
  /** Listed by the seed, absent in the captures. */
  readonly is_block_trade?: boolean | undefined;
  readonly is_final_settlement?: boolean | undefined;
}
