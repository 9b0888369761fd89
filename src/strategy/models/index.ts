/** Closed-form market-making models (pure functions in engine units). */
export * from './avellaneda-stoikov.ts';
export * from './glft.ts';
export * from './glft-bounded.ts';
export * from './risk-budget.ts';
