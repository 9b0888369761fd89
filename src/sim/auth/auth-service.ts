import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { FULL_PERMISSIONS, type Permissions } from '../accounts/account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { ipAllowed } from './ip-allowlist.ts';
import { LoginLimiter, type LoginLimits } from './login-limiter.ts';

/** An API key: owner, optional account scope, optional IP allowlist, optional permission cap. */
export interface ApiKeyRecord {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly userId: string;
  /** Null = every account the owner can access (now and later). */
  readonly accountIds: readonly string[] | null;
  allowedIps: readonly string[] | null;
  /** Null = full permissions (behaves as the user). */
  readonly permissions: Permissions | null;
  revoked: boolean;
}

/** An authenticated session (one bearer token). */
export interface Session {
  readonly token: string;
  readonly userId: string;
  readonly apiKey: string;
  readonly expiresMs: number;
}

/** An auth failure mapped to its HTTP status (401 bad/expired token or credentials, 403 IP or scope, 400 malformed). */
export interface AuthFailure {
  readonly status: 400 | 401 | 403 | 429;
  readonly message: string;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: AuthFailure };

interface TokenRecord extends Session {
  revoked: boolean;
}

/** Token lifetimes, login budgets and the live-token cap of an AuthService. */
export interface AuthLimits {
  readonly defaultExpirationSeconds: number;
  readonly maxExpirationSeconds: number;
  /** Default DEFAULT_LOGIN_LIMITS. */
  readonly logins?: LoginLimits;
  /** Default DEFAULT_MAX_LIVE_TOKENS_PER_KEY. */
  readonly maxLiveTokensPerKey?: number;
}

/** Login budgets: 10 failures or 600 logins a minute per IP and per key. */
export const DEFAULT_LOGIN_LIMITS: LoginLimits = { maxFailuresPerWindow: 10, maxAttemptsPerWindow: 600, windowMs: 60_000 };
/** Live tokens kept per API key; the oldest are dropped beyond. */
export const DEFAULT_MAX_LIVE_TOKENS_PER_KEY = 100;

/** Compares secrets in constant time (hashes of equal length, whatever was sent). */
function sameSecret(expected: string, given: string): boolean {
  const h = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(expected), h(given));
}

/** Expired tokens are forgotten this long (venue ms) after their expiry. */
export const TOKEN_GRACE_MS = 3_600_000;

/** Permission names in the venue's order. */
export const PERMISSION_NAMES = ['can_list', 'can_read', 'can_reduce_or_close', 'can_set_limits', 'can_trade'] as const;

/**
 * API keys and session tokens. Effective permission on an account = key permissions ∩ the owner's
 * current permissions on that account (so a key never out-ranks its owner, even after the owner's
 * rights shrink). Token expiry uses the venue clock.
 */
export class AuthService {
  readonly #keys = new Map<string, ApiKeyRecord>();
  readonly #tokens = new Map<string, TokenRecord>();
  readonly #clock: Clock;
  readonly #accounts: AccountRegistry;
  readonly #limits: AuthLimits;
  readonly #logins: LoginLimiter;
  #nextSweepMs = 0;

  constructor(clock: Clock, accounts: AccountRegistry, limits: AuthLimits) {
    this.#clock = clock;
    this.#accounts = accounts;
    this.#limits = limits;
    this.#logins = new LoginLimiter(clock, limits.logins ?? DEFAULT_LOGIN_LIMITS);
  }

  /** Creates a key for `userId`. Fixed key/secret may be given (the default user's, from config). */
  createKey(
    userId: string,
    opts: { accountIds?: readonly string[] | null; allowedIps?: readonly string[] | null; permissions?: Partial<Permissions> | null; apiKey?: string; apiSecret?: string } = {},
  ): ApiKeyRecord {
    const rec: ApiKeyRecord = {
      apiKey: opts.apiKey ?? `ak_${randomBytes(12).toString('hex')}`,
      apiSecret: opts.apiSecret ?? randomBytes(24).toString('hex'),
      userId,
      accountIds: opts.accountIds ?? null,
      allowedIps: opts.allowedIps ?? null,
      permissions: opts.permissions ? { ...noPermissions(), ...opts.permissions } : null,
      revoked: false,
    };
    this.#keys.set(rec.apiKey, rec);
    return rec;
  }

  /** The key record, if it exists. */
  key(apiKey: string): ApiKeyRecord | undefined {
    return this.#keys.get(apiKey);
  }

