import { Decimal } from '../../core/decimal.ts';
import {
  EpochScoreAccumulator,
  capUsdFor,
  scoreMinute,
  waterFillCap,
  type RewardScoreParams,
  type ScoredOrder,
} from '../../domain/reward-score.ts';
import { RewardLedger, type PayoutLifecycle, type RewardAccrual } from './ledger.ts';

/** A bonus-weight window on the UTC clock (e.g. weight 2 outside the underlying's cash hours). */
export interface BonusWindow {
  readonly fromUtcMinute: number;
  readonly toUtcMinute: number;
  readonly weight: number;
}

/** Every knob of the liquidity program (docs/venue-rules.md §12.3). */
export interface RewardProgramConfig {
  /** Epoch length in ms (default one day; minutes for demos). Epochs align to multiples since 1970. */
  readonly epochMs: number;
  readonly score: RewardScoreParams;
  /** Pool per symbol per epoch in USD; symbols not listed use `defaultPoolUsd`. */
  readonly poolsUsd: Readonly<Record<string, number>>;
  readonly defaultPoolUsd: number;
  /** Per-account cap as percent of the pool and/or absolute USD (null = none). */
  readonly capPct: number | null;
  readonly capUsd: number | null;
  /** Rewards below this are `retained`. */
  readonly minPayoutUsd: number;
  readonly lifecycle: PayoutLifecycle;
  /** Ledger rows kept (oldest dropped; default 100 000). */
  readonly retainRows?: number;
  readonly bonusWindows: readonly BonusWindow[];
}

/** One symbol's inputs for a minute sample. */
export interface MinuteInput {
  readonly symbol: string;
  /** Mid in quote units; undefined when a side is empty (minute not scored). */
  readonly mid: number | undefined;
  /** False when the instrument is not OPEN (minute not scored). */
  readonly open: boolean;
  readonly orders: Iterable<ScoredOrder>;
}

interface OpenEpoch {
  readonly startMs: number;
  readonly acc: EpochScoreAccumulator;
}

/**
 * The venue side of the program: samples every symbol each minute, closes epochs into ledger
 * accruals (cap water-fill, minimum payout) and advances payouts. Pure state; the venue drives it
 * from its clock and posts the cash of `paid` rows.
 */
export class RewardProgram {
  readonly ledger: RewardLedger;
  readonly #open = new Map<string, OpenEpoch>();

  constructor(
    private readonly cfg: RewardProgramConfig,
    private readonly newId: () => string,
  ) {
    this.ledger = new RewardLedger(cfg.retainRows);
    if (!(cfg.epochMs >= 60_000)) throw new RangeError(`rewards.epoch_ms must be at least 60000, got ${cfg.epochMs}`);
  }

  /** Start of the epoch containing `tsMs`. */
  epochStart(tsMs: number): number {
    return Math.floor(tsMs / this.cfg.epochMs) * this.cfg.epochMs;
  }

  /** Bonus weight of the minute at `tsMs`. */
  weightAt(tsMs: number): number {
    const minute = Math.floor((tsMs % 86_400_000) / 60_000);
    for (const w of this.cfg.bonusWindows) {
      const inside = w.fromUtcMinute <= w.toUtcMinute ? minute >= w.fromUtcMinute && minute < w.toUtcMinute : minute >= w.fromUtcMinute || minute < w.toUtcMinute;
      if (inside) return w.weight;
    }
    return 1;
  }

  /** Scores one minute for each symbol (closing epochs that ended first). */
  sampleMinute(tsMs: number, inputs: readonly MinuteInput[]): void {
    this.closeEpochs(tsMs);
    const start = this.epochStart(tsMs);
    const weight = this.weightAt(tsMs);
    for (const inp of inputs) {
      if (!inp.open || inp.mid === undefined) continue;
      let ep = this.#open.get(inp.symbol);
      if (!ep) {
        ep = { startMs: start, acc: new EpochScoreAccumulator() };
        this.#open.set(inp.symbol, ep);
      }
      const scores = scoreMinute(inp.orders, inp.mid, this.cfg.score);
      const shares = new Map<string, number>();
      for (const [id, s] of scores) shares.set(id, s.share);
      ep.acc.add(weight, shares);
    }
  }

  /** Closes every open epoch that ended at or before `nowMs`; returns the new accruals. */
  closeEpochs(nowMs: number): RewardAccrual[] {
    const out: RewardAccrual[] = [];
    for (const [symbol, ep] of this.#open) {
      const endMs = ep.startMs + this.cfg.epochMs;
      if (endMs > nowMs) continue;
      this.#open.delete(symbol);
      out.push(...this.#accrue(symbol, ep, endMs));
    }
    this.ledger.add(out);
    return out;
  }

  /** Advances payout statuses; returns rows that became paid (credit them). */
  advance(nowMs: number): RewardAccrual[] {
    return this.ledger.advance(nowMs, this.cfg.lifecycle);
  }

  #accrue(symbol: string, ep: OpenEpoch, endMs: number): RewardAccrual[] {
    const shares = ep.acc.shares(this.cfg.score);
    const pool = new Decimal(this.cfg.poolsUsd[symbol] ?? this.cfg.defaultPoolUsd);
    const payouts = waterFillCap(shares, pool, capUsdFor(pool, this.cfg.capPct, this.cfg.capUsd));
    const rows: RewardAccrual[] = [];
    for (const [accountId, p] of [...payouts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const share = shares.get(accountId) ?? 0;
      if (share <= 0 && p.final.lte(0)) continue;
      rows.push({
        id: this.newId(),
        accountId,
        symbol,
        epochStartMs: ep.startMs,
        epochEndMs: endMs,
        raw: p.raw,
        capAdjustment: p.capAdjustment,
        final: p.final,
        accountShare: share,
        status: p.final.lt(this.cfg.minPayoutUsd) ? 'retained' : 'accrued',
        paidAtMs: null,
        scoresRetained: true,
      });
    }
    return rows;
  }
}
