import type { RejectReason } from '../domain/enums.ts';
import type { VenueConfig } from './config/venue-config.ts';
import type { Reject } from './orders/validate.ts';

interface ForcedReject {
  readonly reason: RejectReason;
  readonly symbol: string | undefined;
  remaining: number;
  readonly text: string;
}

/**
 * Runtime knobs for realism and tests, initialised from the config and adjustable in-process:
 * ack latency, open-order cap, rate limit, forced rejects and dropping connections.
 */
export class VenueKnobs {
  /** Delay between a place/replace request and its processing, venue ms (a cancel inside it gets 409). */
  ackLatencyMs: number;
  maxOpenOrdersPerSymbol: number;
  rateLimit: { enabled: boolean; burst: number; perSecond: number };
  readonly #forced: ForcedReject[] = [];
  readonly #dropHooks = new Set<(filter: DropFilter) => number>();

  constructor(config: VenueConfig) {
    this.ackLatencyMs = config.ack_latency_ms;
    this.maxOpenOrdersPerSymbol = config.max_open_orders_per_symbol;
    this.rateLimit = { enabled: config.rate_limit.enabled, burst: config.rate_limit.burst, perSecond: config.rate_limit.per_second };
    for (const f of config.forced_rejects) this.forceReject(f.reason, { count: f.count, ...(f.symbol ? { symbol: f.symbol } : {}), ...(f.text ? { text: f.text } : {}) });
  }

  /** The next `count` placements (on `symbol`, or any) are rejected with `reason`. */
  forceReject(reason: RejectReason, opts: { count?: number; symbol?: string; text?: string } = {}): void {
    this.#forced.push({ reason, symbol: opts.symbol, remaining: opts.count ?? 1, text: opts.text ?? `forced reject (${reason})` });
  }

  /** Clears pending forced rejects. */
  clearForcedRejects(): void {
    this.#forced.length = 0;
  }

  /** Consumes a forced reject applying to `symbol`, if any. */
  takeForcedReject(symbol: string): Reject | null {
    if (this.#forced.length === 0) return null;
    const i = this.#forced.findIndex((f) => f.symbol === undefined || f.symbol === symbol);
    if (i < 0) return null;
    const f = this.#forced[i]!;
    if (--f.remaining <= 0) this.#forced.splice(i, 1);
    return { reason: f.reason, text: f.text };
  }

  /** Drops (terminates) WebSocket connections matching `filter`; returns how many. */
  dropConnections(filter: DropFilter = {}): number {
    let n = 0;
    for (const h of this.#dropHooks) n += h(filter);
    return n;
  }

  /** Servers register how to drop their connections. */
  onDrop(fn: (filter: DropFilter) => number): () => void {
    this.#dropHooks.add(fn);
    return () => this.#dropHooks.delete(fn);
  }
}

/** Which connections to drop: all, one path (`/orders/ws`, `/md/ws`), or one user. */
export interface DropFilter {
  readonly path?: string;
  readonly userId?: string;
}
