import { BehaviorSubject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import { fetchAllAccruals, type RewardLedger } from './fetch-all.ts';
import { latestBySymbol, totalsBySymbolStatus, totalsByStatus, type SymbolStatusTotal } from './ledger.ts';
import type { RewardQuery, RewardSource } from './types.ts';

/** What the tracker knows after a successful poll. */
export interface RewardTrackerState {
  /** The whole filtered ledger as the venue reported it. */
  readonly ledger: RewardLedger;
  /** Final USD by payout status, summed over every accrual we read. */
  readonly totals: ReadonlyMap<string, Decimal>;
  /** Final USD and counts by symbol and status. */
  readonly bySymbol: readonly SymbolStatusTotal[];
  /** Venue-reported account_share of the latest closed epoch per symbol. */
  readonly latestShare: ReadonlyMap<string, { readonly epochStartMs: number; readonly epochEndMs: number; readonly share: number }>;
  /** Clock time of the poll, epoch ms. */
  readonly fetchedMs: number;
}

/** Back-off after failed polls: initial delay doubling up to a maximum, with jitter. */
export interface RewardBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

/** Options of the tracker. */
export interface RewardTrackerOptions {
  readonly source: RewardSource;
  readonly clock: Clock;
  /** Time between successful polls (ms, default 60 s). */
  readonly pollIntervalMs?: number;
  /** Back-off after a failed poll (default 1 s doubling to 60 s). */
  readonly backoff?: RewardBackoff;
  /** Page size asked of the venue (default 100). */
  readonly pageSize?: number;
  /** Filters (account, symbol...). */
  readonly query?: RewardQuery;
  /** Uniform [0, 1) for jitter (default Math.random). */
  readonly random?: () => number;
  /** Called on failed polls (logging); never throws into the tracker. */
  readonly onError?: (err: MmError, nextDelayMs: number) => void;
}

/**
 * Polls the reward-accruals endpoint (every page) on an injected clock, keeps the ledger, totals
 * and latest shares, and publishes them on `state$`. Failures back off exponentially with jitter;
 * a success resets the delay. Only one poll runs at a time.
 */
export class RewardTracker {
  readonly #o: RewardTrackerOptions;
  readonly #state$ = new BehaviorSubject<RewardTrackerState | null>(null);
  #cancelTimer: (() => void) | null = null;
  #running = false;
  #inFlight: Promise<RewardTrackerState> | null = null;
  #failures = 0;

  constructor(options: RewardTrackerOptions) {
    this.#o = options;
  }

  /** The latest state (null before the first successful poll). */
  get state(): RewardTrackerState | null {
    return this.#state$.value;
  }

  /** Every new state after a successful poll (replays the latest to new subscribers). */
  get state$(): Observable<RewardTrackerState | null> {
    return this.#state$.asObservable();
  }

  /** Consecutive failed polls so far. */
  get failures(): number {
    return this.#failures;
  }

  /** Starts polling now, then on the interval. Idempotent. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(0);
  }

  /** Stops polling; a poll in flight completes but schedules nothing. */
  stop(): void {
    this.#running = false;
    this.#cancelTimer?.();
    this.#cancelTimer = null;
  }

  /**
   * Polls once now (joining a poll already in flight) and resolves the new state.
   * @throws MmError when the poll fails (the failure is also counted for the back-off).
   */
  pollNow(): Promise<RewardTrackerState> {
    this.#inFlight ??= this.#poll().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #poll(): Promise<RewardTrackerState> {
    const ledger = await fetchAllAccruals(this.#o.source, this.#o.query ?? {}, { pageSize: this.#o.pageSize ?? 100 });
    const latestShare = new Map<string, { epochStartMs: number; epochEndMs: number; share: number }>();
    for (const [sym, a] of latestBySymbol(ledger.accruals)) latestShare.set(sym, { epochStartMs: a.epochStartMs, epochEndMs: a.epochEndMs, share: a.accountShare.toNumber() });
    const state: RewardTrackerState = {
      ledger,
      totals: totalsByStatus(ledger.accruals),
      bySymbol: totalsBySymbolStatus(ledger.accruals),
      latestShare,
      fetchedMs: this.#o.clock.nowMs(),
    };
    this.#state$.next(state);
    return state;
  }

  #schedule(delayMs: number): void {
    if (!this.#running) return;
    this.#cancelTimer?.();
    this.#cancelTimer = this.#o.clock.setTimer(delayMs, () => {
      this.#cancelTimer = null;
      this.pollNow().then(
        () => {
          this.#failures = 0;
          this.#schedule(this.#o.pollIntervalMs ?? 60_000);
        },
        (e: unknown) => {
          this.#failures += 1;
          const delay = this.nextBackoffMs();
          const err = e instanceof MmError ? e : new MmError('NETWORK_ERROR', e instanceof Error ? e.message : String(e), {}, { cause: e });
          try {
            this.#o.onError?.(err, delay);
          } catch {
            // a logging hook must not stop the poller
          }
          this.#schedule(delay);
        },
      );
    });
  }

  /** The delay before the next retry after the current run of failures (ms, with jitter in [50%, 100%]). */
  nextBackoffMs(): number {
    const b = this.#o.backoff ?? { initialMs: 1_000, maxMs: 60_000 };
    const base = Math.min(b.maxMs, b.initialMs * 2 ** Math.max(0, this.#failures - 1));
    const r = (this.#o.random ?? Math.random)();
    return Math.round(base * (0.5 + 0.5 * r));
  }
}
