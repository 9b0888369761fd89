/** The strategy layer: contract, registry/loader and pure quoting helpers. */
export * from './contract.ts';
export * from './helpers.ts';
export * from './registry.ts';
export * from './context-builder.ts';
export * from './estimators/index.ts';
export * from './models/index.ts';
export * from './calibration.ts';
export * from './quote-builder.ts';
export * from './leading-fair.ts';
export * from './queue-aware.ts';
export * from './edge-guard.ts';
export * from './model-quoter.ts';
export * from './overlays/index.ts';
export * from './param-docs.ts';
export * from './param-ranges.ts';
export * from './model-toxicity.ts';
export * from './taker-unwind.ts';
