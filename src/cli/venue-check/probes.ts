/**
 * The checks of `mmbot venue check` over the network: the REST host, a login, the key's account
 * and permissions, the configured symbols, the clock skew, both sockets, the rate budget and the
 * optional test order. Each is a `VenueCheck` for the pure runner (run-checks.ts); the clients are
 * the daemon's own (src/client), so a check passes only if the daemon's code path works.
 */
import { firstValueFrom, map, merge, type Observable } from 'rxjs';
import { MmError, type ErrorCode } from '../../core/errors.ts';
import type { Clock } from '../../core/clock.ts';
import type { Instrument, InstrumentCatalog } from '../../domain/instrument.ts';
import { RestClient } from '../../client/rest-client.ts';
import type { StreamConnection } from '../../client/stream-types.ts';
import { OrderWsClient } from '../../client/order-ws-client.ts';
import { MarketDataWsClient } from '../../client/md-ws-client.ts';
import type { RateBudget } from '../../execution/config.ts';
import type { WireAccountEntry } from '../../wire/index.ts';
import type { VenueEndpoint } from '../../app/live/venue-endpoint.ts';
import { clockSkew } from './clock-skew.ts';
import { checkRateBudget, VENUE_USER_BUDGET, type BucketLimit } from './rate-budget.ts';
import { placeAndCancel } from './place-test.ts';
import type { VenueCheck } from './run-checks.ts';

/** What the checks need: where the venue is, what the config trades, and the limits to hold. */
export interface ProbeOptions {
  readonly endpoint: VenueEndpoint;
  readonly clock: Clock;
  readonly symbols: readonly string[];
  readonly budgets: readonly RateBudget[];
  /** The venue's per-user order budget (default: the assumed one); null when it sets none. */
  readonly venueBudget?: BucketLimit | null;
  /** Largest tolerated |venue clock − ours|, ms. */
  readonly maxSkewMs: number;
  /** Deadline of each socket check, ms. */
  readonly socketTimeoutMs: number;
  readonly placeTest: boolean;
}

/** The checks plus `close()`, which stops every client they opened. */
export interface VenueProbes {
  readonly checks: readonly VenueCheck[];
  close(): Promise<void>;
}

const FAST_RETRY = { initialMs: 200, maxMs: 1_000, multiplier: 2, jitter: 0.2 } as const;

/** Says what an error was, in the venue's words where it gave any. */
function describe(e: unknown): string {
  if (e instanceof MmError) return `${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

const REFUSALS: ReadonlySet<ErrorCode> = new Set(['FORBIDDEN', 'BAD_REQUEST', 'NOT_FOUND']);

/** What a socket check watches on its client. */
interface SocketClient {
  readonly errors$: Observable<MmError>;
  readonly connection$: Observable<StreamConnection>;
}

/**
 * Resolves with `ready`, or rejects: at once when the client reports a refusal that retrying will
 * not heal (`REFUSALS`: a 403 or 400 upgrade, a refused subscription; not the 401 the client renews
 * its token for, nor a malformed frame it skips), else after `ms`, naming `what` and the last
 * thing the client said.
 */
async function socketReady<T>(client: SocketClient, ready: Promise<T>, ms: number, what: string): Promise<T> {
  let last: string | undefined;
  let refuse: (e: Error) => void = () => {};
  const refused = new Promise<never>((_, reject) => (refuse = reject));
  const sub = merge(client.errors$, client.connection$.pipe(map((x) => x.reason ?? ''))).subscribe((m) => {
    if (typeof m === 'string') {
      if (m) last = m;
      return;
    }
    last = describe(m);
    if (REFUSALS.has(m.code)) refuse(new Error(`${what}: ${last}`));
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms${last ? `; last: ${last}` : ''}`)), ms);
  });
  try {
    return await Promise.race([ready, refused, deadline]);
  } finally {
    clearTimeout(timer);
    sub.unsubscribe();
  }
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Picks the account to check: the configured one, else the key's first (the daemon's default when it has one). */
function pickAccount(accounts: readonly WireAccountEntry[], wanted: string | undefined): WireAccountEntry {
  if (wanted !== undefined) {
    const a = accounts.find((x) => x.id === wanted);
    if (!a) throw new Error(`account ${wanted} (venue.account_id) is not among the key's accounts: ${accounts.map((x) => x.id).join(', ') || 'none'}`);
    return a;
  }
  if (accounts.length === 0) throw new Error('the key reaches no account');
  return accounts[0]!;
}

