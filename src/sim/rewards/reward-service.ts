import type { ScoredOrder } from '../../domain/reward-score.ts';
import type { Venue } from '../venue.ts';
import { bonusWindowsOf, type MarketConfig } from '../market/market-config.ts';
import { RewardProgram, type MinuteInput } from './program.ts';

const MINUTE_MS = 60_000;

/**
 * A fire up to this much venue time before its minute counts as that minute: Node timers can fire
 * ~1 ms early in real time, which `clock_speed` multiplies (60 ms at 60×). The tolerance is also at
 * least `EARLY_FIRE_TOLERANCE_REAL_MS` of real time scaled by the clock speed, so a re-armed timer
 * for the rest of a too-early wait cannot spin. Earlier fires wait out the rest.
 */
export const EARLY_FIRE_TOLERANCE_MS = 1_000;
/** Real-time part of the early tolerance (multiplied by `clock_speed`). */
export const EARLY_FIRE_TOLERANCE_REAL_MS = 5;
/**
 * A fire later than this after its minute is counted late (`stats.lateSamples`). It still scores the
 * minute it was armed for, from the book as it is now: the state at the boundary is gone, and the
 * minute's bonus weight and epoch are those of the boundary, so an epoch never gains or loses a
 * sample because the loop was slow. Boundaries more than this in the past when re-arming are skipped.
 */
export const LATE_FIRE_TOLERANCE_MS = 1_000;

/**
 * Drives the liquidity program on the venue clock: every minute it samples every symbol's resting
 * orders of every account (synthetic makers included), closes epochs and advances payouts, crediting
 * `paid` rewards to the accounts' cash. Each minute boundary is scored at most once and attributed
 * to the boundary the timer was armed for, however early or late the timer fires.
 */
export class RewardService {
  readonly program: RewardProgram;
  /** Sampler counters: minutes scored, early fires re-armed, late fires, minutes skipped by a stall. */
  readonly stats = { samples: 0, earlyRearms: 0, lateSamples: 0, skippedMinutes: 0 };
  #cancel: (() => void) | undefined;
  /** Index (venue ms / 60 000) of the last scored minute: no minute is scored twice. */
  #lastMinute: number | undefined;
  /** Minute the timer is armed for. */
  #targetMinute = 0;
  readonly #earlyToleranceMs: number;

  constructor(
    private readonly venue: Venue,
    cfg: MarketConfig['rewards'],
  ) {
    const epochMs = cfg.epoch_ms;
    this.#earlyToleranceMs = Math.max(EARLY_FIRE_TOLERANCE_MS, EARLY_FIRE_TOLERANCE_REAL_MS * venue.config.clock_speed);
    this.program = new RewardProgram(
      {
        epochMs,
        score: {
          maxSpreadBps: cfg.max_spread_bps,
          minNotionalUsd: cfg.min_notional_usd,
          minRestMs: cfg.min_rest_ms,
          curve: cfg.curve,
          expKPerBps: cfg.exp_k_per_bps,
          dydxMinBps: 0.1,
          singleSidedDivisor: cfg.single_sided_divisor,
          uptimeExponent: cfg.uptime_exponent,
        },
        poolsUsd: cfg.pools_usd,
        defaultPoolUsd: cfg.default_pool_usd,
        capPct: cfg.cap_pct,
        capUsd: cfg.cap_usd,
        minPayoutUsd: cfg.min_payout_usd,
        lifecycle: {
          awaitingAfterMs: cfg.awaiting_after_ms ?? epochMs,
          approvedAfterMs: cfg.approved_after_ms ?? 2 * epochMs,
          paidAfterMs: cfg.paid_after_ms ?? 3 * epochMs,
          scoreRetentionMs: cfg.score_retention_ms,
        },
        bonusWindows: bonusWindowsOf(cfg),
        retainRows: venue.config.retention.reward_rows,
      },
      () => venue.ids.ulid(),
    );
    if (cfg.enabled) this.#armNext();
  }

