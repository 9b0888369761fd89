import { readFileSync } from 'node:fs';
import type { Instrument, InstrumentCatalog } from '../../domain/instrument.ts';
import { instrumentCatalog } from '../../domain/instrument.ts';
import { decodeInstrument, toDomainInstrument } from '../../wire/index.ts';

/** The raw instrument record as `GET /api/instruments` serves it (the captured sandbox catalog). */
export type RawInstrument = Readonly<Record<string, unknown>> & { readonly symbol: string };

let cachedRaw: readonly RawInstrument[] | undefined;

/** The shipped catalog (29 instruments, a copy of the captured sandbox catalog), raw wire records. */
export function defaultRawInstruments(): readonly RawInstrument[] {
  if (!cachedRaw) {
    const text = readFileSync(new URL('./instruments.json', import.meta.url), 'utf8');
    const parsed = JSON.parse(text) as { instruments: RawInstrument[] };
    cachedRaw = Object.freeze(parsed.instruments.map((i) => Object.freeze(i)));
  }
  return cachedRaw;
}

/**
 * Maps a raw catalog record to the domain Instrument through the wire decoder and mapper (the
 * records are captured `/api/instruments` rows, so the client's own mapping applies as is).
 * @throws RangeError naming the symbol and the field when a record does not decode or map.
 */
function toInstrument(r: RawInstrument): Instrument {
  const decoded = decodeInstrument(r);
  const mapped = decoded.ok ? toDomainInstrument(decoded.value) : decoded;
  if (!mapped.ok) throw new RangeError(`instrument ${r.symbol}: ${mapped.error.message}`);
  return mapped.value;
}

/** The shipped catalog as domain instruments. */
export function defaultCatalog(): InstrumentCatalog {
  return instrumentCatalog(defaultRawInstruments().map(toInstrument));
}

/**
 * Starting last-settlement prices per symbol (≈ the sandbox on 2026-09-24; equities from the
 * captured tickers where present). Bands are ±10% around these until the first settlement.
 */
export const INITIAL_PRICES: Readonly<Record<string, string>> = Object.freeze({
  'USO-PERP': '78.45',
  'AAPL-PERP': '337.02',
  'QQQ-PERP': '612.35',
  'AMZN-PERP': '249.27',
  'GOOGL-PERP': '251.64',
  'EURUSD-PERP': '1.1401',
  'XAU-PERP': '4012.5',
  'INTC-PERP': '31.84',
  'SNDK-PERP': '118.66',
  'UNG-PERP': '13.27',
  'UST10Y-PERP': '101.18',
  'MSFT-PERP': '523.41',
  'XAU-2026-SEP': '4015.2',
  'NVDA-PERP': '187.94',
  'XAG-PERP': '65.48',
  'XAU-2026-DEC': '4048.7',
  'BRLUSD-PERP': '0.1944',
  'BNO-PERP': '60.36',
  'SPY-PERP': '668.12',
  'TSLA-PERP': '442.79',
  'GBPUSD-PERP': '1.3452',
  'XCU-PERP': '4.7215',
  'META-PERP': '761.33',
  'AMD-PERP': '614.61',
  'JPYUSD-PERP': '0.006742',
  'MXNUSD-PERP': '0.05461',
  'MU-PERP': '171.05',
  'WTIOIL-PERP': '64.215',
  'XAL-PERP': '2.6875',
});
