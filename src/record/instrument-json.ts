import { Decimal } from '../core/decimal.ts';
import { MmError } from '../core/errors.ts';
import { asSymbol } from '../core/ids.ts';
import type { FundingSchedule, Instrument } from '../domain/instrument.ts';
import { TickGrid } from '../domain/tick-grid.ts';

/** An instrument as stored in a recording header: decimals as strings, snake_case keys, stable order. */
export interface InstrumentJson {
  readonly symbol: string;
  readonly product: string;
  readonly kind: 'perpetual' | 'dated';
  readonly category: string;
  readonly description: string;
  readonly expiration_ms: number | null;
  readonly tick_size: string;
  readonly multiplier: string;
  readonly min_order_size: number;
  readonly initial_margin_pct: string;
  readonly maintenance_margin_pct: string;
  readonly band_lower_pct: string;
  readonly band_upper_pct: string;
  readonly funding_cap_upper_pct: string | null;
  readonly funding_cap_lower_pct: string | null;
  readonly funding_schedule: FundingSchedule | null;
  readonly funding_variant: 'daily_close' | 'intraday_twap' | null;
  readonly estimated_funding_supported: boolean;
}

/** Serialises an instrument for a recording header (key order fixed, so headers are byte-stable). */
export function instrumentToJson(i: Instrument): InstrumentJson {
  return {
    symbol: i.symbol,
    product: i.product,
    kind: i.kind,
    category: i.category,
    description: i.description,
    expiration_ms: i.expirationMs,
    tick_size: i.grid.tickSize.toFixed(),
    multiplier: i.multiplier.toFixed(),
    min_order_size: i.minOrderSize,
    initial_margin_pct: i.initialMarginPct.toFixed(),
    maintenance_margin_pct: i.maintenanceMarginPct.toFixed(),
    band_lower_pct: i.bandLowerPct.toFixed(),
    band_upper_pct: i.bandUpperPct.toFixed(),
    funding_cap_upper_pct: i.fundingCapUpperPct?.toFixed() ?? null,
    funding_cap_lower_pct: i.fundingCapLowerPct?.toFixed() ?? null,
    funding_schedule: i.fundingSchedule,
    funding_variant: i.fundingVariant,
    estimated_funding_supported: i.estimatedFundingSupported,
  };
}

/**
 * Rebuilds an instrument from its header form.
 * @throws MmError RECORDING_INVALID naming `where` and the bad field.
 */
export function instrumentFromJson(raw: unknown, where: string): Instrument {
  if (typeof raw !== 'object' || raw === null) throw bad(where, 'instrument', 'an object', raw);
  const o = raw as Record<string, unknown>;
  const str = (k: string): string => {
    const v = o[k];
    if (typeof v !== 'string') throw bad(where, k, 'a string', v);
    return v;
  };
  const dec = (k: string): Decimal => {
    const s = str(k);
    try {
      return new Decimal(s);
    } catch {
      throw bad(where, k, 'a decimal string', s);
    }
  };
  const optDec = (k: string): Decimal | null => (o[k] === null || o[k] === undefined ? null : dec(k));
  const kind = o['kind'];
  if (kind !== 'perpetual' && kind !== 'dated') throw bad(where, 'kind', '"perpetual" or "dated"', kind);
  const minOrder = o['min_order_size'];
  if (typeof minOrder !== 'number' || !Number.isInteger(minOrder) || minOrder < 1) throw bad(where, 'min_order_size', 'a positive integer', minOrder);
  const exp = o['expiration_ms'] ?? null;
  if (exp !== null && typeof exp !== 'number') throw bad(where, 'expiration_ms', 'a number or null', exp);
  const variant = o['funding_variant'] ?? null;
  if (variant !== null && variant !== 'daily_close' && variant !== 'intraday_twap') throw bad(where, 'funding_variant', 'daily_close, intraday_twap or null', variant);
  let grid: TickGrid;
  try {
    grid = new TickGrid(str('tick_size'));
  } catch {
    throw bad(where, 'tick_size', 'a positive decimal string', o['tick_size']);
  }
  return {
    symbol: asSymbol(str('symbol')),
    product: typeof o['product'] === 'string' ? o['product'] : str('symbol'),
    kind,
    category: typeof o['category'] === 'string' ? o['category'] : '',
    description: typeof o['description'] === 'string' ? o['description'] : '',
    expirationMs: exp,
    grid,
    multiplier: dec('multiplier'),
    minOrderSize: minOrder,
    initialMarginPct: dec('initial_margin_pct'),
    maintenanceMarginPct: dec('maintenance_margin_pct'),
    bandLowerPct: dec('band_lower_pct'),
    bandUpperPct: dec('band_upper_pct'),
    fundingCapUpperPct: optDec('funding_cap_upper_pct'),
    fundingCapLowerPct: optDec('funding_cap_lower_pct'),
    fundingSchedule: (o['funding_schedule'] as FundingSchedule | null | undefined) ?? null,
    fundingVariant: variant,
    estimatedFundingSupported: o['estimated_funding_supported'] === true,
  };
}

function bad(where: string, field: string, expected: string, got: unknown): MmError {
  return new MmError('RECORDING_INVALID', `${where}: instrument.${field}: expected ${expected}, got ${JSON.stringify(got)}`, { where, field });
}
