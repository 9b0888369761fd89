import { Decimal } from '../core/decimal.ts';
import type { BacktestRun } from './runner.ts';
import type { SymbolLedger } from './ledger.ts';
import type { BacktestObserver, QuoteTimes } from './observer.ts';
import { absPercentile, combineStats, equityStats, markoutReport, pnlRatios, RATIO_PERIOD_MS, type MarkoutReport } from './report-stats.ts';
import { CURVE_HORIZONS_MS, HEADLINE_HORIZONS } from './fill-markouts.ts';
import { hedgeReport, type HedgeReport } from './report-hedges.ts';
import { dataProvenance, killSwitchReport, limitsReport, type DataProvenance, type KillSwitchReport, type LimitsReport } from './report-stops.ts';
import { settingsReport, snakeKeys, type SettingsReport } from './report-settings.ts';

export { equityStats } from './report-stats.ts';

/** Money in reports: fixed 6 decimals, so output is byte-stable. */
const money = (d: Decimal): string => d.toFixed(6);
/** Ratios and statistics: rounded to 6 decimals as numbers. */
const num = (x: number): number => (Number.isFinite(x) ? Number(x.toFixed(6)) : 0);

/** PnL split, USD strings (positive = gain). */
export interface PnlReport {
  readonly spread_capture: string;
  readonly inventory: string;
  readonly fees: string;
  readonly funding: string;
  readonly net: string;
  readonly estimated_rewards: string;
  readonly net_with_rewards: string;
}

/** One symbol's (or the total's) figures. */
export interface SectionReport {
  readonly pnl: PnlReport;
  /**
   * `market_volume`: contracts the recorded prints traded in the window; `volume_share`: volume /
   * market_volume (our participation; can exceed 1 with queue models that fill on depth changes);
   * `cross_volume`: contracts of ours filled by the book crossing our resting orders, not by a
   * print (no recorded trade backs them), `cross_share` = cross_volume / volume.
   */
  readonly fills: { count: number; maker: number; taker: number; maker_share: number; maker_qty_share: number; volume: number; notional_usd: string; market_volume: number; volume_share: number; cross_volume: number; cross_share: number };
  /** Position statistics from the `sample_ms` samples; `time_at_limit`: share of market time with |position| ≥ `position_limit` (the risk limit). */
  readonly inventory: { mean: number; mean_abs: number; max_long: number; max_short: number; final: number; p50_abs: number; p95_abs: number; position_limit: number; time_at_limit: number };
  readonly quoting: { uptime_two_sided: number; uptime_any_side: number; two_sided_inside_reward_spread: number; mean_reward_share: number; scored_minutes: number };
  readonly funding_settlements: number;
  /** Mean markout at 1 s, 10 s, 60 s (bps, positive = good; null when no fill matured). */
  readonly markouts_bps: Readonly<Record<string, number | null>>;
  readonly markouts: MarkoutReport;
}

/** Order activity (engine intents) against fills. */
export interface OrderActivity {
  /** New orders sent: place + replace intents (a replace is a new order at the venue). */
  readonly placed: number;
  /** Orders withdrawn: cancel + replace intents (cancel-all counts once). */
  readonly cancels: number;
  /** Distinct orders with at least one fill. */
  readonly filled_orders: number;
  /** fills / placed (partial fills each count: can exceed 1). */
  readonly fill_ratio: number;
  /** filled_orders / placed: the share of orders placed that traded. */
  readonly filled_order_share: number;
  /** cancels / fills. */
  readonly cancel_to_fill: number;
}

/** Risk figures of the total. */
export interface TotalRisk {
  /** One-day Sharpe of per-minute net PnL changes (see `sharpe_basis`); null when undefined (under 2 minutes, or PnL never varied), not 0. */
  readonly sharpe: number | null;
  /** The period of the PnL changes behind sharpe and sortino (ms). */
  readonly sharpe_sample_ms: number;
  readonly sharpe_basis: string;
  /** One-day Sortino (downside deviation of the same per-minute changes); null when no minute lost. */
  readonly sortino: number | null;
  /** Number of one-minute PnL changes behind the ratios. */
  readonly pnl_periods: number;
  readonly max_drawdown_usd: string;
  readonly max_drawdown_duration_s: number;
  readonly max_drawdown_recovered: boolean;
  readonly orders: OrderActivity;
}