  /**
   * Scores the minute containing the current time now (tests, knobs), unless that minute was
   * already scored; the timer then carries on with the next minute.
   */
  sampleNow(): void {
    this.#scoreMinute(Math.floor(this.venue.clock.nowMs() / MINUTE_MS));
  }

  /** Closes ended epochs and pays rewards whose time has come. */
  advance(now: number): void {
    this.program.closeEpochs(now);
    for (const r of this.program.advance(now)) {
      if (this.venue.accounts.account(r.accountId)) this.venue.accounts.post(r.accountId, 'USD', r.final, 'deposit', `mmlp://reward/${r.id}`, null);
    }
  }

  /** Stops the minute timer. */
  close(): void {
    this.#cancel?.();
  }

  /** Scores minute `index` (boundary `index × 60 s`) from the live book, at most once. */
  #scoreMinute(index: number): boolean {
    if (this.#lastMinute !== undefined && index <= this.#lastMinute) return false;
    this.#lastMinute = index;
    const atMs = index * MINUTE_MS;
    const now = this.venue.clock.nowMs();
    const nowNs = this.venue.clock.nowNs();
    const inputs: MinuteInput[] = [];
    for (const [symbol, book] of this.venue.books) {
      const m = this.venue.markets.get(symbol)!;
      const bb = book.bestBid();
      const ba = book.bestAsk();
      const grid = m.instrument.grid;
      const mid = bb !== undefined && ba !== undefined ? grid.toDecimal((bb + ba) / 2).toNumber() : undefined;
      const mult = m.instrument.multiplier.toNumber();
      const orders: ScoredOrder[] = [];
      if (mid !== undefined) {
        for (const side of [book.bids, book.asks]) {
          for (const lv of side.levels(Infinity, false)) {
            const level = side.level(lv.priceTicks);
            const price = grid.toDecimal(lv.priceTicks).toNumber();
            for (let o = level?.head ?? null; o; o = o.next) {
              // Rest time is measured at the real sampling instant (the state being scored).
              orders.push({ accountId: o.accountId, side: o.side, price, qty: o.remainingQty, multiplier: mult, restedMs: Number(nowNs - o.createdNs) / 1e6 });
            }
          }
        }
      }
      inputs.push({ symbol, mid, open: m.state === 'OPEN', orders });
    }
    this.program.sampleMinute(atMs, inputs);
    this.stats.samples += 1;
    this.advance(Math.max(now, atMs));
    return true;
  }

  #fire(): void {
    const now = this.venue.clock.nowMs();
    const target = this.#targetMinute * MINUTE_MS;
    if (now < target - this.#earlyToleranceMs) {
      // Far too early (a scaled clock magnifies timer slack): wait out the rest, score nothing.
      this.stats.earlyRearms += 1;
      this.#armFor(this.#targetMinute);
      return;
    }
    if (now > target + LATE_FIRE_TOLERANCE_MS) this.stats.lateSamples += 1;
    this.#scoreMinute(this.#targetMinute);
    this.#armNext();
  }

  /**
   * Arms the next minute after the last scored one, skipping boundaries already more than
   * `LATE_FIRE_TOLERANCE_MS` in the past (a stalled loop): their book state is gone, and scoring the
   * current book for each of them would invent minutes.
   */
  #armNext(): void {
    const now = this.venue.clock.nowMs();
    const notStale = Math.ceil((now - LATE_FIRE_TOLERANCE_MS) / MINUTE_MS);
    const next = this.#lastMinute === undefined ? Math.floor(now / MINUTE_MS) + 1 : Math.max(this.#lastMinute + 1, notStale);
    if (this.#lastMinute !== undefined) this.stats.skippedMinutes += next - this.#lastMinute - 1;
    this.#armFor(next);
  }

  #armFor(minute: number): void {
    this.#targetMinute = minute;
    this.#cancel = this.venue.clock.setTimer(minute * MINUTE_MS - this.venue.clock.nowMs(), () => this.#fire());
  }
}
