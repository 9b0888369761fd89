import { Decimal, ZERO } from '../core/decimal.ts';
import type { Side } from '../domain/enums.ts';
import { notional, type Instrument } from '../domain/instrument.ts';
import type { PnlBreakdown } from './types.ts';

/** Distinct prices a ledger remembers as Decimals before starting over. */
const MAX_CACHED_PRICES = 4_096;

/**
 * Position and PnL for one symbol, in Decimal money. Realized PnL follows the venue's convention
 * (fees excluded). Spread capture credits each fill with its edge versus the mid at fill time;
 * inventory PnL is the rest of trading PnL (realized + unrealized − spread capture), i.e. what the
 * position made or lost as the price moved while we held it.
 */
export class PositionLedger {
  readonly #mult: Decimal;
  /** Multiplier 1 (most contracts): `#perContract` skips the multiplication. */
  readonly #multIsOne: boolean;
  readonly #tick: Decimal;
  qty = 0;
  /** Average entry price (Decimal price units), null when flat. */
  avgPrice: Decimal | null = null;
  realized: Decimal = ZERO;
  spreadCapture: Decimal = ZERO;
  /** Signed: negative when paid. */
  fees: Decimal = ZERO;
  funding: Decimal = ZERO;
  rewards: Decimal = ZERO;
  /** Set when the opening position came from the venue without a price: priced at the first mark. */
  #needsEntryPrice = false;
  /** Unrealized PnL of the start-up position at the first mark after start-up (see sessionPnlUsd). */
  #opening: Decimal = ZERO;
  #openingPending = false;
  /**
   * Session PnL as a line in the mark, `c + k × markTicks` USD, with the exact Decimal inputs it was
   * converted from (see sessionPnlUsd); `c0` is the PnL without a position.
   */
  #line = { qty: NaN, avg: null as Decimal | null, realized: ZERO, fees: ZERO, funding: ZERO, rewards: ZERO, opening: ZERO, c0: 0, c: 0, k: 0 };

  /** tick size × n for the prices (and mids) fills were booked at: a fill reads 2–3 of them, from a handful of distinct values. */
  readonly #prices = new Map<number, Decimal>();

  constructor(instrument: Instrument) {
    this.#mult = instrument.multiplier;
    this.#multIsOne = instrument.multiplier.eq(1);
    this.#tick = instrument.grid.tickSize;
  }

  /**
   * The price of `ticks` (possibly a half tick: a mid) as a Decimal: tick size × ticks, the same
   * value `grid.toDecimal` computes, remembered (Decimals are immutable; bounded).
   */
  priceOf(ticks: number): Decimal {
    let d = this.#prices.get(ticks);
    if (d === undefined) {
      if (this.#prices.size >= MAX_CACHED_PRICES) this.#prices.clear();
      d = this.#tick.mul(ticks);
      this.#prices.set(ticks, d);
    }
    return d;
  }

  /** Fee for a fill of `qty` at `priceTicks` at `rate`: feeFor's figure (× a multiplier of 1 skipped, see #perContract). */
  feeOf(priceTicks: number, qty: number, rate: Decimal): Decimal {
    return this.#perContract(this.priceOf(priceTicks).mul(qty)).mul(rate);
  }

  /**
   * `x` × the multiplier. `x` is always the result of a Decimal operation, so already rounded to the
   * precision: × 1 would return an equal copy, and is skipped (runs several times per fill).
   */
  #perContract(x: Decimal): Decimal {
    return this.#multIsOne ? x : x.mul(this.#mult);
  }