/** The report.json document. Key order is fixed by construction. */
export interface BacktestReport {
  readonly format: 'mmbot-backtest-report';
  readonly version: 1;
  readonly window: { start_ms: number; end_ms: number; duration_s: number };
  readonly recordings: readonly { source: string; started_at: number; symbols: readonly string[] }[];
  /** Each recording's provenance: synthetic or real, and who produced it. */
  readonly data: readonly DataProvenance[];
  /** The live risk limits and kill-switch thresholds the replay enforced. */
  readonly limits: LimitsReport;
  /** Each strategy with its primary symbol and every symbol it quotes or hedges on (primary first). */
  readonly strategies: readonly { id: string; symbol: string; symbols: readonly string[] }[];
  /** The resolved settings, snake_case like the config's `backtest:` section. */
  readonly settings: SettingsReport;
  /** Fee rates charged per symbol (fractions of notional) and where they came from (config, recording, venue-default). */
  readonly fees: Readonly<Record<string, { maker: number; taker: number; source: string }>>;
  /** Order latency source (recorded round trips or the configured model) and the venue's emulated rate limit. */
  readonly venue: { order_latency: 'recorded' | 'model'; recorded_round_trips: number; rate_limit: { burst: number; per_second: number } | null; rate_limited_429: number };
  readonly events: { replayed: number; delivered_to_engine: number };
  readonly total: SectionReport & TotalRisk & { readonly hedges: HedgeReport };
  readonly by_symbol: Readonly<Record<string, SectionReport>>;
  readonly engine: {
    fills: number;
    intents_sent: Readonly<Record<string, number>>;
    rejects: Readonly<Record<string, number>>;
    /** Rejects by `source: reason`, expected races excluded. */
    rejects_by_reason: Readonly<Record<string, number>>;
    kill_switch_trips: number;
    /** Every trip with when and why, and the share of the window spent tripped. */
    kill_switch: KillSwitchReport;
    strategy_errors: number;
    stop_confirmed: boolean;
  };
  readonly meta: unknown;
}

