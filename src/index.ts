/**
 * mmbot's public API for strategies: core primitives, the domain model, the strategy contract and
 * pure quoting helpers. Strategies (strategies/<name>/) import only from here.
 */
export * from './core/index.ts';
export * from './domain/index.ts';
export * from './strategy/index.ts';
/** zod, re-exported so a strategy's parameter schema needs no other import. */
export { z } from 'zod';
