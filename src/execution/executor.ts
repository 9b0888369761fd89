import type { Clock } from '../core/clock.ts';
import type { ClientOrderId } from '../core/ids.ts';
import { MmError, type ErrorCode } from '../core/errors.ts';
import { AdaptiveRate, type ThrottleHint } from './adaptive-rate.ts';
import { ENDPOINTS, type Endpoint, type ExecutionConfig } from './config.ts';
import { TokenBucket } from './token-bucket.ts';

/** Why a queued job left the queue without being sent. */
export type DropReason = 'coalesced' | 'queue-full' | 'removed';

/** One request to the venue, as the executor sees it: opaque apart from its endpoint and key. */
export interface ExecJob {
  readonly endpoint: Endpoint;
  /** Coalescing key: a newer job with the same key replaces a queued one. null = never coalesced. */
  readonly key: string | null;
  /** The order the job is about, for events (null for queries and cancel-all). */
  readonly clientOrderId?: ClientOrderId | null;
  /** Sends the request (called at most once). */
  run(): Promise<unknown>;
  /** The request settled; `latencyMs` on the injected clock. */
  settled(ok: boolean, value: unknown, error: unknown, latencyMs: number): void;
  /** The job left the queue unsent. */
  dropped(reason: DropReason): void;
}

/** Observers of every executor decision (the engine turns them into events and counters). */
export interface ExecutorHooks {
  /**
   * Last word before a job is sent (it has left the queue, no budget spent yet): false drops it
   * (`removed`) unsent. The engine refuses orders over the order-count budgets here, so the order
   * that would exceed one never reaches the venue. May re-enter the executor (submit cancels).
   */
  admit?(job: ExecJob): boolean;
  sent?(job: ExecJob): void;
  throttled?(job: ExecJob, queued: number): void;
  coalesced?(job: ExecJob): void;
  dropped?(job: ExecJob): void;
  backoff?(code: ErrorCode, pauseMs: number): void;
}

/** Codes after which the venue wants us to pause (it is busy); RATE_LIMITED also lowers the learned rate. */
const THROTTLE_CODES: ReadonlySet<ErrorCode> = new Set(['RATE_LIMITED', 'VENUE_UNAVAILABLE', 'GATEWAY_TIMEOUT']);

/** One budget as the gauges see it: tokens now, learned burst and rate, and their configured ceilings. */
export interface BudgetState {
  readonly name: string;
  /** Tokens that could be spent now. */
  readonly available: number;
  /** Learned burst (≤ the configured capacity). */
  readonly capacity: number;
  /** Learned sustained rate, requests/s (≤ the configured refill). */
  readonly ratePerSec: number;
  readonly configuredCapacity: number;
  readonly configuredPerSec: number;
}

/** Reads the venue's hints (Retry-After, advertised limit) that the client put in an error's details. */
function throttleHint(error: MmError): ThrottleHint {
  const d = error.details ?? {};
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  return { retryAfterMs: num(d['retryAfterMs']), limitPerSec: num(d['rateLimitPerSec']) };
}

/** Cancels first, then replaces and places, then reads (order status and reconciliation before the rest). */
const PRIORITY: Readonly<Record<Endpoint, number>> = {
  'cancel-all': 0,
  cancel: 1,
  replace: 2,
  place: 3,
  status: 4,
  'open-orders': 4,
  fills: 5,
  positions: 5,
  funding: 6,
  rewards: 6,
  prices: 6,
};
const LEVELS = 7;
/** The first level of reads. */
const READ_LEVEL = 4;

interface Costed {
  readonly bucket: TokenBucket;
  readonly aimd: AdaptiveRate;
  readonly cost: number;
}

/**
 * The rate-aware execution adapter: token buckets per budget (data, on the injected clock), strict
 * priority cancels > queries > replaces > places, coalescing by key (only the latest desired state
 * of an order is ever sent), bounded queue, max in-flight, AIMD on each bucket's rate and burst
 * learned from 429s (adaptive-rate.ts), short pauses on 503/504 and Retry-After, and never more than
 * `adaptive.maxIdleMs` without sending while work is queued and a send slot is free.
 * Sends synchronously from `submit` when budget allows, so the hot path adds no latency.
 */
export class Executor {
  readonly #clock: Clock;
  readonly #config: ExecutionConfig;
  readonly #hooks: ExecutorHooks;
  readonly #buckets: TokenBucket[];
  readonly #aimd: AdaptiveRate[];
  readonly #costs: Readonly<Record<Endpoint, readonly Costed[]>>;
  readonly #queues: ExecJob[][] = Array.from({ length: LEVELS }, () => []);
  readonly #byKey = new Map<string, ExecJob>();
  /** When each queued read was queued (engine clock, ms), for `readMaxWaitMs`. */
  readonly #readQueuedMs = new Map<ExecJob, number>();
  #queued = 0;
  #inFlight = 0;
  #pausedUntilMs = 0;
  #timerAtMs = Infinity;
  #cancelTimer: (() => void) | null = null;
  #closed = false;
  /** Requests sent, by endpoint. */
  readonly sentCount: Record<Endpoint, number> = { cancel: 0, 'cancel-all': 0, replace: 0, place: 0, status: 0, 'open-orders': 0, fills: 0, positions: 0, funding: 0, rewards: 0, prices: 0 };

