import type { Actor, Venue } from '../venue.ts';
import { resolveFlow } from './flow-params.ts';
import type { MarketConfig } from './market-config.ts';
import { Rng, deriveSeed } from './rng.ts';
import { SymbolFlow, type FlowStats } from './symbol-flow.ts';
import { UnderlyingPath } from './underlying-path.ts';

export type { FlowStats } from './symbol-flow.ts';

/** Grid of the pre-generated underlying paths, venue ms (bounded so lookahead stays cheap). */
const pathGridMs = (stepMs: number): number => Math.min(Math.max(stepMs, 50), 1000);

/**
 * Synthetic market flow: per underlying product one pre-generated price path (regimes, jumps,
 * trends, correlated within its group) shared by every instrument on it, and per instrument
 * background makers, noise and informed takers and depth churn — all real orders of internal
 * accounts through the venue's matching engine. One venue-clock timer wakes at the next maker
 * step or taker/churn event of any symbol; everything random is seeded, so a VirtualClock run is
 * reproducible.
 */
export class FlowDriver {
  readonly stats: FlowStats = { steps: 0, makerPlaced: 0, makerCancelled: 0, takerOrders: 0, informedOrders: 0, churns: 0 };
  readonly flows = new Map<string, SymbolFlow>();
  /** Underlying paths by product (instruments on one product share it). */
  readonly paths = new Map<string, UnderlyingPath>();
  readonly #stepMs: number;
  /** Shortest gap between wake-ups for taker/churn events, venue ms (2 real ms at the clock speed). */
  readonly #minGapMs: number;
  #lastStepMs: number;
  #nextStepMs: number;
  #lastSecondMs: number;
  readonly #t0Ms: number;
  #cancel: (() => void) | undefined;
  readonly #enabled: boolean;

  constructor(
    private readonly venue: Venue,
    cfg: MarketConfig['market'],
    seed: number,
    /** Called about once a venue second with the time (for underlying history and funding samples). */
    private readonly onSecond: (nowMs: number) => void,
  ) {
    const speed = venue.config.clock_speed;
    // Maker steps touch every symbol's ladder: at most every 20 real ms. Single taker or churn
    // events are cheap: batched only within 2 real ms, so trades keep their own timestamps even
    // at a high clock speed.
    this.#minGapMs = 2 * speed;
    this.#stepMs = Math.max(cfg.step_ms, 20 * speed);
    const now = venue.clock.nowMs();
    this.#lastStepMs = now;
    this.#nextStepMs = now;
    this.#lastSecondMs = now;
    this.#t0Ms = now;
    const symbols = cfg.symbols ?? venue.catalog.all().map((i) => i.symbol);
    const gridMs = pathGridMs(cfg.step_ms);
    for (const symbol of symbols) {
      const ins = venue.catalog.get(symbol);
      if (!ins) throw new RangeError(`market.symbols: unknown symbol ${symbol}`);
      const startPrice = venue.markets.get(symbol)!.lastSettlement.toNumber();
      const params = resolveFlow(cfg, ins, startPrice);
      let path = this.paths.get(params.underlyingKey);
      if (!path) {
        const factorSeed = params.underlying.correlation > 0 ? deriveSeed(seed, `group:${params.correlationGroup}`) : null;
        path = new UnderlyingPath(params.underlying, new Rng(deriveSeed(seed, `underlying:${params.underlyingKey}`)), factorSeed, gridMs, now);
        this.paths.set(params.underlyingKey, path);
      }
      const actor = (name: string): Actor => {
        const a = venue.createInternalAccount(name);
        return { userId: a.userId, accountId: a.id };
      };
      const makers = Array.from({ length: params.makerAccounts }, (_, k) => actor(`mm-${symbol}-${k + 1}`));
      const deps = { venue, ins, params, path, startPrice, rng: new Rng(deriveSeed(seed, symbol)), makers, taker: actor(`taker-${symbol}`), stats: this.stats };
      this.flows.set(symbol, new SymbolFlow(deps, now));
    }
    this.#enabled = cfg.enabled;
  }

  /** Starts the flow (first step now, then at every step and event) when `market.enabled`. */
  start(): void {
    if (!this.#enabled || this.#cancel) return;
    this.step();
  }

  /** The current underlying price of `symbol`, if it has flow (its starting price while the flow is disabled). */
  underlying(symbol: string): number | undefined {
    return this.flows.get(symbol)?.underlying(this.#enabled ? this.venue.clock.nowMs() : this.#t0Ms);
  }

  /**
   * Advances every symbol to the venue's current time: a maker step when one is due, then the
   * taker and churn events due, then re-arms the timer (the timer calls this; tests may too).
   */
  step(): void {
    const now = this.venue.clock.nowMs();
    if (now >= this.#nextStepMs) {
      const dt = now - this.#lastStepMs;
      this.#lastStepMs = now;
      this.#nextStepMs = Math.max(this.#nextStepMs + this.#stepMs, now + 1);
      this.stats.steps++;
      for (const f of this.flows.values()) if (this.#open(f)) f.step(now, dt);
      if (this.stats.steps % 256 === 0) for (const p of this.paths.values()) p.trim(now);
      if (now - this.#lastSecondMs >= 1000 || this.stats.steps === 1) {
        this.#lastSecondMs = now;
        this.onSecond(now);
      }
    }
    for (const f of this.flows.values()) {
      if (this.#open(f)) f.events(now);
      else this.#skip(f, now);
    }
    if (this.#enabled) this.#arm(now);
  }

  /** Stops the timer. */
  close(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #open(f: SymbolFlow): boolean {
    return this.venue.markets.get(f.symbol)?.state === 'OPEN';
  }

  /** A closed symbol's events lapse (no trading) but its clocks move on. */
  #skip(f: SymbolFlow, now: number): void {
    if (f.nextTakerMs <= now) f.nextTakerMs = now + 1000;
    if (f.nextChurnMs <= now) f.nextChurnMs = now + 1000;
  }

  #arm(now: number): void {
    this.#cancel?.();
    // Steps keep their own grid (the step interval already respects the minimum gap); events in
    // between are batched so the timer never fires more often than every minGap.
    let next = Number.POSITIVE_INFINITY;
    for (const f of this.flows.values()) next = Math.min(next, f.nextTakerMs, f.nextChurnMs);
    const delay = Math.max(0, Math.min(Math.max(next - now, this.#minGapMs), this.#nextStepMs - now));
    this.#cancel = this.venue.clock.setTimer(delay, () => {
      this.#cancel = undefined;
      this.step();
    });
  }
}
