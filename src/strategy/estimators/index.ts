/** Online estimators for strategies: time-aware (engine clock), O(1) per update, allocation-free. */
export * from './ewma.ts';
export * from './volatility.ts';
export * from './intensity.ts';
export * from './order-flow.ts';
export * from './microprice.ts';
export * from './markout-tracker.ts';
export * from './predictive-regression.ts';
export * from './loss-feedback.ts';
export * from './mid-predictor.ts';
export * from './regime-edge.ts';
