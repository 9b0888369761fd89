export * from './brand.ts';
export * from './result.ts';
export * from './clock.ts';
export * from './scheduler.ts';
export * from './ulid.ts';
export * from './ids.ts';
export * from './decimal.ts';
export * from './errors.ts';
