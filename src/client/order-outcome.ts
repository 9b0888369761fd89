import { MmError, type ErrorCode } from '../core/errors.ts';
import type { ClientOrderId, VenueOrderId } from '../core/ids.ts';
import type { ReplaceOrder } from '../domain/intents.ts';
import type { OrderStatus } from '../domain/order.ts';

/** Failures after which a place/replace may or may not have reached the matching engine. */
const UNKNOWN_OUTCOME: ReadonlySet<ErrorCode> = new Set(['TIMEOUT', 'NETWORK_ERROR', 'SERVER_ERROR', 'GATEWAY_TIMEOUT', 'VENUE_UNAVAILABLE']);

/** True when `e` leaves a place/replace outcome unknown (it must be resolved, never resent blind). */
export const isUnknownOutcome = (e: unknown): e is MmError => e instanceof MmError && UNKNOWN_OUTCOME.has(e.code);

type StatusLookup = (ref: { readonly orderId?: VenueOrderId; readonly clientOrderId?: ClientOrderId }) => Promise<OrderStatus | null>;

/** What a place/replace came to: the venue id, and `resolvedByStatus` when a status lookup told us. */
export interface EntryOutcome {
  readonly orderId: VenueOrderId;
  readonly resolvedByStatus?: true;
}

function withOutcome(e: MmError, outcome: string, extra: Record<string, unknown> = {}): MmError {
  return new MmError(e.code, `${e.message} [outcome: ${outcome}]`, { ...e.details, ...extra, outcome }, { cause: e });
}

/** Runs `attempt`; a failure that leaves the outcome unknown goes to `resolve`, any other is rethrown. */
async function attemptOrResolve(attempt: () => Promise<{ readonly oid: string }>, resolve: (e: MmError) => Promise<EntryOutcome>): Promise<EntryOutcome> {
  let r: { readonly oid: string };
  try {
    r = await attempt();
  } catch (e) {
    if (!isUnknownOutcome(e)) throw e;
    return resolve(e);
  }
  return { orderId: r.oid as VenueOrderId };
}

/**
 * Runs a place; when its outcome is unknown, asks the venue for the order by `cid`. Found → the
 * place happened (resolves with its id, `resolvedByStatus`). Not found → rethrows the original
 * retryable error marked `outcome: 'not-placed'` so the caller may place again with a new cid.
 * If the lookup itself fails, rethrows marked `outcome: 'unknown'` (reconcile later).
 */
export async function resolvePlaceOutcome(
  attempt: () => Promise<{ readonly oid: string }>,
  cid: ClientOrderId,
  statusByCid: (cid: ClientOrderId) => Promise<OrderStatus | null>,
): Promise<EntryOutcome> {
  return attemptOrResolve(attempt, async (e) => {
    let st: OrderStatus | null;
    try {
      st = await statusByCid(cid);
    } catch (lookupErr) {
      throw withOutcome(e, 'unknown', { clientOrderId: cid, lookupError: lookupErr instanceof Error ? lookupErr.message : String(lookupErr) });
    }
    if (st) return { orderId: st.orderId, resolvedByStatus: true };
    throw withOutcome(e, 'not-placed', { clientOrderId: cid });
  });
}

/**
 * Runs a replace; when its outcome is unknown, looks at the original: REPLACED → the replace
 * happened and the replacement (same cid) is looked up; still open → `outcome: 'not-replaced'`;
 * otherwise (filled, canceled) → `outcome: 'original-terminal'`.
 */
export async function resolveReplaceOutcome(
  attempt: () => Promise<{ readonly oid: string }>,
  intent: Pick<ReplaceOrder, 'orderId' | 'clientOrderId'>,
  status: StatusLookup,
): Promise<EntryOutcome> {
  return attemptOrResolve(attempt, async (e) => {
    const ids = { orderId: intent.orderId, clientOrderId: intent.clientOrderId };
    try {
      const original = await status({ orderId: intent.orderId });
      if (original === null) throw withOutcome(e, 'unknown', ids);
      if (original.state === 'ACCEPTED' || original.state === 'PARTIALLY_FILLED' || original.state === 'PENDING') {
        throw withOutcome(e, 'not-replaced', ids);
      }
      if (original.state !== 'REPLACED') throw withOutcome(e, 'original-terminal', { ...ids, originalState: original.state });
      const replacement = await status({ clientOrderId: intent.clientOrderId });
      if (replacement && replacement.orderId !== intent.orderId) return { orderId: replacement.orderId, resolvedByStatus: true };
      throw withOutcome(e, 'replaced-id-unknown', ids);
    } catch (inner) {
      if (inner instanceof MmError && typeof inner.details['outcome'] === 'string') throw inner;
      throw withOutcome(e, 'unknown', { ...ids, lookupError: inner instanceof Error ? inner.message : String(inner) });
    }
  });
}