  /**
   * Takes an existing position as the venue books it (start-up, or a correction by the position
   * check): `costBasis` is the venue's signed entry price × qty × multiplier. Without one (a source
   * that does not say), the entry price is the first mark seen. Realized PnL and the other
   * components are left to the caller.
   */
  seed(qty: number, costBasis: Decimal | null = null): void {
    this.qty = qty;
    this.avgPrice = qty === 0 || costBasis === null ? null : costBasis.div(this.#multIsOne ? qty : this.#mult.mul(qty));
    this.#needsEntryPrice = qty !== 0 && costBasis === null;
  }

  /**
   * Marks the current (just seeded) position as the one this session started with: its unrealized
   * PnL at the first mark is not this session's, and `sessionPnlUsd` leaves it out.
   */
  markOpening(): void {
    this.#opening = ZERO;
    this.#openingPending = this.qty !== 0;
  }

  /**
   * PnL since start-up at `markTicks`, in USD as a number: the total of `breakdown` minus the start-up
   * position's unrealized PnL at the first mark seen. The kill switch limits this: a restart holding
   * a position opened at a loss (now priced at the venue's entry price) must not trip it for a loss
   * made before the restart.
   *
   * The kill switch asks on every clock tick and after every fill, and the mark moves between most
   * of them, so the figure is kept as a line in the mark: total = realized + fees + funding + rewards − opening
   * − qty × mult × avg + (qty × mult × tick) × mark. Its two coefficients are computed in Decimal and
   * converted once per change of the position or a cash component; a new mark costs one
   * multiply-add. The result agrees with converting the Decimal total to within a few units in the
   * last place of the position's notional (1e-8 USD on a 1e8 USD position), far inside any
   * threshold the kill switch compares.
   */
  sessionPnlUsd(markTicks: number | null): number {
    if (this.#openingPending && markTicks !== null) {
      this.#opening = this.unrealized(markTicks);
      this.#openingPending = false;
    }
    const l = this.#line;
    if (l.qty !== this.qty || l.avg !== this.avgPrice || l.realized !== this.realized || l.fees !== this.fees || l.funding !== this.funding || l.rewards !== this.rewards || l.opening !== this.#opening) {
      l.qty = this.qty;
      l.avg = this.avgPrice;
      l.realized = this.realized;
      l.fees = this.fees;
      l.funding = this.funding;
      l.rewards = this.rewards;
      l.opening = this.#opening;
      const cash = this.realized.plus(this.fees).plus(this.funding).plus(this.rewards).minus(this.#opening);
      l.c0 = cash.toNumber();
      if (this.qty !== 0 && this.avgPrice !== null) {
        l.c = cash.minus(this.#perContract(this.avgPrice.mul(this.qty))).toNumber();
        l.k = this.#perContract(this.#tick.mul(this.qty)).toNumber();
      }
    }
    return this.qty === 0 || this.avgPrice === null || markTicks === null ? l.c0 : l.c + l.k * markTicks;
  }

  /** Called with each mark; prices a seeded position that has no entry price yet. */
  observeMark(markTicks: number): void {
    if (this.#needsEntryPrice) {
      this.avgPrice = this.#tick.mul(markTicks);
      this.#needsEntryPrice = false;
    }
  }

  /** Applies one fill. `midTicks` (possibly half-tick) is the mid when it happened, null if unknown. */
  applyFill(side: Side, priceTicks: number, qty: number, midTicks: number | null): void {
    const price = this.priceOf(priceTicks);
    const signed = side === 'buy' ? qty : -qty;
    if (midTicks !== null) {
      const edge = this.#perContract(this.priceOf(midTicks).minus(price).mul(signed));
      this.spreadCapture = this.spreadCapture.plus(edge);
    }
    const q0 = this.qty;
    if (q0 === 0 || Math.sign(q0) === Math.sign(signed) || this.avgPrice === null) {
      const base = this.avgPrice ?? price;
      const n0 = Math.abs(q0);
      this.avgPrice = base.mul(n0).plus(price.mul(qty)).div(n0 + qty);
      this.qty = q0 + signed;
      this.#needsEntryPrice = false;
      return;
    }
    const closing = Math.min(Math.abs(q0), qty);
    // One multiplication by ±closing: rounding is symmetric in sign, so it equals × closing then × ±1.
    const pnl = this.#perContract(price.minus(this.avgPrice).mul(closing * Math.sign(q0)));
    this.realized = this.realized.plus(pnl);
    this.qty = q0 + signed;
    if (this.qty === 0) this.avgPrice = null;
    else if (Math.sign(this.qty) !== Math.sign(q0)) this.avgPrice = price;
  }

  /** Signed cost basis: average price × qty × multiplier, as the venue books it (zero when flat or unpriced). */
  costBasis(): Decimal {
    if (this.qty === 0 || this.avgPrice === null) return ZERO;
    return this.#perContract(this.avgPrice.mul(this.qty));
  }

  /** Adds a fee (positive = paid; stored negated as a PnL component). */
  addFee(paid: Decimal): void {
    this.fees = this.fees.minus(paid);
  }

  /** Adds funding cash (positive = received). */
  addFunding(cash: Decimal): void {
    this.funding = this.funding.plus(cash);
  }

  /** Unrealized PnL at `markTicks` (zero when flat or unpriced). */
  unrealized(markTicks: number | null): Decimal {
    if (this.qty === 0 || this.avgPrice === null || markTicks === null) return ZERO;
    return this.#perContract(this.priceOf(markTicks).minus(this.avgPrice).mul(this.qty));
  }

  /** The PnL split at `markTicks`. */
  breakdown(markTicks: number | null): PnlBreakdown {
    const unrealized = this.unrealized(markTicks);
    const trading = this.realized.plus(unrealized);
    const inventory = trading.minus(this.spreadCapture);
    const total = trading.plus(this.fees).plus(this.funding).plus(this.rewards);
    return { spreadCapture: this.spreadCapture, inventory, fees: this.fees, funding: this.funding, rewards: this.rewards, total, realized: this.realized, unrealized };
  }
}

/** Sums PnL breakdowns. */
export function sumBreakdowns(xs: readonly PnlBreakdown[]): PnlBreakdown {
  let s = { spreadCapture: ZERO, inventory: ZERO, fees: ZERO, funding: ZERO, rewards: ZERO, total: ZERO, realized: ZERO, unrealized: ZERO };
  for (const x of xs) {
    s = {
      spreadCapture: s.spreadCapture.plus(x.spreadCapture),
      inventory: s.inventory.plus(x.inventory),
      fees: s.fees.plus(x.fees),
      funding: s.funding.plus(x.funding),
      rewards: s.rewards.plus(x.rewards),
      total: s.total.plus(x.total),
      realized: s.realized.plus(x.realized),
      unrealized: s.unrealized.plus(x.unrealized),
    };
  }
  return s;
}

/** Fee for a fill: qty × price × multiplier × rate (docs/venue-rules.md §7). */
export const feeFor = (instrument: Instrument, priceTicks: number, qty: number, rate: Decimal.Value): Decimal =>
  notional(instrument, priceTicks, qty).mul(rate);

