export * from './format.ts';
export * from './instrument-json.ts';
export * from './line-codec.ts';
export * from './book-diff.ts';
export * from './writer.ts';
export * from './reader.ts';
export * from './columnar.ts';
export * from './recorder.ts';
