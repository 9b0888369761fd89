import { Decimal, ZERO } from '../core/decimal.ts';
import type { ClientOrderId, Symbol, VenueOrderId } from '../core/ids.ts';
import type { Side } from '../domain/enums.ts';
import type { Instrument } from '../domain/instrument.ts';

/** One fill of ours, as the replay exchange booked it. */
export interface BacktestFill {
  /** Exchange time of the match (epoch ms). */
  readonly tsExchange: number;
  /** Time the fill event reached the bot (epoch ms). */
  readonly tsLocal: number;
  readonly tradeId: string;
  readonly orderId: VenueOrderId;
  readonly clientOrderId: ClientOrderId | null;
  readonly symbol: Symbol;
  readonly side: Side;
  readonly priceTicks: number;
  readonly qty: number;
  /** True when our order took liquidity. */
  readonly aggressor: boolean;
  /** qty × price × multiplier × fee rate, USD. */
  readonly fee: Decimal;
  /**
   * Mid of the exchange-side book the match met, in ticks (may be x.5), NaN when one side is empty:
   * for a fill by a book crossing our order, the mid before the frame that crossed it.
   */
  readonly midTicks: number;
  /** Signed position after the fill. */
  readonly positionAfter: number;
  /** How the fill came about: a trade print, the book crossing our resting order, or our order taking. */
  readonly source: FillSource;
}

/** What filled an order: `print` (a trade print at or through its price), `cross` (the book crossed it), `taker` (it took liquidity). */
export type FillSource = 'print' | 'cross' | 'taker';

/** A fill whose fee Decimal is computed on first use (most fills' fees are only read by reports). */
export class FillRecord implements BacktestFill {
  #fee: Decimal | undefined;
  constructor(
    readonly tsExchange: number,
    readonly tsLocal: number,
    readonly tradeId: string,
    readonly orderId: VenueOrderId,
    readonly clientOrderId: ClientOrderId | null,
    readonly symbol: Symbol,
    readonly side: Side,
    readonly priceTicks: number,
    readonly qty: number,
    readonly aggressor: boolean,
    readonly midTicks: number,
    readonly positionAfter: number,
    private readonly unitFee: Decimal,
    readonly source: FillSource,
  ) {}

  get fee(): Decimal {
    return (this.#fee ??= this.unitFee.mul(this.priceTicks * this.qty));
  }
}

/**
 * An exact integer sum: small integers accumulate in a double (exact below 2^53) and spill into a
 * Decimal before they could lose precision. Keeps Decimal off the per-fill hot path.
 */
class IntSum {
  #small = 0;
  #big: Decimal = ZERO;
  add(n: number): void {
    this.#small += n;
    if (Math.abs(this.#small) > 2 ** 50) {
      this.#big = this.#big.plus(this.#small);
      this.#small = 0;
    }
  }
  value(): Decimal {
    return this.#big.plus(this.#small);
  }
}

/**
 * Money and inventory of one symbol (exchange view). Per fill only integers move (ticks × contracts);
 * USD figures are Decimal, computed when asked: tick size × multiplier × the integer sums.
 */
export class SymbolLedger {
  position = 0;
  funding: Decimal = ZERO;
  /** Funding settlements applied. */
  fundingEvents = 0;
  volume = 0;
  makerFills = 0;
  takerFills = 0;
  makerQty = 0;
  takerQty = 0;
  /** USD per (tick × contract). */
  readonly unit: Decimal;
  readonly makerUnitFee: Decimal;
  readonly takerUnitFee: Decimal;
  readonly #cash = new IntSum(); // −Σ signed qty × price ticks
  readonly #makerNotional = new IntSum(); // Σ qty × price ticks
  readonly #takerNotional = new IntSum();
  readonly #spread2 = new IntSum(); // Σ sign × (2·mid − 2·price) × qty, in half ticks
  /**
   * The USD sums as of `#memoFills` fills: they change only with a fill, and the observer reads them
   * every sample (once a second of market time, also through a night with no trading).
   */
  #memoFills = -1;
  #memo: { readonly cash: Decimal; readonly fees: Decimal; readonly spread: Decimal } | null = null;

  constructor(
    readonly instrument: Instrument,
    schedule: FeeSchedule,
  ) {
    this.unit = instrument.grid.tickSize.mul(instrument.multiplier);
    this.makerUnitFee = this.unit.mul(schedule.maker);
    this.takerUnitFee = this.unit.mul(schedule.taker);
  }

  /** Books a fill (integers only). */
  fill(side: Side, priceTicks: number, qty: number, aggressor: boolean, midTicks: number): void {
    const sign = side === 'buy' ? 1 : -1;
    this.position += sign * qty;
    this.#cash.add(-sign * priceTicks * qty);
    if (Number.isFinite(midTicks)) this.#spread2.add(sign * (2 * midTicks - 2 * priceTicks) * qty);
    this.volume += qty;
    if (aggressor) {
      this.takerFills++;
      this.takerQty += qty;
      this.#takerNotional.add(priceTicks * qty);
    } else {
      this.makerFills++;
      this.makerQty += qty;
      this.#makerNotional.add(priceTicks * qty);
    }
  }

  /** Fills booked (maker and taker): the version of every USD figure but funding. */
  get fills(): number {
    return this.makerFills + this.takerFills;
  }

  #sums(): { readonly cash: Decimal; readonly fees: Decimal; readonly spread: Decimal } {
    if (this.#memo === null || this.#memoFills !== this.fills) {
      this.#memoFills = this.fills;
      this.#memo = {
        cash: this.#cash.value().mul(this.unit),
        fees: this.#makerNotional.value().mul(this.makerUnitFee).plus(this.#takerNotional.value().mul(this.takerUnitFee)),
        spread: this.#spread2.value().mul(this.unit).div(2),
      };
    }
    return this.#memo;
  }

  /** Cash from trades only (fees and funding excluded), USD. */
  get tradeCash(): Decimal {
    return this.#sums().cash;
  }

  /** Fees paid, USD (positive = paid). */
  get fees(): Decimal {
    return this.#sums().fees;
  }

  /** Traded notional, USD. */
  get notional(): Decimal {
    return this.#makerNotional.value().plus(this.#takerNotional.value()).mul(this.unit);
  }

  /** Σ side × (mid − price) × qty × multiplier at each fill, USD. */
  get spreadCapture(): Decimal {
    return this.#sums().spread;
  }

  /** Trading PnL (fees and funding excluded) with the position marked at `markTicks`. */
  tradingPnl(markTicks: number): Decimal {
    const cash = this.tradeCash;
    if (this.position === 0 || !Number.isFinite(markTicks)) return cash;
    return cash.plus(this.unit.mul(markTicks).mul(this.position));
  }

  /** Net PnL: trading − fees + funding, marked at `markTicks`. */
  netPnl(markTicks: number): Decimal {
    return this.tradingPnl(markTicks).minus(this.fees).plus(this.funding);
  }

}

/** A fee schedule: fractions of notional (positive = we pay). */
export interface FeeSchedule {
  readonly maker: Decimal;
  readonly taker: Decimal;
}

/** Builds a fee schedule from decimal strings or numbers. */
export const feeSchedule = (maker: string | number, taker: string | number): FeeSchedule => ({ maker: new Decimal(maker), taker: new Decimal(taker) });
