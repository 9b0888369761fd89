import { hashNormal, type Rng } from './rng.ts';

/** Parameters of one underlying's exogenous price path (log returns, instrument-free). */
export interface UnderlyingParams {
  /** Daily volatility of log returns in the calm regime, percent (0.5 = 0.5% a day). */
  readonly dailyVolPct: number;
  /** Expected jumps per day; a jump's log return is normal with sd `jumpSizeBps`. */
  readonly jumpsPerDay: number;
  readonly jumpSizeBps: number;
  /** Pull of the exogenous path back towards its start, per day (0 = pure random walk). */
  readonly meanReversionPerDay: number;
  /** Volatility multiplier of the volatile regime (1 = no regimes). */
  readonly volatileVolMult: number;
  /** Mean time spent in each regime before switching, minutes (0 calm minutes = never volatile). */
  readonly calmMeanMin: number;
  readonly volatileMeanMin: number;
  /** Trending episodes: expected starts per day, mean length (minutes), drift while one runs (bps/min, random sign). */
  readonly trendsPerDay: number;
  readonly trendMeanMin: number;
  readonly trendBpsPerMin: number;
  /** Loading on the correlation group's common factor, 0..1 (two members' diffusive returns correlate at √(ρ₁ρ₂)). */
  readonly correlation: number;
}

const DAY_MS = 86_400_000;
/** Grid points kept behind the earliest time asked for (makers read the path with a delay). */
const KEEP_BEHIND = 64;

/**
 * One underlying's price path, generated ahead of time on a fixed grid from the seed: a log random
 * walk whose volatility switches between a calm and a volatile regime (Markov), with Poisson jumps
 * (each starts a volatile spell), trending episodes and mild mean reversion. Because the exogenous
 * path exists before anyone trades, informed takers can read where it will be a few seconds ahead
 * and the run stays deterministic. Taker flow adds a permanent impact (`impactLog`) on top.
 */
export class UnderlyingPath {
  /** Permanent price impact of taker flow, in log units, added to the exogenous path. */
  impactLog = 0;
  #base = 0;
  readonly #x: number[] = [0];
  readonly #volatile: boolean[] = [false];
  readonly #lastJump: number[] = [Number.NEGATIVE_INFINITY];
  #trendLeft = 0;
  #trendPerStep = 0;

  constructor(
    readonly params: UnderlyingParams,
    private readonly rng: Rng,
    /** Seed of the correlation group's common factor (read by grid index), or null for none. */
    private readonly factorSeed: number | null,
    /** Grid spacing, venue ms. */
    readonly gridMs: number,
    /** Venue time of grid index 0. */
    readonly t0Ms: number,
  ) {
    if (!(gridMs > 0)) throw new RangeError(`underlying path grid must be positive, got ${gridMs}`);
  }

  /** Exogenous log return since the start at venue time `tMs` (grid point at or before it). */
  logReturnAt(tMs: number): number {
    return this.#x[this.#at(tMs)]!;
  }

  /** Whether the volatile regime is on at `tMs`. */
  volatileAt(tMs: number): boolean {
    return this.#volatile[this.#at(tMs)]!;
  }

  /** Venue ms since the latest jump at or before `tMs` (Infinity when none). */
  msSinceJumpAt(tMs: number): number {
    const i = this.#at(tMs);
    return (i + this.#base - this.#lastJump[i]!) * this.gridMs;
  }

  /** Forgets grid points well before `tMs` (the driver calls this as time moves on). */
  trim(tMs: number): void {
    const drop = this.#index(tMs) - this.#base - KEEP_BEHIND;
    if (drop < 1024) return;
    this.#x.splice(0, drop);
    this.#volatile.splice(0, drop);
    this.#lastJump.splice(0, drop);
    this.#base += drop;
  }

  #index(tMs: number): number {
    return Math.max(0, Math.floor((tMs - this.t0Ms) / this.gridMs));
  }

  #at(tMs: number): number {
    const k = Math.max(this.#index(tMs), this.#base);
    while (this.#base + this.#x.length <= k) this.#extend();
    return k - this.#base;
  }

  #extend(): void {
    const p = this.params;
    const r = this.rng;
    const n = this.#x.length - 1;
    const k = this.#base + n + 1;
    let volatile = this.#volatile[n]!;
    let lastJump = this.#lastJump[n]!;
    const days = this.gridMs / DAY_MS;
    if (p.volatileVolMult !== 1 && p.calmMeanMin > 0) {
      const meanMs = (volatile ? p.volatileMeanMin : p.calmMeanMin) * 60_000;
      if (r.chance(this.gridMs / Math.max(meanMs, this.gridMs))) volatile = !volatile;
    }
    let dx = 0;
    if (this.#trendLeft > 0) {
      this.#trendLeft--;
      dx += this.#trendPerStep;
    } else if (p.trendsPerDay > 0 && r.chance(p.trendsPerDay * days)) {
      this.#trendLeft = Math.max(1, Math.round(r.exponential((p.trendMeanMin * 60_000) / this.gridMs)));
      this.#trendPerStep = (r.chance(0.5) ? 1 : -1) * (p.trendBpsPerMin / 1e4) * (this.gridMs / 60_000);
    }
    const sigma = (p.dailyVolPct / 100) * Math.sqrt(days) * (volatile ? p.volatileVolMult : 1);
    const rho = this.factorSeed === null ? 0 : Math.min(1, Math.max(0, p.correlation));
    const z = rho > 0 ? Math.sqrt(rho) * hashNormal(this.factorSeed!, k) + Math.sqrt(1 - rho) * r.normal() : r.normal();
    const x = this.#x[n]!;
    dx += sigma * z - p.meanReversionPerDay * days * x;
    const lambda = p.jumpsPerDay * days;
    if (lambda > 0 && r.chance(1 - Math.exp(-lambda))) {
      dx += (p.jumpSizeBps / 1e4) * r.normal();
      lastJump = k;
      // News clusters volatility: a jump starts a volatile spell where regimes exist.
      if (p.volatileVolMult !== 1 && p.calmMeanMin > 0) volatile = true;
    }
    this.#x.push(x + dx);
    this.#volatile.push(volatile);
    this.#lastJump.push(lastJump);
  }
}
