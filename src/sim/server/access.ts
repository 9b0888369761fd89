import { isUlid } from '../../core/ulid.ts';
import { onlyReduces, type Permissions } from '../accounts/account.ts';
import type { Session } from '../auth/auth-service.ts';
import type { Venue } from '../venue.ts';
import { HttpError } from './http-kit.ts';

/** An account the caller may act on, with the effective permissions there. */
export interface AccountAccess {
  readonly accountId: string;
  readonly permissions: Permissions;
}

/**
 * Resolves the account of a request: the given id (400 when malformed, 403 when not authorized),
 * else the session's default account (400 "account_id is required" when it has none).
 */
export function resolveAccount(venue: Venue, session: Session, requested: unknown): AccountAccess {
  if (requested === undefined || requested === null || requested === '') {
    const def = venue.auth.defaultAccount(session);
    if (!def) throw new HttpError(400, 'account_id is required');
    return { accountId: def, permissions: venue.auth.permissions(session, def)! };
  }
  if (typeof requested !== 'string' || !isUlid(requested)) throw new HttpError(400, `account_id ${JSON.stringify(requested)} is malformed`);
  const perms = venue.auth.permissions(session, requested);
  if (!perms) throw new HttpError(403, `not authorized for account ${requested}`);
  return { accountId: requested, permissions: perms };
}

/** Requires a permission on the resolved account (403 otherwise). */
export function requirePermission(access: AccountAccess, perm: keyof Permissions): void {
  if (!access.permissions[perm]) throw new HttpError(403, `${perm} permission is required on account ${access.accountId}`);
}

/**
 * Order entry needs `can_trade`, or `can_reduce_or_close` for an order that only reduces the
 * position (403 otherwise).
 */
export function requireOrderEntry(venue: Venue, access: AccountAccess, symbol: string, side: 'buy' | 'sell', qty: number): void {
  if (access.permissions.can_trade) return;
  if (access.permissions.can_reduce_or_close) {
    const pos = venue.accounts.account(access.accountId)?.positions.get(symbol)?.signedQty ?? 0;
    if (onlyReduces(pos, side, qty)) return;
    throw new HttpError(403, 'can_reduce_or_close only allows orders that reduce the position');
  }
  throw new HttpError(403, `can_trade permission is required on account ${access.accountId}`);
}

/** Cancels need `can_trade` or `can_reduce_or_close`. */
export function requireCancel(access: AccountAccess): void {
  if (!access.permissions.can_trade && !access.permissions.can_reduce_or_close) {
    throw new HttpError(403, `can_trade permission is required on account ${access.accountId}`);
  }
}
