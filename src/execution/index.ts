/** Rate-aware execution adapter: budgets as data, priorities, coalescing, AIMD rate learning. */
export * from './config.ts';
export * from './token-bucket.ts';
export * from './adaptive-rate.ts';
export * from './executor.ts';