/** Builds the report object from a finished run. `meta` is echoed (e.g. the config file and strategy params). */
export function buildReport(run: BacktestRun, meta: unknown = null): BacktestReport {
  const ex = run.exchange;
  const obs = run.observer;
  const s = run.input.settings;
  const bySymbol: Record<string, SectionReport> = {};
  let total = { spread: new Decimal(0), trading: new Decimal(0), fees: new Decimal(0), funding: new Decimal(0), rewards: 0 };
  const crossQty = new Map<string, number>();
  for (const f of ex.fillLog) if (f.source === 'cross') crossQty.set(f.symbol, (crossQty.get(f.symbol) ?? 0) + f.qty);
  ex.ledgers.forEach((ledger, k) => {
    const ser = obs.series[k]!;
    const mark = ser.mid.at(-1) ?? NaN;
    const times = obs.times[k]!;
    bySymbol[ledger.instrument.symbol] = section(ledger, mark, ser.position.toArray(), times, obs, k, crossQty.get(ledger.instrument.symbol) ?? 0);
    total = {
      spread: total.spread.plus(ledger.spreadCapture),
      trading: total.trading.plus(ledger.tradingPnl(mark)),
      fees: total.fees.plus(ledger.fees),
      funding: total.funding.plus(ledger.funding),
      rewards: total.rewards + times.rewardsUsd,
    };
  });
  const sections = Object.values(bySymbol);
  // The total shows the inventory and quoting of the first strategy's (primary) symbol.
  const primary = run.input.strategies[0]?.symbol;
  const sum = (f: (x: SectionReport) => number): number => sections.reduce((a, x) => a + f(x), 0);
  const fillsCount = sum((x) => x.fills.count);
  const maker = sum((x) => x.fills.maker);
  const makerQty = ex.ledgers.reduce((a, l) => a + l.makerQty, 0);
  const volume = sum((x) => x.fills.volume);
  const marketVolume = sum((x) => x.fills.market_volume);
  const crossVolume = sum((x) => x.fills.cross_volume);
  const rewards = new Decimal(total.rewards.toFixed(6));
  const net = total.trading.minus(total.fees).plus(total.funding);
  const dd = equityStats(obs.equity.toArray(), obs.equityT.toArray());
  const ratios = pnlRatios(obs.minuteEquity);
  const first = (primary !== undefined ? bySymbol[primary] : undefined) ?? sections[0];
  const trackers = obs.markouts.trackers;
  const edgeW = trackers.reduce((a, t) => a + t.edgeWeight, 0);
  const totalMarkouts = markoutReport(
    CURVE_HORIZONS_MS.map((ms, h) => combineStats(trackers.map((t) => t.stats(h)), ms)),
    edgeW > 0 ? trackers.reduce((a, t) => a + (t.edgeWeight > 0 ? t.edgeBps * t.edgeWeight : 0), 0) / edgeW : NaN,
  );
  const totalSection: SectionReport = {
    pnl: pnl(total.spread, total.trading.minus(total.spread), total.fees, total.funding, rewards),
    fills: {
      count: fillsCount,
      maker,
      taker: fillsCount - maker,
      maker_share: num(fillsCount > 0 ? maker / fillsCount : 0),
      maker_qty_share: num(volume > 0 ? makerQty / volume : 0),
      volume,
      notional_usd: money(ex.ledgers.reduce((a, l) => a.plus(l.notional), new Decimal(0))),
      market_volume: marketVolume,
      volume_share: num(marketVolume > 0 ? volume / marketVolume : 0),
      cross_volume: crossVolume,
      cross_share: num(volume > 0 ? crossVolume / volume : 0),
    },
    // Inventory statistics are per symbol (contracts do not add across instruments); the total shows the primary symbol's.
    inventory: first ? first.inventory : { mean: 0, mean_abs: 0, max_long: 0, max_short: 0, final: 0, p50_abs: 0, p95_abs: 0, position_limit: 0, time_at_limit: 0 },
    quoting: first ? first.quoting : { uptime_two_sided: 0, uptime_any_side: 0, two_sided_inside_reward_spread: 0, mean_reward_share: 0, scored_minutes: 0 },
    funding_settlements: ex.ledgers.reduce((a, l) => a + l.fundingEvents, 0),
    markouts_bps: totalMarkouts.headline,
    markouts: totalMarkouts.detail,
  };
  const c = run.engine.counters;
  const sent = (k: keyof typeof c.intentsSent): number => c.intentsSent[k] ?? 0;
  const placed = sent('place') + sent('replace');
  const cancels = sent('cancel') + sent('replace') + sent('cancel-all');
  const filledOrders = new Set(run.fills.map((f) => f.orderId)).size;
  const risk: TotalRisk = {
    sharpe: ratios.sharpe === null ? null : num(ratios.sharpe),
    sharpe_sample_ms: RATIO_PERIOD_MS,
    sharpe_basis: `per-minute changes of net PnL (USD, at UTC minute boundaries), mean / sd × √1440: a one-day Sharpe, no risk-free rate; ${ratios.periods} minutes`,
    sortino: ratios.sortino === null ? null : num(ratios.sortino),
    pnl_periods: ratios.periods,
    max_drawdown_usd: money(new Decimal(dd.maxDrawdown.toFixed(6))),
    max_drawdown_duration_s: num(dd.durationMs / 1000),
    max_drawdown_recovered: dd.recovered,
    orders: {
      placed,
      cancels,
      filled_orders: filledOrders,
      fill_ratio: num(placed > 0 ? fillsCount / placed : 0),
      filled_order_share: num(placed > 0 ? filledOrders / placed : 0),
      cancel_to_fill: num(fillsCount > 0 ? cancels / fillsCount : 0),
    },
  };
  return {
    format: 'mmbot-backtest-report',
    version: 1,
    window: { start_ms: run.startMs, end_ms: run.endMs, duration_s: num((run.endMs - run.startMs) / 1000) },
    recordings: run.input.data.headers.map((h) => ({ source: h.source, started_at: h.started_at, symbols: h.symbols })),
    data: run.input.data.headers.map(dataProvenance),
    limits: limitsReport(run.input.risk),
    strategies: run.input.strategies.map((b) => ({ id: b.id, symbol: b.symbol, symbols: b.symbols ?? [b.symbol] })),
    settings: settingsReport(s),
    fees: run.fees,
    venue: {
      order_latency: run.latency.source,
      recorded_round_trips: run.latency.roundTrips,
      rate_limit: s.rateLimit ? { burst: s.rateLimit.burst, per_second: s.rateLimit.perSecond } : null,
      rate_limited_429: ex.rateLimited,
    },
    events: { replayed: run.eventsReplayed, delivered_to_engine: run.eventsDelivered },
    total: { ...totalSection, pnl: { ...totalSection.pnl, net: money(net), net_with_rewards: money(net.plus(rewards)) }, ...risk, hedges: hedgeReport(run) },
    by_symbol: bySymbol,
    engine: {
      fills: c.fills,
      intents_sent: snakeKeys(c.intentsSent),
      rejects: snakeKeys(c.rejects),
      rejects_by_reason: c.rejectsByReason,
      kill_switch_trips: c.killSwitchTrips,
      kill_switch: killSwitchReport(c.killSwitchEpisodes, run.startMs, run.endMs),
      strategy_errors: c.strategyErrors,
      stop_confirmed: run.stopConfirmed,
    },
    meta,
  };
}