  constructor(config: ExecutionConfig, clock: Clock, hooks: ExecutorHooks = {}) {
    this.#clock = clock;
    this.#config = config;
    this.#hooks = hooks;
    const now = clock.nowMs();
    this.#buckets = config.budgets.map((b) => new TokenBucket(b.capacity, b.refillPerSec, now));
    this.#aimd = config.budgets.map((b, i) => new AdaptiveRate(this.#buckets[i]!, config.adaptive, Math.max(0, ...Object.values(b.costs).map((c) => c ?? 0)), now));
    const costs = {} as Record<Endpoint, Costed[]>;
    for (const e of ENDPOINTS) {
      costs[e] = [];
      config.budgets.forEach((b, i) => {
        const c = b.costs[e];
        if (c !== undefined && c > 0) costs[e].push({ bucket: this.#buckets[i]!, aimd: this.#aimd[i]!, cost: c });
      });
    }
    this.#costs = costs;
  }

  /** Jobs waiting for budget. */
  get queued(): number {
    return this.#queued;
  }

  /** Jobs sent and not yet settled. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** True after `close()`: every job is dropped. */
  get closed(): boolean {
    return this.#closed;
  }

  /** True while a budget runs below its configured rate or burst (learned from 429s) or a pause holds. */
  get slowedDown(): boolean {
    return this.#clock.nowMs() < this.#pausedUntilMs || this.#aimd.some((a) => a.reduced);
  }

  /** 429s that lowered a learned rate since creation. */
  get rateDecreases(): number {
    return this.#aimd.reduce((n, a) => n + a.decreases, 0);
  }

  /** Each budget's tokens now, learned burst and rate, and configured ceilings (for the gauges). */
  budgets(): readonly BudgetState[] {
    const now = this.#clock.nowMs();
    return this.#config.budgets.map((b, i) => {
      const k = this.#buckets[i]!;
      return { name: b.name, available: k.available(now), capacity: k.burst, ratePerSec: k.ratePerSec, configuredCapacity: b.capacity, configuredPerSec: b.refillPerSec };
    });
  }

  /** Tokens spent per budget name since creation. */
  spent(): Record<string, number> {
    const out: Record<string, number> = {};
    this.#config.budgets.forEach((b, i) => (out[b.name] = this.#buckets[i]!.spent));
    return out;
  }

  /** The queued job with this key, if any. */
  queuedJob(key: string): ExecJob | undefined {
    return this.#byKey.get(key);
  }

  /**
   * Queues a job (or sends it now when nothing of higher or equal priority waits and budget allows).
   * A queued job with the same key is replaced by this one and reported as coalesced.
   */
  submit(job: ExecJob): void {
    if (this.#closed) {
      job.dropped('removed');
      return;
    }
    const prio = PRIORITY[job.endpoint];
    if (job.key !== null) {
      const old = this.#byKey.get(job.key);
      if (old) {
        this.#remove(old);
        this.#hooks.coalesced?.(old);
        old.dropped('coalesced');
      }
    }
    if (this.#queued >= this.#config.maxQueue && !this.#evictFor(prio)) {
      this.#hooks.dropped?.(job);
      job.dropped('queue-full');
      return;
    }
    this.#queues[prio]!.push(job);
    this.#queued++;
    if (prio >= READ_LEVEL) this.#readQueuedMs.set(job, this.#clock.nowMs());
    if (job.key !== null) this.#byKey.set(job.key, job);
    this.#drain();
    if (this.#isQueued(job)) this.#hooks.throttled?.(job, this.#queued);
  }

  /** Removes a queued job by key without sending it (the desired state no longer needs it). */
  removeQueued(key: string): boolean {
    const job = this.#byKey.get(key);
    if (!job) return false;
    this.#remove(job);
    this.#hooks.coalesced?.(job);
    job.dropped('removed');
    return true;
  }

  /** Drops every queued job matching `pred` (e.g. all places when the kill switch trips). */
  removeWhere(pred: (job: ExecJob) => boolean): number {
    let n = 0;
    for (const q of this.#queues) {
      for (const job of [...q]) {
        if (!pred(job)) continue;
        this.#remove(job);
        job.dropped('removed');
        n++;
      }
    }
    return n;
  }

  /** Drops everything queued and refuses further jobs. */
  close(): void {
    this.removeWhere(() => true);
    this.#closed = true;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
  }

  #isQueued(job: ExecJob): boolean {
    return this.#queues[PRIORITY[job.endpoint]]!.includes(job);
  }

