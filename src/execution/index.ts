/** Rate-aware execution adapter: budgets as data, priorities, coalescing, adaptive slow-down. */
export * from './config.ts';
export * from './token-bucket.ts';
export * from './executor.ts';
