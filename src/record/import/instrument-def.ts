import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { Decimal } from '../../core/decimal.ts';
import { MmError } from '../../core/errors.ts';
import { asSymbol } from '../../core/ids.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { TickGrid } from '../../domain/tick-grid.ts';

/** Fee rates as fractions of notional (0.0002 = 2 bps); negative = rebate. */
export interface FeeRates {
  readonly maker: Decimal;
  readonly taker: Decimal;
}

/** An imported market's contract: the instrument plus how source sizes map to contracts, and its fees. */
export interface InstrumentDef {
  readonly instrument: Instrument;
  /** Source quantity per mmbot contract (0.001 when the source trades a coin in thousandths). */
  readonly lotSize: Decimal;
  readonly fees: FeeRates;
}

const DECIMAL_TEXT = /^-?[0-9]+(\.[0-9]+)?([eE]-?[0-9]+)?$/;
const decimal = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .refine((s) => DECIMAL_TEXT.test(s), { message: 'expected a decimal string such as "0.01"', abort: true });
const positiveDecimal = decimal.refine((s) => DECIMAL_TEXT.test(s) && new Decimal(s).gt(0), { message: 'must be > 0' });

const schema = z.strictObject({
  symbol: z.string().regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dot, dash or underscore'),
  tick_size: positiveDecimal,
  lot_size: positiveDecimal.default('1'),
  min_size: z.number().int().min(1).default(1),
  multiplier: positiveDecimal.optional(),
  maker_fee: decimal.default('0'),
  taker_fee: decimal.default('0'),
  kind: z.enum(['perpetual', 'dated']).default('perpetual'),
  category: z.string().default('imported'),
  description: z.string().optional(),
});

/**
 * Reads an instrument definition YAML (`symbol`, `tick_size`, `lot_size`, `min_size`, `multiplier`,
 * `maker_fee`, `taker_fee`; decimal strings) for importing third-party market data. `multiplier`
 * (default 1) is required when `lot_size` is not 1.
 * @throws MmError FILE_NOT_FOUND or CONFIG_INVALID naming the file, key and value.
 */
export function loadInstrumentDef(path: string): InstrumentDef {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new MmError('FILE_NOT_FOUND', `cannot read instrument file ${path}`, { path });
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (e) {
    throw new MmError('CONFIG_INVALID', `${path}: not valid YAML: ${(e as Error).message}`, { path });
  }
  return parseInstrumentDef(raw, path);
}

/**
 * Validates a parsed instrument definition.
 * @throws MmError CONFIG_INVALID naming `where`, the key and the value.
 */
export function parseInstrumentDef(raw: unknown, where: string): InstrumentDef {
  const r = schema.safeParse(raw);
  if (!r.success) {
    const lines = r.error.issues.map((i) => {
      const key = i.path.join('.') || '(root)';
      const got = i.path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined), raw);
      // zod says "Invalid input" for an absent key of a union type: name it.
      if (got === undefined && i.path.length > 0 && (i.code === 'invalid_union' || i.code === 'invalid_type')) return `${key}: missing (required)`;
      return `${key}: ${i.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`;
    });
    throw new MmError('CONFIG_INVALID', `${where}: ${lines.join('; ')}`, { path: where });
  }
  const d = r.data;
  // A contract of lot_size ≠ 1 source units is worth lot_size units, not 1: the default multiplier 1
  // silently valued every contract as one unit (lot 0.001 → PnL 1000× too large).
  if (d.multiplier === undefined && !new Decimal(d.lot_size).eq(1))
    throw new MmError(
      'CONFIG_INVALID',
      `${where}: multiplier: missing (required when lot_size is not 1): one contract is lot_size ${d.lot_size} of the source's quantity unit, so PnL needs multiplier (usually ${d.lot_size}, the same); the default 1 would make PnL ${new Decimal(1).div(d.lot_size).toFixed()}× too large`,
      { path: where },
    );
  const multiplier = d.multiplier ?? '1';
  const wide = new Decimal(100);
  const instrument: Instrument = {
    symbol: asSymbol(d.symbol),
    product: d.symbol,
    kind: d.kind,
    category: d.category,
    description: d.description ?? `${d.symbol} (imported)`,
    expirationMs: null,
    grid: new TickGrid(new Decimal(d.tick_size).toFixed()),
    multiplier: new Decimal(multiplier),
    minOrderSize: d.min_size,
    initialMarginPct: new Decimal(10),
    maintenanceMarginPct: new Decimal(5),
    // Third-party data has no venue price band: never let a band trim quotes in a backtest of it.
    bandLowerPct: wide,
    bandUpperPct: wide,
    fundingCapUpperPct: null,
    fundingCapLowerPct: null,
    fundingSchedule: null,
    fundingVariant: null,
    estimatedFundingSupported: false,
  };
  return { instrument, lotSize: new Decimal(d.lot_size), fees: { maker: new Decimal(d.maker_fee), taker: new Decimal(d.taker_fee) } };
}
