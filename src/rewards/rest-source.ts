import type { Clock } from '../core/clock.ts';
import { err, ok } from '../core/result.ts';
import { undiciTransport } from '../client/http-transport.ts';
import { RestCore } from '../client/rest-core.ts';
import { TokenManager } from '../client/token-manager.ts';
import type { WireRewardAccrualsQuery, WireRewardAccrualsResponse } from '../wire/index.ts';
import { decodeRewardAccrualsBody } from './decode.ts';
import type { RewardSource } from './types.ts';
import { fromWireRewardPage, toWireRewardQuery } from './wire-map.ts';

/** The accruals endpoint path (v2, under /mmlp). */
export const REWARD_ACCRUALS_PATH = '/api/mmlp/v2/reward-accruals';

/**
 * A RewardSource over the client's REST core (bearer token, retries, error mapping). Reads are
 * safe, so the core retries them on retryable failures before the tracker's own back-off.
 */
export function restRewardSource(core: RestCore): RewardSource {
  return {
    async rewardAccruals(query) {
      const wire = await core.call({
        method: 'GET',
        path: REWARD_ACCRUALS_PATH,
        query: queryOf(toWireRewardQuery(query)),
        auth: true,
        safe: true,
        decode: decodeRewardAccrualsBody,
      });
      return fromWireRewardPage(wire);
    },
  };
}

function queryOf(q: WireRewardAccrualsQuery): Record<string, string | number | undefined> {
  const st = q.payout_status;
  return { ...q, payout_status: st === undefined ? undefined : typeof st === 'string' ? st : st.unknown };
}

/** The part of the client's RestClient the tracker needs (structural, so tests can fake it). */
export interface RewardRestPort {
  rewardAccruals(q: WireRewardAccrualsQuery): Promise<WireRewardAccrualsResponse>;
}

/** A RewardSource over the client's `RestClient.rewardAccruals` (decoded by the client). */
export function clientRewardSource(rest: RewardRestPort): RewardSource {
  return { rewardAccruals: async (q) => fromWireRewardPage(await rest.rewardAccruals(toWireRewardQuery(q))) };
}

/** Connection settings for a standalone reward source (the `mmbot rewards` command). */
export interface RewardConnection {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly clock: Clock;
  /** Per-request deadline, ms (default 10 s). */
  readonly requestTimeoutMs?: number;
  /** Retries of a failed read before giving up (default 2). */
  readonly maxRetries?: number;
}

/**
 * Builds transport, token lifecycle and REST core for one venue and returns a RewardSource plus
 * `close()`. Used where no full REST client is running (CLI reports); the daemon passes its own.
 */
export function connectRewardSource(c: RewardConnection): { readonly source: RewardSource; close(): Promise<void> } {
  const transport = undiciTransport(c.baseUrl, { clock: c.clock, connections: 2 });
  const auth = new RestCore({ transport, clock: c.clock, maxRetries: c.maxRetries ?? 2, requestTimeoutMs: c.requestTimeoutMs ?? 10_000 });
  const tokens = new TokenManager({
    clock: c.clock,
    lifetimeS: 3600,
    authenticate: async (lifetimeS) => {
      const r = await auth.call({
        method: 'POST',
        path: '/api/authenticate',
        body: { api_key: c.apiKey, api_secret: c.apiSecret, expiration_seconds: lifetimeS },
        auth: false,
        safe: true,
        decode: (v: unknown) =>
          typeof v === 'object' && v !== null && typeof (v as { token?: unknown }).token === 'string'
            ? ok((v as { token: string }).token)
            : err({ path: '$.token', message: '$.token: expected a string' }),
      });
      return r;
    },
  });
  const core = new RestCore({ transport, clock: c.clock, tokens, maxRetries: c.maxRetries ?? 2, requestTimeoutMs: c.requestTimeoutMs ?? 10_000 });
  return {
    source: restRewardSource(core),
    async close() {
      tokens.close();
      await transport.close();
    },
  };
}
