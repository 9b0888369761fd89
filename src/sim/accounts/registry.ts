import { Decimal, ZERO } from '../../core/decimal.ts';
import type { Side } from '../../domain/enums.ts';
import type { Instrument } from '../../domain/instrument.ts';
import type { VenueIds } from '../ids.ts';
import { applyFillToPosition, DEFAULT_ACCOUNT_RETENTION, FULL_PERMISSIONS, newAccount, type AccountRetention, positionOf, type Account, type FillRecord, type LedgerEntry, type Permissions } from './account.ts';

/** A venue user: owns accounts and holds a permission set per account. */
export interface User {
  readonly id: string;
  readonly username: string;
  readonly createdNs: bigint;
  /** Account ids in creation order; the first is the default (primary) account. */
  readonly accountIds: string[];
  readonly permissions: Map<string, Permissions>;
  readonly isAdmin: boolean;
}

/** Options for a new account. Decimal strings for money. */
export interface NewAccountOptions {
  readonly name: string;
  readonly balanceUsd?: string;
  readonly makerFee?: string;
  readonly takerFee?: string;
  readonly isCloseOnly?: boolean;
  readonly permissions?: Partial<Permissions>;
  readonly internal?: boolean;
}

/** Listener for ledger postings (plugins: funding, rewards payouts). */
export type LedgerListener = (entry: LedgerEntry) => void;

/** Users, accounts, fills and the cash ledger. */
export class AccountRegistry {
  readonly users = new Map<string, User>();
  readonly accounts = new Map<string, Account>();
  readonly #ids: VenueIds;
  readonly #now: () => bigint;
  #seq = 0;
  readonly #ledgerListeners = new Set<LedgerListener>();

  readonly #retention: AccountRetention;

  constructor(ids: VenueIds, nowNs: () => bigint, retention: AccountRetention = DEFAULT_ACCOUNT_RETENTION) {
    this.#ids = ids;
    this.#now = nowNs;
    this.#retention = retention;
  }

  /** Creates a user with its accounts; the first account is the primary one (its id equals the user id, as on the venue). */
  createUser(username: string, accounts: readonly NewAccountOptions[], opts: { isAdmin?: boolean } = {}): User {
    const id = this.#ids.ulid();
    const user: User = { id, username, createdNs: this.#now(), accountIds: [], permissions: new Map(), isAdmin: opts.isAdmin ?? false };
    this.users.set(id, user);
    accounts.forEach((a, i) => this.addAccount(user.id, a, i === 0 ? id : undefined));
    return user;
  }

  /** Adds an account to a user. */
  addAccount(userId: string, opts: NewAccountOptions, id?: string): Account {
    const user = this.users.get(userId);
    if (!user) throw new RangeError(`unknown user ${userId}`);
    const acct = newAccount({
      id: id ?? this.#ids.ulid(),
      userId,
      name: opts.name,
      makerFee: new Decimal(opts.makerFee ?? '0'),
      takerFee: new Decimal(opts.takerFee ?? '0.0002'),
      balance: ZERO,
      internal: opts.internal ?? false,
      isCloseOnly: opts.isCloseOnly ?? false,
      retention: this.#retention,
    });
    this.accounts.set(acct.id, acct);
    user.accountIds.push(acct.id);
    user.permissions.set(acct.id, { ...FULL_PERMISSIONS, ...(opts.permissions ?? {}) });
    const bal = new Decimal(opts.balanceUsd ?? '1000000');
    if (!bal.isZero()) this.post(acct.id, 'USD', bal, 'deposit', 'sandbox://initial', null);
    return acct;
  }

  /**
   * Posts cash to an account's USD balance and records a ledger row (fee, pnl, funding, deposit,
   * withdrawal, reward...). Returns the entry.
   */
  post(accountId: string, symbol: string, amount: Decimal, type: string, referenceId: string, initiatedByUserId: string | null, extra?: Record<string, unknown>): LedgerEntry {
    const acct = this.accounts.get(accountId);
    if (!acct) throw new RangeError(`unknown account ${accountId}`);
    acct.balance = acct.balance.plus(amount);
    const entry: LedgerEntry = {
      eventId: this.#ids.ulid(),
      accountId,
      symbol,
      amount,
      type,
      referenceId,
      tsNs: this.#now(),
      seq: ++this.#seq,
      initiatedByUserId,
      ...(extra ? { extra: Object.freeze({ ...extra }) } : {}),
    };
    acct.ledger.push(entry);
    for (const l of this.#ledgerListeners) l(entry);
    return entry;
  }

  /** Subscribes to ledger postings; returns the unsubscribe function. */
  onLedger(fn: LedgerListener): () => void {
    this.#ledgerListeners.add(fn);
    return () => this.#ledgerListeners.delete(fn);
  }

  /**
   * Books a trade side for an internal (synthetic) account: inventory only, no money, fills or
   * ledger rows, so long demo runs do not grow memory and the matching hot path stays off Decimal.
   */
  bookInternalFill(acct: Account, symbol: string, side: Side, qty: number, tsNs: bigint): void {
    const pos = positionOf(acct, symbol);
    pos.signedQty += side === 'buy' ? qty : -qty;
    pos.lastFillNs = tsNs;
  }

  /**
   * Books one side of a trade: position, realized PnL (excl. fees), fee, `fee`/`pnl` ledger rows and
   * the fill record. Returns the record.
   */
  bookFill(acct: Account, ins: Instrument, f: { tradeId: string; orderId: string; side: Side; qty: number; priceTicks: number; isTaker: boolean; tsNs: bigint; isFinalSettlement?: boolean }): FillRecord {
    const price = ins.grid.toDecimal(f.priceTicks);
    const pos = positionOf(acct, ins.symbol);
    const pnl = applyFillToPosition(pos, f.side, f.qty, price, ins.multiplier, f.tsNs);
    const rate = f.isTaker ? acct.takerFee : acct.makerFee;
    const fee = rate.isZero() ? ZERO : price.mul(f.qty).mul(ins.multiplier).mul(rate);
    const ref = `ax-fill://${f.tradeId}`;
    if (!fee.isZero()) this.post(acct.id, ins.symbol, fee.neg(), 'fee', ref, null);
    if (pnl && !pnl.isZero()) this.post(acct.id, ins.symbol, pnl, 'pnl', ref, null);
    const rec: FillRecord = {
      tradeId: f.tradeId,
      orderId: f.orderId,
      accountId: acct.id,
      symbol: ins.symbol,
      price,
      qty: f.qty,
      side: f.side,
      isTaker: f.isTaker,
      fee,
      realizedPnl: pnl,
      tsNs: f.tsNs,
      isFinalSettlement: f.isFinalSettlement ?? false,
    };
    acct.fills.push(rec);
    return rec;
  }

  /** The account, or undefined. */
  account(id: string): Account | undefined {
    return this.accounts.get(id);
  }
}
