import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { EngineSnapshot, OperableEngine, PnlBreakdown } from '../../engine/index.ts';
import type { ConsoleHistory } from './history.ts';

/** A strategy's configured identity and its current (live) params. */
export interface StrategyInfo {
  readonly id: string;
  /** The strategy's name (built-in) or module path. */
  readonly strategy: string;
  params: Readonly<Record<string, unknown>>;
}

/** Live values the console tracks from the clients (connections, funding, rewards, markouts). */
export interface LiveFeeds {
  readonly connections: Map<string, boolean>;
  /** Last funding rate per symbol (fraction per interval). */
  readonly fundingRate: Map<string, number>;
  /** Estimated share of the symbol's reward score this minute, in [0, 1]. */
  readonly rewardShare: Map<string, number>;
  /** Recent mean markout in bps per symbol and horizon label (1s, 10s, 60s). */
  markouts(symbol: string): Record<string, number | null> | null;
  /** Feeds the snapshot to the no-quote watch; returns ms each symbol went without a quote it should have (null: no watch yet). */
  observeNoQuotes(snap: EngineSnapshot): (symbol: string) => number | null;
}

const money = (p: PnlBreakdown): Record<string, string> => ({
  total: p.total.toFixed(2),
  spreadCapture: p.spreadCapture.toFixed(2),
  inventory: p.inventory.toFixed(2),
  fees: p.fees.toFixed(2),
  funding: p.funding.toFixed(2),
  rewards: p.rewards.toFixed(2),
  realized: p.realized.toFixed(2),
  unrealized: p.unrealized.toFixed(2),
});

/**
 * The console's read model (GET /api/v1/state and the page's live stream): strategies with their
 * params and operator state; per symbol the book's touch, the quotes, working orders, position,
 * PnL attribution, funding, reward share and markouts; kill switch, connections, rate budgets,
 * the last fills and alerts. Plain JSON (prices as decimal strings, money to the cent).
 */
export function buildState(engine: OperableEngine, catalog: InstrumentCatalog, strategies: readonly StrategyInfo[], feeds: LiveFeeds, history: ConsoleHistory, control: { readonly acting: boolean; readonly readsRequireToken: boolean }): unknown {
  const snap = engine.snapshot();
  const noQuotesMs = feeds.observeNoQuotes(snap);
  const ops = new Map(engine.operatorStates().map((o) => [o.id, o]));
  return {
    nowMs: snap.nowMs,
    running: snap.running,
    tradingState: snap.tradingState,
    killSwitch: snap.killSwitch,
    connections: Object.fromEntries(feeds.connections),
    strategies: strategies.map((s) => {
      const op = ops.get(s.id);
      return {
        id: s.id,
        strategy: s.strategy,
        symbols: op?.symbols ?? [],
        params: s.params,
        paused: op !== undefined && op.operatorState !== 'ACTIVE',
        operatorState: op?.operatorState ?? 'ACTIVE',
        operatorReason: op?.operatorReason ?? '',
        error: op?.failed ?? null,
      };
    }),
    symbols: snap.symbols.map((s) => {
      const grid = catalog.get(s.symbol)?.grid;
      const px = (t: number | null): string | null => (t === null ? null : grid ? grid.toPrice(t) : String(t));
      return {
        symbol: s.symbol,
        strategyId: s.strategyId,
        bestBid: px(s.bestBidTicks),
        bestAsk: px(s.bestAskTicks),
        quotes: {
          bids: (s.desired?.bids ?? []).map((l) => ({ price: px(l.priceTicks), qty: l.qty })),
          asks: (s.desired?.asks ?? []).map((l) => ({ price: px(l.priceTicks), qty: l.qty })),
        },
        working: s.working.map((o) => ({ side: o.side, price: px(o.priceTicks), qty: o.qty, filledQty: o.filledQty, status: o.status, orderId: o.orderId, clientOrderId: o.clientOrderId })),
        position: { qty: s.position.qty, avgPrice: s.position.avgPrice?.toFixed(grid?.decimals ?? 6) ?? null, mark: px(s.position.markTicks) },
        pnl: money(s.pnl),
        tradingState: s.tradingState,
        tradingReason: s.tradingReason,
        // Seconds ACTIVE on a two-sided market with none of our orders at the venue (see no-quote-watch.ts).
        noQuotesForS: ((ms) => (ms === null ? null : Math.floor(ms / 1000)))(noQuotesMs(s.symbol)),
        marketDataSuspect: s.marketDataSuspect,
        instrumentState: s.instrumentState,
        strategyError: s.strategyError,
        lastMarketDataMs: s.lastMarketDataMs,
        fundingRate: feeds.fundingRate.get(s.symbol) ?? null,
        rewardShare: feeds.rewardShare.get(s.symbol) ?? null,
        markoutsBps: feeds.markouts(s.symbol),
      };
    }),
    pnl: money(snap.pnl),
    counters: { fills: snap.counters.fills, intentsSent: snap.counters.intentsSent, rejects: snap.counters.rejects },
    execution: snap.execution,
    fills: history.fills.slice(-50),
    alerts: history.alerts.slice(-50),
    control,
  };
}
