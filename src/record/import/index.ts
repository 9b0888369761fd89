/** Importers of third-party market data into mmbot recordings. */
export * from './instrument-def.ts';
export * from './level-book.ts';
export * from './line-source.ts';
export * from './row-issues.ts';
export * from './source-clock.ts';
export * from './tardis.ts';
export * from './lobster.ts';
export * from './order-book-l3.ts';
export * from './time-zone.ts';
export * from './dbn-decoder.ts';
export * from './dbn-source.ts';
export * from './mbo-book.ts';
export * from './databento.ts';
export * from './tardis-ticker.ts';
