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
  readonly fee: Decimal;
  /** Mid of the exchange-side book at the match, in ticks (may be x.5), NaN when one side is empty. */
  readonly midTicks: number;
  /** Signed position after the fill. */
  readonly positionAfter: number;
}

/** Money and inventory of one symbol (exchange view). Money is Decimal, quantities integers. */
export class SymbolLedger {
  position = 0;
  /** Cash from trades only (−Σ signed qty × price × multiplier), fees and funding excluded. */
  tradeCash: Decimal = ZERO;
  fees: Decimal = ZERO;
  funding: Decimal = ZERO;
  /** Funding settlements applied. */
  fundingEvents = 0;
  /** Σ side × (mid − price) × qty × multiplier at each fill. */
  spreadCapture: Decimal = ZERO;
  volume = 0;
  notional: Decimal = ZERO;
  makerFills = 0;
  takerFills = 0;
  makerQty = 0;
  takerQty = 0;

  constructor(readonly instrument: Instrument) {}

  /** Books a fill; returns its fee. */
  fill(side: Side, priceTicks: number, qty: number, aggressor: boolean, midTicks: number, feeRate: Decimal): Decimal {
    const grid = this.instrument.grid;
    const mult = this.instrument.multiplier;
    const notional = grid.toDecimal(priceTicks).mul(qty).mul(mult);
    const sign = side === 'buy' ? 1 : -1;
    this.position += sign * qty;
    this.tradeCash = this.tradeCash.minus(notional.mul(sign));
    const fee = notional.mul(feeRate);
    this.fees = this.fees.plus(fee);
    if (Number.isFinite(midTicks)) {
      this.spreadCapture = this.spreadCapture.plus(grid.tickSize.mul(midTicks - priceTicks).mul(sign * qty).mul(mult));
    }
    this.volume += qty;
    this.notional = this.notional.plus(notional);
    if (aggressor) {
      this.takerFills++;
      this.takerQty += qty;
    } else {
      this.makerFills++;
      this.makerQty += qty;
    }
    return fee;
  }

  /** Trading PnL (fees and funding excluded) with the position marked at `markTicks`. */
  tradingPnl(markTicks: number): Decimal {
    if (this.position === 0 || !Number.isFinite(markTicks)) return this.tradeCash;
    return this.tradeCash.plus(this.instrument.grid.tickSize.mul(markTicks).mul(this.position).mul(this.instrument.multiplier));
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
