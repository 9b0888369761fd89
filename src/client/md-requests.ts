import { MmError } from '../core/errors.ts';
import type { WireMdRequest } from '../wire/index.ts';
import type { DistributiveOmit } from './stream-types.ts';

/** A market-data request as the registry builds it (the rid is added here). */
export type MdRequestBody = DistributiveOmit<WireMdRequest, 'rid'>;

/** What a sent request was: its type and the subscription key (`SYMBOL` or `SYMBOL:width`). */
export interface MdRequestInfo {
  readonly kind: string;
  readonly key: string;
}

/** A refusal of a market-data request, and whether its subscription should be dropped. */
export interface MdRefusal {
  readonly error: MmError;
  /** The subscription to forget: a client error (unknown symbol) will not heal by retrying. */
  readonly drop: MdRequestInfo | null;
}

/**
 * Market-data requests awaiting the venue's answer, by rid. Subscriptions are fire-and-forget (a
 * success needs nothing), so unlike the order WS there are no deadlines: a reply only matters when
 * it refuses, and then it is turned into an MmError naming the request.
 */
export class MdPendingRequests {
  readonly #pending = new Map<number, MdRequestInfo>();
  #rid = 1;

  /** Registers `req` and returns it with its rid. */
  add(req: MdRequestBody): WireMdRequest {
    const rid = this.#rid++;
    const key = 'width' in req ? `${req.symbol}:${String(req.width)}` : req.symbol;
    this.#pending.set(rid, { kind: req.type, key });
    return { ...req, rid } as WireMdRequest;
  }

  /** Forgets every request (a new connection answers none of the old ones). */
  clear(): void {
    this.#pending.clear();
  }

  /** Settles `rid` with the venue's reply; a refusal when it carries an error, else null. */
  settle(rid: number, error: { readonly message: string; readonly code: number } | undefined): MdRefusal | null {
    const req = this.#pending.get(rid);
    this.#pending.delete(rid);
    if (!error) return null;
    const code = error.code === 404 ? 'NOT_FOUND' : error.code >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST';
    const err = new MmError(code, `market-data ${req?.kind ?? 'request'} ${req?.key ?? ''} refused (${error.code}): ${error.message}`, {
      rid,
      status: error.code,
      venueMessage: error.message,
      ...(req ? { request: req.kind, key: req.key } : {}),
    });
    const drop = req && error.code >= 400 && error.code < 500 && req.kind.startsWith('subscribe') ? req : null;
    return { error: err, drop };
  }
}
