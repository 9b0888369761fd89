import type { ScoredOrder } from '../../domain/reward-score.ts';
import type { Venue } from '../venue.ts';
import { bonusWindowsOf, type MarketConfig } from '../market/market-config.ts';
import { RewardProgram, type MinuteInput } from './program.ts';

/**
 * Drives the liquidity program on the venue clock: every minute it samples every symbol's resting
 * orders of every account (synthetic makers included), closes epochs and advances payouts, crediting
 * `paid` rewards to the accounts' cash.
 */
export class RewardService {
  readonly program: RewardProgram;
  #cancel: (() => void) | undefined;

  constructor(
    private readonly venue: Venue,
    cfg: MarketConfig['rewards'],
  ) {
    const epochMs = cfg.epoch_ms;
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
      },
      () => venue.ids.ulid(),
    );
    if (cfg.enabled) this.#arm();
  }

  /** Scores the current minute for every symbol, then closes epochs and advances payouts. */
  sampleNow(): void {
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
              orders.push({ accountId: o.accountId, side: o.side, price, qty: o.remainingQty, multiplier: mult, restedMs: Number(nowNs - o.createdNs) / 1e6 });
            }
          }
        }
      }
      inputs.push({ symbol, mid, open: m.state === 'OPEN', orders });
    }
    this.program.sampleMinute(now, inputs);
    this.advance(now);
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

  #arm(): void {
    const now = this.venue.clock.nowMs();
    const next = Math.floor(now / 60_000) * 60_000 + 60_000;
    this.#cancel = this.venue.clock.setTimer(next - now, () => {
      this.sampleNow();
      this.#arm();
    });
  }
}
