import type { Decimal } from '../core/decimal.ts';
import type { InstrumentState } from '../domain/enums.ts';
import type { Instrument } from '../domain/instrument.ts';
import { priceBand, type PriceBand } from '../domain/instrument.ts';

/** Per-instrument market state the venue keeps: settlement, last trade, mark, trading state. */
export interface InstrumentMarket {
  readonly instrument: Instrument;
  state: InstrumentState;
  /** Last settlement price (band reference) and its time (epoch ms). */
  lastSettlement: Decimal;
  lastSettlementMs: number;
  band: PriceBand;
  lastTradeTicks: number | null;
  lastTradeQty: number;
  lastTradeMs: number;
  /** A mark set by a plugin (sim-market's mark model); wins over the default rule while set. */
  markOverride: Decimal | null;
  /** Session stats, reset by plugins at their session boundary. */
  volume: number;
  openInterest: number;
}

/** Creates the market record of an instrument at its starting settlement price. */
export function newInstrumentMarket(instrument: Instrument, settlement: Decimal, nowMs: number, state: InstrumentState): InstrumentMarket {
  return {
    instrument,
    state,
    lastSettlement: settlement,
    lastSettlementMs: nowMs,
    band: priceBand(instrument, settlement),
    lastTradeTicks: null,
    lastTradeQty: 0,
    lastTradeMs: 0,
    markOverride: null,
    volume: 0,
    openInterest: 0,
  };
}

/**
 * The live mark (docs/venue-rules.md §5 [I]): a plugin's mark when set, else the last trade if more recent
 * than `staleMs`, else the last settlement price.
 */
export function markPrice(m: InstrumentMarket, nowMs: number, staleMs: number): Decimal {
  if (m.markOverride) return m.markOverride;
  if (m.lastTradeTicks !== null && nowMs - m.lastTradeMs <= staleMs) return m.instrument.grid.toDecimal(m.lastTradeTicks);
  return m.lastSettlement;
}

/** Sets a new settlement price and recomputes the bands from it. */
export function settle(m: InstrumentMarket, price: Decimal, atMs: number): void {
  m.lastSettlement = price;
  m.lastSettlementMs = atMs;
  m.band = priceBand(m.instrument, price);
}
