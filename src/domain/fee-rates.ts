/**
 * Fee rates, from one place for the live engine and the backtest (docs/venue-rules.md §7): the venue charges
 * per account (`whoami` → `maker_fee` / `taker_fee`); instruments carry no fee fields. Precedence:
 * an explicit config value, else the account's rates (asked live, or stored in a recording's header),
 * else the venue's published tier-1 schedule.
 */

/** Maker and taker fee rates, fractions of notional (0.0002 = 2 bps); positive = we pay. */
export interface FeeRates {
  readonly maker: number;
  readonly taker: number;
}

/** Where the rates in use came from: config, the account (whoami, live), a recording's header (the account's or an import source's), or the venue default. */
export type FeeRatesSource = 'config' | 'account' | 'recording' | 'venue-default';

/** Fee rates plus their origin (printed in reports and logs). */
export interface ResolvedFeeRates extends FeeRates {
  readonly source: FeeRatesSource;
}

/** The venue's tier-1 schedule (docs/venue-rules.md §7: maker 0.02%, taker 0.25%): the default when nothing better is known. */
export const VENUE_DEFAULT_FEE_RATES: FeeRates = Object.freeze({ maker: 0.0002, taker: 0.0025 });

/** Fee rates as the venue or a recording states them (decimal strings: whoami, a recording header) → numbers; null when absent or malformed. */
export function statedFeeRates(raw: { readonly maker: string; readonly taker: string } | null | undefined): FeeRates | null {
  if (!raw) return null;
  const maker = Number(raw.maker);
  const taker = Number(raw.taker);
  return Number.isFinite(maker) && Number.isFinite(taker) ? { maker, taker } : null;
}

/**
 * The fee rates to use: `explicit` (config) when set, else the `stated` ones (the account's live, the
 * recording header's in a backtest), else the venue default. The live daemon and the backtest both
 * call this, so the same inputs give the same rates.
 */
export function resolveFeeRates(explicit: FeeRates | null | undefined, stated: FeeRates | null | undefined, statedSource: 'account' | 'recording' = 'account'): ResolvedFeeRates {
  if (explicit) return { maker: explicit.maker, taker: explicit.taker, source: 'config' };
  if (stated) return { maker: stated.maker, taker: stated.taker, source: statedSource };
  return { ...VENUE_DEFAULT_FEE_RATES, source: 'venue-default' };
}