function pnl(spread: Decimal, inventory: Decimal, fees: Decimal, funding: Decimal, rewards: Decimal): PnlReport {
  const net = spread.plus(inventory).minus(fees).plus(funding);
  return {
    spread_capture: money(spread),
    inventory: money(inventory),
    fees: money(fees.neg()),
    funding: money(funding),
    net: money(net),
    estimated_rewards: money(rewards),
    net_with_rewards: money(net.plus(rewards)),
  };
}

function section(ledger: SymbolLedger, mark: number, position: readonly number[], t: Readonly<QuoteTimes>, obs: BacktestObserver, k: number, crossQty: number): SectionReport {
  const fills = ledger.makerFills + ledger.takerFills;
  const trading = ledger.tradingPnl(mark);
  const denom = t.marketMs > 0 ? t.marketMs : 1;
  let sum = 0;
  let sumAbs = 0;
  let maxLong = 0;
  let maxShort = 0;
  for (const p of position) {
    sum += p;
    sumAbs += Math.abs(p);
    if (p > maxLong) maxLong = p;
    if (p < maxShort) maxShort = p;
  }
  const n = Math.max(1, position.length);
  const tracker = obs.markouts.trackers[k]!;
  const markouts = markoutReport(obs.markouts.curve(k), tracker.edgeBps);
  const limit = obs.positionLimit(k);
  return {
    pnl: pnl(ledger.spreadCapture, trading.minus(ledger.spreadCapture), ledger.fees, ledger.funding, new Decimal(t.rewardsUsd.toFixed(6))),
    fills: {
      count: fills,
      maker: ledger.makerFills,
      taker: ledger.takerFills,
      maker_share: num(fills > 0 ? ledger.makerFills / fills : 0),
      maker_qty_share: num(ledger.volume > 0 ? ledger.makerQty / ledger.volume : 0),
      volume: ledger.volume,
      notional_usd: money(ledger.notional),
      market_volume: t.marketVolume,
      volume_share: num(t.marketVolume > 0 ? ledger.volume / t.marketVolume : 0),
      cross_volume: crossQty,
      cross_share: num(ledger.volume > 0 ? crossQty / ledger.volume : 0),
    },
    inventory: {
      mean: num(sum / n),
      mean_abs: num(sumAbs / n),
      max_long: maxLong,
      max_short: maxShort,
      final: ledger.position,
      p50_abs: absPercentile(position, 0.5),
      p95_abs: absPercentile(position, 0.95),
      position_limit: Number.isFinite(limit) ? limit : 0,
      time_at_limit: num(t.atLimitMs / denom),
    },
    quoting: {
      uptime_two_sided: num(t.twoSidedMs / denom),
      uptime_any_side: num(t.anySideMs / denom),
      two_sided_inside_reward_spread: num(t.rewardTwoSidedMs / denom),
      mean_reward_share: num(t.scoredMinutes > 0 ? t.shareSum / t.scoredMinutes : 0),
      scored_minutes: t.scoredMinutes,
    },
    funding_settlements: ledger.fundingEvents,
    markouts_bps: markouts.headline,
    markouts: markouts.detail,
  };
}

/** Serialises the report (2-space JSON, trailing newline). */
export const reportJson = (r: BacktestReport): string => `${JSON.stringify(r, null, 2)}\n`;

/** fills.csv: one row per fill, fixed decimals; the markout columns are empty where the horizon ended after the window. */
export function fillsCsv(run: BacktestRun): string {
  const marks = run.observer.markouts.perFill;
  const lines = [`ts_exchange_ms,ts_local_ms,symbol,side,price,qty,liquidity,fee,mid,position_after,order_id,client_order_id,trade_id,${HEADLINE_HORIZONS.map((h) => `markout_${h.key}_bps`).join(',')}`];
  const grids = new Map(run.exchange.ledgers.map((l) => [l.instrument.symbol as string, l.instrument.grid]));
  for (let k = 0; k < run.fills.length; k++) {
    const f = run.fills[k]!;
    const grid = grids.get(f.symbol)!;
    const mid = Number.isFinite(f.midTicks) ? grid.tickSize.mul(f.midTicks).toFixed(grid.decimals + 1) : '';
    lines.push(
      [f.tsExchange.toFixed(3), f.tsLocal.toFixed(3), f.symbol, f.side, grid.toPrice(f.priceTicks), f.qty, f.aggressor ? 'taker' : 'maker', f.fee.toFixed(8), mid, f.positionAfter, f.orderId, f.clientOrderId ?? '', f.tradeId, ...marks.map((col) => {
        const v = col[k] ?? NaN;
        return Number.isFinite(v) ? v.toFixed(4) : '';
      })].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}
