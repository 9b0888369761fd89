/**
 * The backtester's public API: replay recordings through the daemon's engine against a replay
 * exchange, build reports, run sweeps. The CLI (`mmbot backtest`, `mmbot sweep`) composes these.
 */
export { runBacktest, type BacktestInput, type BacktestRun } from './runner.ts';
export { executeRunSpec, type RunSpec, type StrategySpec } from './run-spec.ts';
export { backtestSectionSchema, toSettings, defaultSettings, SANDBOX_FEES, VENUE_RATE_LIMIT, type BacktestSection, type BacktestSettings } from './settings.ts';
export { buildReport, reportJson, fillsCsv, type BacktestReport, type SectionReport, type PnlReport, type OrderActivity, type TotalRisk } from './report.ts';
export { equityStats, pnlRatios, absPercentile, type Drawdown, type PnlRatios, type MarkoutReport } from './report-stats.ts';
export { FillMarkouts, CURVE_HORIZONS_MS, HEADLINE_HORIZONS } from './fill-markouts.ts';
export { reportHtml } from './report-html.ts';
export { ReplayExchange, type ReplayExchangeOptions } from './replay-exchange.ts';
export { riskAverseQueue, probQueue, probBehind, queueModel, type QueueModel, type QueueModelConfig, type QueueState, type ProbShape } from './queue-model.ts';
export { loadQueueModel, resolveQueueModel, isQueueModelModule, type QueueModelModule } from './queue-model-module.ts';
export { fifoDiff, aheadAfter, sizeAhead, tradeFront, L3Levels } from './l3-fifo.ts';
export { ConsumedLiquidity } from './consumed-liquidity.ts';
export { LatencyModel, recordedLatency, type LatencyDist, type OrderLatencyConfig, type RecordedLatency, type RequestLegs } from './latency-model.ts';
export { parityReport, parityTable, parityHtml, markoutsBps, liveFills, MidPath, PARITY_CHECKED, type ParityReport, type ParityRow, type ParityFigures } from './parity.ts';
export { SymbolLedger, feeSchedule, type BacktestFill, type FeeSchedule } from './ledger.ts';
export { BacktestObserver, type QuoteTimes, type SymbolSeries } from './observer.ts';
export { expandGrid, rankRows, sweepCsv, sweepRow, RANK_KEYS, type GridAxis, type GridPoint, type RankKey, type SweepRow } from './sweep.ts';
export { syntheticMarket, type SyntheticMarketOptions } from './synthetic-recording.ts';
