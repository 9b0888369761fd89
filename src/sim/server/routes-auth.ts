import type { Permissions } from '../accounts/account.ts';
import { PERMISSION_NAMES } from '../auth/auth-service.ts';
import { isIpEntry } from '../auth/ip-allowlist.ts';
import type { VenuePluginContext } from '../plugin.ts';
import { HttpError, ok, type RouteContext } from './http-kit.ts';
import { asObject } from './request-parse.ts';
import { rfc3339Ns } from './wire-out.ts';

const VERSION = '16.3.0';

function ipList(v: unknown, name: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && isIpEntry(x))) throw new HttpError(400, `${name} must be an array of IP addresses or CIDR blocks`);
  return v as string[];
}

/** A cookie value percent-decoded, or as sent when its escapes are malformed (it then matches no token). */
function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

function keyOf(ctx: RouteContext): string {
  const fromQuery = ctx.query.get('api_key');
  const body = ctx.body === undefined ? {} : asObject(ctx.body);
  const k = fromQuery ?? body['api_key'];
  if (typeof k !== 'string' || k === '') throw new HttpError(400, 'api_key is required');
  return k;
}

/** Authentication, API keys, logout, whoami and health. */
export function registerAuthRoutes({ router, venue }: VenuePluginContext): void {
  router.post(
    '/api/authenticate',
    (ctx) => {
      const b = asObject(ctx.body);
      for (const k of Object.keys(b)) {
        if (k !== 'api_key' && k !== 'api_secret' && k !== 'expiration_seconds') throw new HttpError(400, `unexpected field ${k}: authenticate takes only api_key, api_secret and expiration_seconds`);
      }
      if (typeof b['api_key'] !== 'string' || typeof b['api_secret'] !== 'string') throw new HttpError(400, 'api_key and api_secret are required strings');
      const exp = b['expiration_seconds'];
      if (exp !== undefined && (typeof exp !== 'number' || !Number.isInteger(exp))) throw new HttpError(400, 'expiration_seconds must be an integer');
      const r = venue.auth.authenticate(b['api_key'], b['api_secret'], exp as number | undefined, ctx.ip);
      if (!r.ok) throw new HttpError(r.error.status, r.error.message);
      return ok({ token: r.value.token });
    },
    { auth: false },
  );

  router.post('/api/api-keys', (ctx) => {
    const s = ctx.session!;
    const b = ctx.body === undefined ? {} : asObject(ctx.body);
    let accountIds: string[] | null = null;
    if (b['account_ids'] !== undefined) {
      if (!Array.isArray(b['account_ids']) || !b['account_ids'].every((a) => typeof a === 'string')) throw new HttpError(400, 'account_ids must be an array of strings');
      accountIds = b['account_ids'] as string[];
      for (const a of accountIds) if (!venue.auth.permissions(s, a)) throw new HttpError(403, `not authorized for account ${a}`);
    }
    let permissions: Partial<Permissions> | null = null;
    if (b['permissions'] !== undefined) {
      const p = asObject(b['permissions'], 'permissions');
      const out: Record<string, boolean> = {};
      for (const [k, v] of Object.entries(p)) {
        if (!(PERMISSION_NAMES as readonly string[]).includes(k) || typeof v !== 'boolean') throw new HttpError(400, `permissions.${k} is not a known boolean permission`);
        out[k] = v;
      }
      permissions = out;
    }
    const allowedIps = b['allowed_ips'] === undefined ? null : ipList(b['allowed_ips'], 'allowed_ips');
    // A key created by a restricted key stays within the creator's key scope.
    const creator = venue.auth.key(s.apiKey);
    if (accountIds === null && creator?.accountIds) accountIds = [...creator.accountIds];
    if (creator?.permissions) {
      const cp = creator.permissions;
      const merged: Record<string, boolean> = {};
      for (const n of PERMISSION_NAMES) merged[n] = cp[n] && (permissions ? (permissions[n] ?? false) : true);
      permissions = merged;
    }
    const rec = venue.auth.createKey(s.userId, { accountIds, allowedIps, permissions });
    return ok({ api_key: rec.apiKey, api_secret: rec.apiSecret });
  });

  router.add('DELETE', '/api/api-keys', (ctx) => {
    const k = keyOf(ctx);
    if (!venue.auth.revokeKey(ctx.session!.userId, k)) throw new HttpError(404, `api key ${k} not found`);
    return ok({});
  });

  router.add('PATCH', '/api/api-keys/allowed-ips', (ctx) => {
    const b = asObject(ctx.body);
    const k = keyOf(ctx);
    const ips = b['allowed_ips'] === null ? [] : ipList(b['allowed_ips'], 'allowed_ips');
    if (!venue.auth.setAllowedIps(ctx.session!.userId, k, ips)) throw new HttpError(404, `api key ${k} not found`);
    return ok({});
  });

  router.post('/api/logout', (ctx) => {
    const s = ctx.session!;
    venue.auth.revokeToken(s.token, s);
    // A cookie token is revoked only when the caller's own user and key got it: logout must not be
    // a way to end someone else's session by naming its token.
    const cookie = /(?:^|;\s*)token=([^;]+)/.exec(String(ctx.req.headers.cookie ?? ''))?.[1];
    if (cookie) venue.auth.revokeToken(safeDecode(cookie), s);
    return ok({});
  });

  router.get('/api/whoami', (ctx) => {
    const s = ctx.session!;
    const user = venue.accounts.users.get(s.userId)!;
    const accounts = venue.auth.accountsOf(s).map((id) => {
      const a = venue.accounts.account(id)!;
      const p = venue.auth.permissions(s, id)!;
      return {
        id,
        name: a.name,
        is_close_only: a.isCloseOnly,
        maker_fee: a.makerFee.toFixed(),
        taker_fee: a.takerFee.toFixed(),
        can_list: p.can_list,
        can_read: p.can_read,
        can_set_limits: p.can_set_limits,
        can_reduce_or_close: p.can_reduce_or_close,
        can_trade: p.can_trade,
      };
    });
    return ok({
      id: user.id,
      username: user.username,
      pseudonym: user.username,
      created_at: rfc3339Ns(user.createdNs),
      is_onboarded: true,
      is_frozen: false,
      is_admin: user.isAdmin,
      require_2fa: false,
      fiat_deposit_code: user.id.slice(-8),
      accounts,
    });
  });

  const health = () => ok({ status: 'ok', timestamp: new Date(venue.clock.nowMs()).toISOString(), version: VERSION });
  router.get('/api/health', health, { auth: false });
  router.get('/orders/health', health, { auth: false });
}
