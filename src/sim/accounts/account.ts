import { ZERO, type Decimal } from '../../core/decimal.ts';
import type { Side } from '../../domain/enums.ts';
import { RingBuffer } from '../history/ring-buffer.ts';
import { OpenOrders } from './open-orders.ts';

/** The venue's per-account permissions (whoami / API key permission names). */
export interface Permissions {
  readonly can_list: boolean;
  readonly can_read: boolean;
  readonly can_reduce_or_close: boolean;
  readonly can_set_limits: boolean;
  readonly can_trade: boolean;
}

/** Every permission granted. */
export const FULL_PERMISSIONS: Permissions = Object.freeze({
  can_list: true,
  can_read: true,
  can_reduce_or_close: true,
  can_set_limits: true,
  can_trade: true,
});

/** Per-symbol net position: signed contracts, signed cost basis (Σ price×qty×mult), realized PnL excluding fees. */
export interface Position {
  signedQty: number;
  costBasis: Decimal;
  realizedPnl: Decimal;
  lastFillNs: bigint;
}

/** A fill as REST `/api/fills` reports it (domain-ish units: ticks stay decimal strings here). */
export interface FillRecord {
  readonly tradeId: string;
  readonly orderId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly price: Decimal;
  readonly qty: number;
  readonly side: Side;
  readonly isTaker: boolean;
  readonly fee: Decimal;
  /** Null when the fill only opened or increased the position. */
  readonly realizedPnl: Decimal | null;
  readonly tsNs: bigint;
  readonly isFinalSettlement: boolean;
}

/** A ledger row: fee, pnl, funding, deposit, withdrawal, ... */
export interface LedgerEntry {
  readonly eventId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly amount: Decimal;
  readonly type: string;
  readonly referenceId: string;
  readonly tsNs: bigint;
  readonly seq: number;
  readonly initiatedByUserId: string | null;
  /** Extra fields a plugin attaches (funding rate, settlement price...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Per-symbol aggregate of an account's open orders, kept incrementally for O(1) margin checks. */
export interface OpenOrderAgg {
  buyQty: number;
  /** Σ priceTicks × qty over open buys (integer, exact; converted to USD only when margin is computed). */
  buyTickQty: number;
  sellQty: number;
  sellTickQty: number;
  count: number;
}

/** A trading account: balance, positions, fills, ledger and live orders. */
export interface Account {
  readonly id: string;
  readonly userId: string;
  name: string;
  makerFee: Decimal;
  takerFee: Decimal;
  balance: Decimal;
  isCloseOnly: boolean;
  isFrozen: boolean;
  /**
   * Internal accounts (synthetic flow) skip rate limits, margin and the open-order cap, and keep
   * only their signed quantity per symbol (no cost basis, PnL, fees, fills or ledger).
   */
  readonly internal: boolean;
  readonly positions: Map<string, Position>;
  /** The newest fills (`retention.fills_per_account`). */
  readonly fills: RingBuffer<FillRecord>;
  /** The newest ledger rows (`retention.ledger_per_account`). */
  readonly ledger: RingBuffer<LedgerEntry>;
  /** The newest liquidation records (`retention.liquidations_per_account`). */
  readonly liquidations: RingBuffer<unknown>;
  /** Open (resting) orders in insertion order (intrusive list: no hashing on the hot path). */
  readonly open: OpenOrders;
  /** Open orders by cid (cid uniqueness is among these). */
  readonly liveByCid: Map<string, string>;
  /** Open-order aggregates per symbol. */
  readonly openAgg: Map<string, OpenOrderAgg>;
  /** Every order of the account in receipt order (history). */
  readonly orderIds: string[];
}

/** How many rows of each history an account keeps. */
export interface AccountRetention {
  readonly fills: number;
  readonly ledger: number;
  readonly liquidations: number;
}

/** Defaults matching the venue config's `retention` defaults. */
export const DEFAULT_ACCOUNT_RETENTION: AccountRetention = Object.freeze({ fills: 50_000, ledger: 100_000, liquidations: 10_000 });

/** Creates an empty account. */
export function newAccount(init: {
  id: string;
  userId: string;
  name: string;
  makerFee: Decimal;
  takerFee: Decimal;
  balance: Decimal;
  internal?: boolean;
  isCloseOnly?: boolean;
  retention?: AccountRetention;
}): Account {
  const keep = init.retention ?? DEFAULT_ACCOUNT_RETENTION;
  return {
    id: init.id,
    userId: init.userId,
    name: init.name,
    makerFee: init.makerFee,
    takerFee: init.takerFee,
    balance: init.balance,
    isCloseOnly: init.isCloseOnly ?? false,
    isFrozen: false,
    internal: init.internal ?? false,
    positions: new Map(),
    fills: new RingBuffer(keep.fills),
    ledger: new RingBuffer(keep.ledger),
    liquidations: new RingBuffer(keep.liquidations),
    open: new OpenOrders(),
    liveByCid: new Map(),
    openAgg: new Map(),
    orderIds: [],
  };
}

/** The position for `symbol`, created flat when missing. */
export function positionOf(acct: Account, symbol: string): Position {
  let p = acct.positions.get(symbol);
  if (!p) {
    p = { signedQty: 0, costBasis: ZERO, realizedPnl: ZERO, lastFillNs: 0n };
    acct.positions.set(symbol, p);
  }
  return p;
}

/** True when an order of `qty` on `side` can only reduce a position of `signedQty` (never open or flip it). */
export function onlyReduces(signedQty: number, side: Side, qty: number): boolean {
  return (side === 'buy' && signedQty < 0 && qty <= -signedQty) || (side === 'sell' && signedQty > 0 && qty <= signedQty);
}

/** The open-order aggregate for `symbol`, created empty when missing. */
export function aggOf(acct: Account, symbol: string): OpenOrderAgg {
  let a = acct.openAgg.get(symbol);
  if (!a) {
    a = { buyQty: 0, buyTickQty: 0, sellQty: 0, sellTickQty: 0, count: 0 };
    acct.openAgg.set(symbol, a);
  }
  return a;
}

/**
 * Applies a fill to a netting position and returns the realized PnL (null when the fill only
 * opened or increased). Closing realizes against the average cost; a flip opens the rest at `price`.
 */
export function applyFillToPosition(pos: Position, side: Side, qty: number, price: Decimal, multiplier: Decimal, tsNs: bigint): Decimal | null {
  const s = side === 'buy' ? qty : -qty;
  const q0 = pos.signedQty;
  pos.lastFillNs = tsNs;
  if (q0 === 0 || Math.sign(q0) === Math.sign(s)) {
    pos.signedQty = q0 + s;
    pos.costBasis = pos.costBasis.plus(price.mul(s).mul(multiplier));
    return null;
  }
  const closeQty = Math.min(Math.abs(s), Math.abs(q0));
  const avg = pos.costBasis.div(q0); // per contract incl. multiplier, signed consistently
  const dir = Math.sign(q0);
  const pnl = price.mul(multiplier).minus(avg).mul(closeQty * dir);
  pos.realizedPnl = pos.realizedPnl.plus(pnl);
  const remainingOld = q0 - dir * closeQty;
  pos.costBasis = remainingOld === 0 ? ZERO : avg.mul(remainingOld);
  const opened = s + dir * closeQty; // the part of the fill beyond the old position (flip)
  pos.signedQty = remainingOld + opened;
  if (opened !== 0) pos.costBasis = price.mul(opened).mul(multiplier);
  return pnl;
}
