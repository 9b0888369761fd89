/** Pure pre-trade risk: limits as data, the quote gate, raw-intent checks, trading states, kill switch. */
export * from './config.ts';
export * from './trading-state.ts';
export * from './quote-gate.ts';
export * from './md-sanity.ts';
export * from './intent-check.ts';
export * from './kill-switch.ts';
export * from './order-budget.ts';