  #remove(job: ExecJob): void {
    const q = this.#queues[PRIORITY[job.endpoint]]!;
    const i = q.indexOf(job);
    if (i >= 0) {
      q.splice(i, 1);
      this.#queued--;
    }
    if (job.key !== null && this.#byKey.get(job.key) === job) this.#byKey.delete(job.key);
    this.#readQueuedMs.delete(job);
  }

  /** Makes room for a job of priority `prio` by dropping the newest strictly less urgent job. */
  #evictFor(prio: number): boolean {
    for (let p = LEVELS - 1; p > prio; p--) {
      const q = this.#queues[p]!;
      const victim = q[q.length - 1];
      if (victim) {
        this.#remove(victim);
        this.#hooks.dropped?.(victim);
        victim.dropped('queue-full');
        return true;
      }
    }
    return false;
  }

  #drain(): void {
    const now = this.#clock.nowMs();
    if (now < this.#pausedUntilMs) {
      if (this.#queued > 0) this.#arm(this.#pausedUntilMs - now);
      return;
    }
    while (this.#queued > 0 && this.#inFlight < this.#config.maxInFlight) {
      const job = this.#head();
      if (!job) return;
      const costs = this.#costs[job.endpoint];
      let waitMs = 0;
      for (const c of costs) waitMs = Math.max(waitMs, c.bucket.msUntil(c.cost, now));
      if (waitMs > 0) {
        this.#arm(waitMs);
        return;
      }
      this.#remove(job);
      if (this.#hooks.admit && !this.#hooks.admit(job)) {
        job.dropped('removed');
        continue;
      }
      let constrained = false;
      for (const c of costs) {
        c.bucket.tryTake(c.cost, now);
        // Short of another such request now: the budget is what limits us (AIMD may learn from it).
        if (c.bucket.available(now) < c.cost) constrained = true;
      }
      this.#send(job, now, constrained);
    }
  }

  /**
   * The next job: strict priority, except that the read queued longest goes right after the
   * cancels once it has waited `readMaxWaitMs` (reads are delayed by order entry, never starved).
   */
  #head(): ExecJob | undefined {
    for (let p = 0; p < READ_LEVEL; p++) {
      const q = this.#queues[p]!;
      if (q.length === 0) continue;
      if (p >= PRIORITY.replace) {
        const overdue = this.#overdueRead();
        if (overdue) return overdue;
      }
      return q[0];
    }
    for (let p = READ_LEVEL; p < LEVELS; p++) if (this.#queues[p]!.length > 0) return this.#queues[p]![0];
    return undefined;
  }

  #overdueRead(): ExecJob | undefined {
    const due = this.#clock.nowMs() - this.#config.readMaxWaitMs;
    let oldest: ExecJob | undefined;
    let oldestMs = Infinity;
    for (const [job, ms] of this.#readQueuedMs) if (ms <= due && ms < oldestMs) [oldest, oldestMs] = [job, ms];
    return oldest;
  }

  #send(job: ExecJob, now: number, constrained: boolean): void {
    this.#inFlight++;
    this.sentCount[job.endpoint]++;
    this.#hooks.sent?.(job);
    let p: Promise<unknown>;
    try {
      p = job.run();
    } catch (err) {
      p = Promise.reject(err);
    }
    p.then(
      (v) => this.#settle(job, true, v, undefined, now, constrained),
      (e: unknown) => this.#settle(job, false, undefined, e, now, constrained),
    );
  }

  #settle(job: ExecJob, ok: boolean, value: unknown, error: unknown, sentMs: number, constrained: boolean): void {
    this.#inFlight--;
    const now = this.#clock.nowMs();
    if (ok) for (const c of this.#costs[job.endpoint]) c.aimd.onSuccess(now, constrained);
    else if (error instanceof MmError && THROTTLE_CODES.has(error.code)) this.#throttle(job, error, now, sentMs);
    job.settled(ok, value, error, now - sentMs);
    if (!this.#closed) this.#drain();
  }

  #throttle(job: ExecJob, error: MmError, now: number, sentMs: number): void {
    const cfg = this.#config.adaptive;
    const hint = throttleHint(error);
    let pause = 0;
    if (error.code === 'RATE_LIMITED') {
      for (const c of this.#costs[job.endpoint]) pause = Math.max(pause, c.aimd.onThrottled(now, sentMs, hint));
    } else {
      // 503/504: the venue is busy, not counting our requests; pause briefly, keep the learned rate.
      pause = Math.min(cfg.maxIdleMs, hint.retryAfterMs ?? cfg.unavailablePauseMs);
    }
    this.#pausedUntilMs = Math.max(this.#pausedUntilMs, now + pause);
    this.#hooks.backoff?.(error.code, pause);
  }

  #arm(delayMs: number): void {
    const at = this.#clock.nowMs() + delayMs;
    if (this.#cancelTimer && this.#timerAtMs <= at) return;
    this.#cancelTimer?.();
    this.#timerAtMs = at;
    this.#cancelTimer = this.#clock.setTimer(delayMs, () => {
      this.#cancelTimer = null;
      this.#timerAtMs = Infinity;
      this.#drain();
    });
  }
}
