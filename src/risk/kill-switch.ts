import { policyFor, type KillSwitchConfig } from './config.ts';
import { OrderBudget, type OrderCounts } from './order-budget.ts';
import type { KillSwitchAction, KillSwitchReason } from './trading-state.ts';

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

/** A change of the switch's state; a trip carries what it does (pause or stop the daemon). */
export type KillSwitchTransition =
  | { readonly kind: 'tripped'; readonly reason: KillSwitchReason; readonly detail: string; readonly action: KillSwitchAction }
  | { readonly kind: 'cleared'; readonly reason: KillSwitchReason };

/** The switch's state. */
export interface KillSwitchState {
  readonly tripped: boolean;
  readonly reason: KillSwitchReason | null;
  readonly detail: string | null;
  readonly sinceMs: number | null;
  /** What the trip does (null when armed). */
  readonly action: KillSwitchAction | null;
}

const DAY_MS = 86_400_000;

/**
 * The kill switch: trips on drawdown from the PnL peak, loss since the UTC day began, a storm of
 * venue rejects, stale market data, a lost connection, an order-count budget, or by hand. Once
 * tripped the engine pulls every quote; each trigger's policy (config `triggers`) says whether the
 * daemon then stops or pauses, and whether a pause lifts by itself when its condition clears
 * (otherwise it latches until `reset`, i.e. `mmbot ctl resume`). Deterministic: time comes in.
 */
export class KillSwitch {
  #cfg: KillSwitchConfig;
  #reason: KillSwitchReason | null = null;
  #detail: string | null = null;
  #sinceMs: number | null = null;
  #action: KillSwitchAction | null = null;
  #peakPnl = 0;
  #day = -1;
  #dayStartPnl = 0;
  readonly #rejects: number[] = [];
  readonly #orders: OrderBudget;

  constructor(config: KillSwitchConfig) {
    this.#cfg = config;
    this.#orders = new OrderBudget(config.maxOrdersPerMinute, config.maxOrdersPerDay);
  }

  /** New thresholds (a live config reload); the state (tripped, peak, day start, order counts) is kept. */
  reconfigure(config: KillSwitchConfig): void {
    this.#cfg = config;
    this.#orders.reconfigure(config.maxOrdersPerMinute, config.maxOrdersPerDay);
  }

  /** True while tripped. */
  get tripped(): boolean {
    return this.#reason !== null;
  }

  /** Current state. */
  state(): KillSwitchState {
    return { tripped: this.#reason !== null, reason: this.#reason, detail: this.#detail, sinceMs: this.#sinceMs, action: this.#action };
  }

  /** Orders counted in the last 60 s and today, with the budgets (0 = none). */
  orderCounts(nowMs: number): OrderCounts & { readonly perMinute: number; readonly perDay: number } {
    return { ...this.#orders.counts(nowMs), ...this.#orders.limits };
  }

  /**
   * An order (place or replace) is about to be sent: counts it when it fits the order budgets.
   * One that would exceed a budget must not be sent (`ok` false); the first such trips the switch.
   */
  admitOrder(nowMs: number): { readonly ok: boolean; readonly transition: KillSwitchTransition | null } {
    const over = this.#orders.tryTake(nowMs);
    if (over === null) return { ok: true, transition: null };
    const { perMinute, perDay } = this.#orders.limits;
    const detail = over === 'minute' ? `${perMinute} orders in the last minute: max_orders_per_minute ${perMinute} reached` : `${perDay} orders today (UTC): max_orders_per_day ${perDay} reached`;
    return { ok: false, transition: this.trip('order-budget', detail, nowMs) };
  }

  /** Records a venue reject; returns a trip when the storm threshold is crossed. */
  recordReject(nowMs: number): KillSwitchTransition | null {
    const { rejectStormCount: n, rejectStormWindowMs: w } = this.#cfg;
    if (n <= 0) return null;
    this.#rejects.push(nowMs);
    this.#pruneRejects(nowMs);
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
    const drawdown = this.#peakPnl - x.totalPnlUsd;
    const tooDeep = c.maxDrawdownUsd > 0 && drawdown > c.maxDrawdownUsd;
    const dayLoss = this.#dayStartPnl - x.totalPnlUsd;
    const tooLossy = c.maxDailyLossUsd > 0 && dayLoss > c.maxDailyLossUsd;
    if (this.#reason !== null) {
      const reason = this.#reason;
      const policy = policyFor(c, reason);
      if (policy.action === 'stop' || !policy.autoResume) return null;
      if (this.#holds(reason, { stale, lost, tooDeep, tooLossy }, x.nowMs)) return null;
      this.#clear();
      return { kind: 'cleared', reason };
    }
    if (tooDeep) return this.trip('drawdown', `drawdown ${drawdown.toFixed(2)} USD > ${c.maxDrawdownUsd}`, x.nowMs);
    if (tooLossy) return this.trip('daily-loss', `loss today ${dayLoss.toFixed(2)} USD > ${c.maxDailyLossUsd}`, x.nowMs);
    if (lost) return this.trip('lost-connection', `disconnected for ${downMs} ms > ${c.lostConnectionMs}`, x.nowMs);
    if (stale) return this.trip('stale-market-data', `no market data for ${staleAge} ms > ${c.staleMarketDataMs}`, x.nowMs);
    return null;
  }

  /** Trips the switch (no-op when already tripped); the action comes from the trigger's policy. */
  trip(reason: KillSwitchReason, detail: string, nowMs: number): KillSwitchTransition | null {
    if (this.#reason !== null) return null;
    const { action } = policyFor(this.#cfg, reason);
    this.#reason = reason;
    this.#detail = detail;
    this.#sinceMs = nowMs;
    this.#action = action;
    return { kind: 'tripped', reason, detail, action };
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

  /** Whether the condition that tripped the switch still holds (for auto-resume). */
  #holds(reason: KillSwitchReason, now: { stale: boolean; lost: boolean; tooDeep: boolean; tooLossy: boolean }, nowMs: number): boolean {
    switch (reason) {
      case 'stale-market-data':
        return now.stale;
      case 'lost-connection':
        return now.lost;
      case 'drawdown':
        return now.tooDeep;
      case 'daily-loss':
        return now.tooLossy;
      case 'reject-storm':
        this.#pruneRejects(nowMs);
        return this.#rejects.length >= this.#cfg.rejectStormCount;
      case 'order-budget':
        return !this.#orders.hasRoom(nowMs);
      case 'manual':
        return true;
    }
  }

  #pruneRejects(nowMs: number): void {
    const w = this.#cfg.rejectStormWindowMs;
    while (this.#rejects.length > 0 && this.#rejects[0]! <= nowMs - w) this.#rejects.shift();
  }

  #clear(): void {
    this.#reason = null;
    this.#detail = null;
    this.#sinceMs = null;
    this.#action = null;
  }
}