/** Builds the checks against `o.endpoint`; nothing is sent until a check runs. */
export function venueProbes(o: ProbeOptions): VenueProbes {
  const ep = o.endpoint;
  const timeoutMs = ep.requestTimeoutMs ?? 5_000;
  const rest = new RestClient({
    baseUrl: ep.baseUrl,
    clock: o.clock,
    credentials: ep.credentials,
    tokenLifetimeS: ep.tokenLifetimeS,
    requestTimeoutMs: timeoutMs,
    ...(ep.maxResponseBytes !== undefined ? { maxResponseBytes: ep.maxResponseBytes } : {}),
    retry: FAST_RETRY,
    maxRetries: 1,
    ...(ep.accountId !== undefined ? { accountId: ep.accountId } : {}),
  });
  let catalog: InstrumentCatalog | undefined;
  let orders: OrderWsClient | undefined;
  let md: MarketDataWsClient | undefined;
  const wsCommon = { wsUrl: ep.wsUrl, clock: o.clock, reconnect: FAST_RETRY } as const;

  const checks: VenueCheck[] = [
    {
      name: 'rest host',
      async run() {
        const t0 = Date.now();
        const api = await rest.health().catch((e: unknown) => {
          throw new Error(`${ep.baseUrl}/api/health did not answer: ${describe(e)}`);
        });
        const ordersHealth = await rest.ordersHealth().catch((e: unknown) => {
          throw new Error(`${ep.baseUrl}/orders/health did not answer: ${describe(e)}`);
        });
        const version = api.version !== undefined ? ` version ${api.version}` : '';
        return `${ep.baseUrl} answers (api ${api.status}, orders ${ordersHealth.status}${version}; ${Date.now() - t0} ms for both)`;
      },
    },
    {
      name: 'authentication',
      needs: ['rest host'],
      async run() {
        try {
          await rest.authenticate(ep.credentials, ep.tokenLifetimeS);
        } catch (e) {
          const refused = e instanceof MmError && (e.code === 'UNAUTHORIZED' || e.code === 'FORBIDDEN' || e.code === 'BAD_REQUEST');
          throw new Error(refused ? `the venue refused the API key or secret (${describe(e)}): check venue.api_key / venue.api_secret` : `no token issued: ${describe(e)}`);
        }
        return `token issued (lifetime ${ep.tokenLifetimeS} s)`;
      },
    },
    {
      name: 'permissions',
      needs: ['authentication'],
      async run() {
        const me = await rest.whoami();
        const a = pickAccount(me.accounts, ep.accountId);
        const missing = (['can_read', 'can_trade'] as const).filter((p) => !a[p]);
        if (missing.length > 0) throw new Error(`the key lacks ${missing.join(' and ')} on account ${a.id} (user ${me.username}): make a key with read and trade permission`);
        if (a.is_frozen === true) throw new Error(`account ${a.id} is frozen`);
        if (a.is_close_only === true) throw new Error(`account ${a.id} is close-only: the bot could not open a position`);
        const granted = (['can_read', 'can_trade', 'can_reduce_or_close', 'can_set_limits', 'can_list'] as const).filter((p) => a[p]);
        // Without venue.account_id the venue picks the user's default account, which whoami does not mark.
        const choose = ep.accountId === undefined && me.accounts.length > 1 ? `; the key reaches ${me.accounts.length} accounts: set venue.account_id to choose` : '';
        return `user ${me.username}, account ${a.id} (maker fee ${a.maker_fee}, taker fee ${a.taker_fee}); ${granted.join(', ')}${choose}`;
      },
    },
    {
      name: 'symbols',
      needs: ['authentication'],
      async run() {
        catalog = await rest.loadInstruments();
        const now = Date.now();
        const found: string[] = [];
        for (const s of o.symbols) {
          const inst = catalog.get(s);
          if (inst === undefined) throw new Error(`${s} is not listed by the venue (${plural(catalog.all().length, 'instrument')} listed)`);
          if (inst.expirationMs !== null && inst.expirationMs <= now) throw new Error(`${s} expired at ${new Date(inst.expirationMs).toISOString()}`);
          const state = (await rest.ticker(s)).ticker.i;
          if (state !== undefined && state !== 'OPEN') throw new Error(`${s} is not trading: state ${state}`);
          found.push(`${s} (tick ${inst.grid.toPrice(1)}, min ${inst.minOrderSize}, ${state ?? 'state not reported'})`);
        }
        return found.join(', ');
      },
    },
    {
      name: 'clock skew',
      needs: ['rest host'],
      async run() {
        const sentMs = Date.now();
        const h = await rest.health();
        const s = clockSkew(h.timestamp, sentMs, Date.now());
        const detail = `${s.skewMs >= 0 ? '+' : ''}${s.skewMs} ms (± ${s.uncertaintyMs} ms${s.wholeSeconds ? ': the venue gives whole seconds' : ' round trip'})`;
        // Only a skew beyond what the measurement cannot tell apart from zero fails.
        if (Math.abs(s.skewMs) - s.uncertaintyMs > o.maxSkewMs) throw new Error(`our clock is off the venue's by ${detail}, over ${o.maxSkewMs} ms: sync the host's clock (NTP)`);
        return detail;
      },
    },
    {
      name: 'order socket',
      needs: ['authentication', 'symbols'],
      async run() {
        // No cancel-on-disconnect: this session places nothing, and a check run beside a daemon on
        // the same key must not risk the venue reading its close as a reason to pull any order.
        const c = new OrderWsClient({ ...wsCommon, tokens: rest.tokens!, instruments: catalog!, requestTimeoutMs: timeoutMs, cancelOnDisconnect: false, ...(ep.accountId !== undefined ? { accountId: ep.accountId } : {}) });
        orders = c;
        c.start();
        const open = await socketReady(c, firstValueFrom(c.resync$), o.socketTimeoutMs, `no login on ${ep.wsUrl}/orders/ws`);
        return `${ep.wsUrl}/orders/ws logged in (${plural(open.length, 'open order')} on the account)`;
      },
    },
    {
      name: 'market-data socket',
      needs: ['authentication', 'symbols'],
      async run() {
        const c = new MarketDataWsClient({ ...wsCommon, tokens: rest.tokens!, instruments: catalog! });
        md = c;
        const symbol = o.symbols[0]!;
        c.subscribeBook(symbol, 2);
        c.start();
        await socketReady(c, firstValueFrom(c.books$), o.socketTimeoutMs, `no ${symbol} book on ${ep.wsUrl}/md/ws`);
        return `${ep.wsUrl}/md/ws subscribed, ${symbol} book received`;
      },
    },
    {
      name: 'rate budget',
      run: () => Promise.resolve(checkRateBudget(o.budgets, o.venueBudget === undefined ? VENUE_USER_BUDGET : o.venueBudget)),
    },
  ];
  if (o.placeTest) {
    checks.push({
      name: 'place test',
      needs: ['permissions', 'symbols', 'order socket'],
      run: () => placeAndCancel(rest, catalog!.get(o.symbols[0]!) as Instrument),
    });
  }
  return {
    checks,
    async close() {
      await Promise.all([orders?.stop(), md?.stop()]);
      await rest.close();
    },
  };
}
