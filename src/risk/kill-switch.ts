import type { KillSwitchConfig } from './config.ts';
import { SELF_CLEARING_REASONS, type KillSwitchReason } from './trading-state.ts';

/** What the kill switch looks at on each check (numbers: USD and epoch ms). */
export interface KillSwitchInputs {
  readonly nowMs: number;
  /** Total PnL (all components) in USD. */
  readonly totalPnlUsd: number;
  /** Oldest market-data age among quoted symbols (ms), null when nothing is quoted. */
  readonly maxMarketDataAgeMs: number | null;
  /** Since when a required stream has been down (epoch ms), null when all are up. */
  readonly disconnectedSinceMs: number | null;
}

/** A change of the switch's state. */
export type KillSwitchTransition =
  | { readonly kind: 'tripped'; readonly reason: KillSwitchReason; readonly detail: string }
  | { readonly kind: 'cleared'; readonly reason: KillSwitchReason };

const DAY_MS = 86_400_000;

/**
 * The kill switch: trips on drawdown from the PnL peak, loss since the UTC day began, a storm of
 * venue rejects, stale market data or a lost connection, or by hand. Once tripped the engine pulls
 * every quote. Loss, reject-storm and manual trips latch until `reset`; stale data and lost
 * connection clear by themselves when `autoClearConditions` is set. Deterministic: time comes in.
 */
export class KillSwitch {
  #cfg: KillSwitchConfig;
  #reason: KillSwitchReason | null = null;
  #detail: string | null = null;
  #sinceMs: number | null = null;
  #peakPnl = 0;
  #day = -1;
  #dayStartPnl = 0;
  readonly #rejects: number[] = [];

  constructor(config: KillSwitchConfig) {
    this.#cfg = config;
  }

  /** New thresholds (a live config reload); the state (tripped, peak, day start) is kept. */
  reconfigure(config: KillSwitchConfig): void {
    this.#cfg = config;
  }

  /** True while tripped. */
  get tripped(): boolean {
    return this.#reason !== null;
  }

  /** Current state. */
  state(): { readonly tripped: boolean; readonly reason: KillSwitchReason | null; readonly detail: string | null; readonly sinceMs: number | null } {
    return { tripped: this.#reason !== null, reason: this.#reason, detail: this.#detail, sinceMs: this.#sinceMs };
  }

  /** Records a venue reject; returns a trip when the storm threshold is crossed. */
  recordReject(nowMs: number): KillSwitchTransition | null {
    const { rejectStormCount: n, rejectStormWindowMs: w } = this.#cfg;
    if (n <= 0) return null;
    this.#rejects.push(nowMs);
    while (this.#rejects.length > 0 && this.#rejects[0]! <= nowMs - w) this.#rejects.shift();
    if (this.#rejects.length >= n) return this.trip('reject-storm', `${this.#rejects.length} rejects within ${w} ms`, nowMs);
    return null;
  }

  /** Evaluates the continuous conditions; returns a transition when the state changes. */
  check(x: KillSwitchInputs): KillSwitchTransition | null {
    const c = this.#cfg;
    const day = Math.floor(x.nowMs / DAY_MS);
    if (day !== this.#day) {
      this.#day = day;
      this.#dayStartPnl = x.totalPnlUsd;
    }
    if (x.totalPnlUsd > this.#peakPnl) this.#peakPnl = x.totalPnlUsd;
    const staleAge = x.maxMarketDataAgeMs;
    const stale = c.staleMarketDataMs > 0 && staleAge !== null && staleAge > c.staleMarketDataMs;
    const downMs = x.disconnectedSinceMs === null ? 0 : x.nowMs - x.disconnectedSinceMs;
    const lost = c.lostConnectionMs > 0 && x.disconnectedSinceMs !== null && downMs > c.lostConnectionMs;
    if (this.#reason !== null) {
      if (!c.autoClearConditions || !SELF_CLEARING_REASONS.has(this.#reason)) return null;
      const still = this.#reason === 'stale-market-data' ? stale : lost;
      if (still) return null;
      const reason = this.#reason;
      this.#clear();
      return { kind: 'cleared', reason };
    }
    const drawdown = this.#peakPnl - x.totalPnlUsd;
    if (c.maxDrawdownUsd > 0 && drawdown > c.maxDrawdownUsd) return this.trip('drawdown', `drawdown ${drawdown.toFixed(2)} USD > ${c.maxDrawdownUsd}`, x.nowMs);
    const dayLoss = this.#dayStartPnl - x.totalPnlUsd;
    if (c.maxDailyLossUsd > 0 && dayLoss > c.maxDailyLossUsd) return this.trip('daily-loss', `loss today ${dayLoss.toFixed(2)} USD > ${c.maxDailyLossUsd}`, x.nowMs);
    if (lost) return this.trip('lost-connection', `disconnected for ${downMs} ms > ${c.lostConnectionMs}`, x.nowMs);
    if (stale) return this.trip('stale-market-data', `no market data for ${staleAge} ms > ${c.staleMarketDataMs}`, x.nowMs);
    return null;
  }

  /** Trips the switch (no-op when already tripped). */
  trip(reason: KillSwitchReason, detail: string, nowMs: number): KillSwitchTransition | null {
    if (this.#reason !== null) return null;
    this.#reason = reason;
    this.#detail = detail;
    this.#sinceMs = nowMs;
    return { kind: 'tripped', reason, detail };
  }

  /** Clears the switch by hand; resets the drawdown peak to `currentPnlUsd` and forgets old rejects. */
  reset(currentPnlUsd: number): boolean {
    const was = this.#reason !== null;
    this.#clear();
    this.#peakPnl = currentPnlUsd;
    this.#dayStartPnl = Math.min(this.#dayStartPnl, currentPnlUsd);
    this.#rejects.length = 0;
    return was;
  }

  #clear(): void {
    this.#reason = null;
    this.#detail = null;
    this.#sinceMs = null;
  }
}
