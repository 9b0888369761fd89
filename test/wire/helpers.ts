/** Shared test helpers: fixture loading and the fixture instrument catalog. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { instrumentCatalog, type Instrument, type InstrumentCatalog } from '../../src/domain/index.ts';
import { decodeInstrumentsResponse, toDomainInstrument, type WireInstrument } from '../../src/wire/index.ts';

/** The venue fixture directory. */
export const FIXTURES = join(import.meta.dirname, '../fixtures/venue');

/** Fixture file names. */
export const fixtureFiles = (): string[] => readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).sort();

/** Raw fixture text. */
export const fixtureText = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

/** Parsed fixture value. */
export const fixture = (name: string): unknown => JSON.parse(fixtureText(name));

/** Unwraps a Result or fails the test with the error message. */
export function unwrap<T, E extends { message: string }>(r: { ok: true; value: T } | { ok: false; error: E }): T {
  if (!r.ok) throw new Error(`unexpected error: ${r.error.message}`);
  return r.value;
}

/** The 29 fixture instruments as wire records. */
export const wireInstruments = (): readonly WireInstrument[] => unwrap(decodeInstrumentsResponse(fixture('instruments.json'))).instruments;

/** The fixture instruments mapped to the domain. */
export const domainInstruments = (): Instrument[] => wireInstruments().map((w) => unwrap(toDomainInstrument(w)));

/** A catalog over the fixture instruments. */
export const fixtureCatalog = (): InstrumentCatalog => instrumentCatalog(domainInstruments());