  /** Exchanges key + secret for a bearer token valid `expirationSeconds` (venue time). */
  authenticate(apiKey: string, apiSecret: string, expirationSeconds: number | undefined, ip: string): Outcome<Session> {
    const k = this.#keys.get(apiKey);
    const valid = !!k && !k.revoked && sameSecret(k.apiSecret, apiSecret);
    const refused = this.#logins.admit(ip, apiKey, valid);
    if (refused !== null) {
      const what = refused.by === 'key' ? 'too many logins for this api_key' : `too many failed logins from ${ip}`;
      return { ok: false, error: { status: 429, message: `${what}; retry in ${refused.waitS} s` } };
    }
    if (!k || !valid) return fail(401, 'invalid api_key or api_secret');
    if (!ipAllowed(k.allowedIps, ip)) return fail(403, `IP address ${ip} is not allowed for this API key`);
    const secs = expirationSeconds ?? this.#limits.defaultExpirationSeconds;
    if (!Number.isInteger(secs) || secs <= 0 || secs > this.#limits.maxExpirationSeconds) {
      return fail(400, `expiration_seconds must be an integer in [1, ${this.#limits.maxExpirationSeconds}]`);
    }
    this.#sweepTokens();
    const token = randomBytes(24).toString('base64url');
    const rec: TokenRecord = { token, userId: k.userId, apiKey, expiresMs: this.#clock.nowMs() + secs * 1000, revoked: false };
    this.#tokens.set(token, rec);
    this.#capTokens(apiKey);
    return { ok: true, value: rec };
  }

  /**
   * Keeps at most `maxLiveTokensPerKey` unrevoked tokens per key: the oldest are forgotten (a key
   * logging in in a loop cannot grow the table for the tokens' lifetime; a client renewing its
   * token holds one or two).
   */
  #capTokens(apiKey: string): void {
    const max = this.#limits.maxLiveTokensPerKey ?? DEFAULT_MAX_LIVE_TOKENS_PER_KEY;
    const mine: TokenRecord[] = [];
    for (const t of this.#tokens.values()) if (t.apiKey === apiKey && !t.revoked) mine.push(t);
    // Map order is insertion (login) order: the first are the oldest.
    for (let i = 0; i < mine.length - max; i++) this.#tokens.delete(mine[i]!.token);
  }

  /** Resolves an Authorization header value (`Bearer x` or the bare token) to a live session. */
  resolve(header: string | undefined, ip: string): Outcome<Session> {
    if (!header) return fail(401, 'missing bearer token');
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : header.trim();
    const t = this.#tokens.get(token);
    if (!t || t.revoked) return fail(401, 'invalid or revoked token');
    if (this.#clock.nowMs() >= t.expiresMs) return fail(401, 'token expired');
    const k = this.#keys.get(t.apiKey);
    if (!k || k.revoked) return fail(401, 'invalid or revoked token');
    if (!ipAllowed(k.allowedIps, ip)) return fail(403, `IP address ${ip} is not allowed for this API key`);
    return { ok: true, value: t };
  }

  /** Effective permissions of the session on `accountId`, or null when the account is out of scope. */
  permissions(session: Session, accountId: string): Permissions | null {
    const user = this.#accounts.users.get(session.userId);
    const owner = user?.permissions.get(accountId);
    if (!owner) return null;
    const k = this.#keys.get(session.apiKey);
    if (!k) return null;
    if (k.accountIds && !k.accountIds.includes(accountId)) return null;
    const kp = k.permissions ?? FULL_PERMISSIONS;
    return {
      can_list: kp.can_list && owner.can_list,
      can_read: kp.can_read && owner.can_read,
      can_reduce_or_close: kp.can_reduce_or_close && owner.can_reduce_or_close,
      can_set_limits: kp.can_set_limits && owner.can_set_limits,
      can_trade: kp.can_trade && owner.can_trade,
    };
  }

  /** Accounts the session may act on, in the owner's order. */
  accountsOf(session: Session): string[] {
    const user = this.#accounts.users.get(session.userId);
    if (!user) return [];
    return user.accountIds.filter((a) => this.permissions(session, a) !== null);
  }

  /** The default account: the user's primary if in scope, else the key's first account; null when none. */
  defaultAccount(session: Session): string | null {
    return this.accountsOf(session)[0] ?? null;
  }

  /** Revokes a key (owned by `userId`) and every token created from it. False when not found. */
  revokeKey(userId: string, apiKey: string): boolean {
    const k = this.#keys.get(apiKey);
    if (!k || k.userId !== userId || k.revoked) return false;
    k.revoked = true;
    for (const t of this.#tokens.values()) if (t.apiKey === apiKey) t.revoked = true;
    return true;
  }

  /** Replaces a key's IP allowlist (null or empty = any IP). False when not found. */
  setAllowedIps(userId: string, apiKey: string, ips: readonly string[] | null): boolean {
    const k = this.#keys.get(apiKey);
    if (!k || k.userId !== userId || k.revoked) return false;
    k.allowedIps = ips && ips.length > 0 ? [...ips] : null;
    return true;
  }

  /** Live plus recently expired or revoked tokens held (bounded by the sweep). */
  get tokenCount(): number {
    return this.#tokens.size;
  }

  /**
   * Forgets tokens expired for over TOKEN_GRACE_MS (a session renewing every hour would otherwise
   * add a record an hour forever). Within the grace an old token still answers "token expired"
   * rather than "invalid token". Runs at most once per grace period, at a login.
   */
  #sweepTokens(): void {
    const now = this.#clock.nowMs();
    if (now < this.#nextSweepMs) return;
    this.#nextSweepMs = now + TOKEN_GRACE_MS;
    for (const [k, t] of this.#tokens) if (now >= t.expiresMs + TOKEN_GRACE_MS) this.#tokens.delete(k);
  }

  /**
   * Revokes one token (logout) when it was issued to the caller's own user and key; false (nothing
   * changed) otherwise: a read-only key must not end another user's, or its trading key's, session.
   */
  revokeToken(token: string, caller: Pick<Session, 'userId' | 'apiKey'>): boolean {
    const t = this.#tokens.get(token);
    if (!t || t.userId !== caller.userId || t.apiKey !== caller.apiKey) return false;
    t.revoked = true;
    return true;
  }

  /** True while the token is live (WS sessions check it on each request). */
  isLive(token: string): boolean {
    const t = this.#tokens.get(token);
    return !!t && !t.revoked && this.#clock.nowMs() < t.expiresMs && !this.#keys.get(t.apiKey)?.revoked;
  }
}

function fail(status: AuthFailure['status'], message: string): { ok: false; error: AuthFailure } {
  return { ok: false, error: { status, message } };
}

/** A permission set with everything false (keys given explicit permissions start here). */
export function noPermissions(): Permissions {
  return { can_list: false, can_read: false, can_reduce_or_close: false, can_set_limits: false, can_trade: false };
}
