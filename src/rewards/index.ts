/**
 * Reward program (MMLP) tracking: the accruals ledger read from the venue, its totals and trend,
 * and a local estimate of our per-minute score with the venue's model (domain/reward-score.ts).
 */
export * from './types.ts';
export * from './ledger.ts';
export * from './fetch-all.ts';
export * from './tracker.ts';
export * from './queue-age.ts';
export * from './score-estimator.ts';
export * from './wire-map.ts';
export * from './rest-source.ts';
export * from './report.ts';
export * from './own-orders.ts';
