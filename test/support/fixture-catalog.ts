/** Test helper: the captured instrument catalog (test/fixtures/venue/instruments.json) as a domain catalog. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instrumentCatalog, type InstrumentCatalog } from '../../src/domain/instrument.ts';
import { mapInstrument, unwrap } from '../../src/client/wire-port.ts';
import type { WireInstrument } from '../../src/wire/index.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/venue');

/** Reads a venue fixture as compact JSON text (how frames arrive on the wire). */
export function fixtureText(name: string): string {
  return JSON.stringify(JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')));
}

/** Reads a venue fixture as a parsed object. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
}

/** The captured catalog as domain instruments. */
export function fixtureCatalog(): InstrumentCatalog {
  const raw = fixture<{ instruments: WireInstrument[] }>('instruments.json').instruments;
  return instrumentCatalog(raw.map((w) => unwrap(mapInstrument(w))));
}
