import type { Clock } from '../core/clock.ts';
import { Decimal } from '../core/decimal.ts';
import type { ClientOrderId } from '../core/ids.ts';
import type { OrderFilled } from '../domain/events.ts';
import { fundingCash, type FundingPayment, type FundingSettlement } from '../domain/funding.ts';
import type { Fill } from '../domain/order.ts';
import type { VenuePosition } from '../domain/position.ts';
import type { Executor } from '../execution/executor.ts';
import type { FeeRates } from './config.ts';
import type { EngineEvent } from './events.ts';
import { FillBook } from './fills.ts';
import type { AccountReader } from './ports.ts';
import { sumBreakdowns } from './position-ledger.ts';
import { SeededPositions } from './seeded-positions.ts';
import type { SymbolSlot } from './symbol-slot.ts';
import type { PnlBreakdown } from './types.ts';

/** Longest fills query the venue accepts (7 days), minus a minute of margin. */
const MAX_FILL_RANGE_MS = 7 * 86_400_000 - 60_000;

/** Position changes kept per symbol to know the position at a past settlement instant. */
const MAX_POSITION_MOVES = 20_000;
/** Funding keys remembered for dedupe (settlements are minutes to hours apart). */
const MAX_FUNDING_KEYS = 10_000;

/** A REST fill with its fee. */
export type FeeFill = Fill & { readonly fee: Decimal };

/** A symbol missing from the venue's positions: flat, never traded. */
const NEVER_TRADED: VenuePosition = { qty: 0, costBasis: null, realizedPnl: null, lastFillMs: null };

/**
 * Books fills, fees and funding into each symbol's ledger. Stream fills (no fee on the wire) get a
 * fee estimated from the liquidity flag × configured rates; the REST fill, when it arrives, replaces
 * the estimate with the venue's figure (fee-settled). Fills the stream never delivered (missed while
 * disconnected) are booked from REST with their real fee and no spread-capture credit (the mid at
 * that time is unknown).
 *
 * Restarts: until `seedFromVenue` has taken the venue's positions as the truth, fills (stream or
 * REST) are held, not booked; after it, a fill at or before the seeded position's last fill time is
 * already in that position and is never booked (whichever session placed the order, however it
 * arrives), and the others are booked on top. `correct` re-seeds one symbol the same way when the
 * position check finds the ledger and the venue disagreeing.
 */
export class Accounting {
  readonly fills = new FillBook();
  readonly #fundingSeen = new Set<string>();
  /** Per symbol: venue time and signed quantity of each booked fill (insertion order, bounded). */
  readonly #moves = new Map<string, { ts: number[]; delta: number[]; priceTicks: number[] }>();
  /** Cut-off and realized-PnL base of each symbol's seeded position. */
  readonly #seeded = new SeededPositions();
  /** Fills that arrived before the start-up seed, booked (or skipped) once it is done. */
  #held: (() => void)[] | null = [];
  /** Fills (stream or REST) skipped because the seeded position already includes them. */
  fillsInSeededPosition = 0;
  #polling = false;
  #lastPollMs = -Infinity;
  /** The configured rates as Decimals, converted once (Decimal.mul would convert the number on every fill). */
  readonly #makerRate: Decimal;
  readonly #takerRate: Decimal;
  /** Symbols whose rates differ from the default ones, as Decimals. */
  readonly #bySymbol = new Map<string, { maker: Decimal; taker: Decimal }>();

  constructor(
    private readonly slots: ReadonlyMap<string, SymbolSlot>,
    private readonly clock: Clock,
    rates: FeeRates,
    bySymbol: Readonly<Record<string, FeeRates>> | undefined,
    private readonly emit: (ev: EngineEvent) => void,
    private readonly executor: Executor,
    private readonly accounts: AccountReader | undefined,
    private readonly onBooked: (slot: SymbolSlot) => void,
  ) {
    this.#makerRate = new Decimal(rates.maker);
    this.#takerRate = new Decimal(rates.taker);
    for (const [symbol, r] of Object.entries(bySymbol ?? {})) this.#bySymbol.set(symbol, { maker: new Decimal(r.maker), taker: new Decimal(r.taker) });
  }

  /** Books a fill from the order stream (deduped). */
  onStreamFill(ev: OrderFilled, cid: ClientOrderId | null): void {
    const slot = this.slots.get(ev.order.symbol);
    if (!slot) return;
    if (this.#held !== null) {
      this.#held.push(() => this.onStreamFill(ev, cid));
      return;
    }
    const key = FillBook.key(ev.tradeId, ev.order.orderId);
    if (this.fills.get(key)) return;
    if (this.#seeded.includes(slot.symbol, ev.tsEvent)) {
      this.fillsInSeededPosition++;
      return;
    }
    const own = this.#bySymbol.get(ev.order.symbol);
    const rate = ev.aggressor ? (own?.taker ?? this.#takerRate) : (own?.maker ?? this.#makerRate);
    const fee = slot.ledger.feeOf(ev.fillPriceTicks, ev.fillQty, rate);
    this.#book(slot, key, ev.tradeId, ev.order.orderId, cid, ev.fillSide, ev.fillPriceTicks, ev.fillQty, ev.aggressor, fee, true, slot.market.mid(), ev.tsEvent, false);
  }

  /**
   * Runs `fn` once the start-up seed is done (now when it is): what to make of a fill the stream
   * brought before it depends on the seeded positions.
   */
  afterSeed(fn: () => void): void {
    if (this.#held !== null) this.#held.push(fn);
    else fn();
  }

  /**
   * True (and counted in `fillsInSeededPosition`) when the seeded position already includes a
   * stream fill: a replay of an earlier session's fill, nothing to book or report.
   */
  inSeededPosition(ev: OrderFilled): boolean {
    if (!this.#seeded.includes(ev.order.symbol, ev.tsEvent)) return false;
    this.fillsInSeededPosition++;
    return true;
  }

  /** Applies REST fills: settles estimated fees, books fills the stream missed. Returns how many were new. */
  applyRestFills(rest: readonly FeeFill[]): number {
    if (this.#held !== null) {
      this.#held.push(() => void this.applyRestFills(rest));
      return 0;
    }
    let recovered = 0;
    for (const f of rest) {
      const slot = this.slots.get(f.symbol);
      if (!slot) continue;
      const key = FillBook.key(f.tradeId, f.orderId);
      const seen = this.fills.get(key);
      if (seen) {
        if (seen.estimated) {
          // The usual case (configured rates = the venue's) changes nothing: skip the two Decimal operations.
          if (!f.fee.eq(seen.fee)) slot.ledger.addFee(f.fee.minus(seen.fee));
          this.emit({ type: 'fee-settled', symbol: slot.symbol, tradeId: f.tradeId, estimated: seen.fee, actual: f.fee, tsMs: this.clock.nowMs() });
          this.fills.settle(seen, f.fee);
        }
        continue;
      }
      if (this.#seeded.includes(slot.symbol, f.tsEvent)) {
        this.fillsInSeededPosition++;
        continue;
      }
      recovered++;
      this.#book(slot, key, f.tradeId, f.orderId, null, f.side, f.priceTicks, f.qty, f.aggressor, f.fee, false, null, f.tsEvent, true);
    }
    return recovered;
  }

  /**
   * Start-up: takes the venue's positions as each ledger's (quantity, entry price from the cost
   * basis, the venue's realized PnL as this session's zero), then books or skips the fills held
   * while waiting for them. `null` (an engine without an account reader): nothing seeded, held
   * fills booked.
   */
  seedFromVenue(positions: ReadonlyMap<string, VenuePosition> | null): void {
    if (positions)
      for (const slot of this.slots.values()) {
        this.#seed(slot, positions.get(slot.symbol) ?? NEVER_TRADED, true);
        slot.ledger.markOpening();
      }
    const held = this.#held ?? [];
    this.#held = null;
    for (const book of held) book();
  }

  /**
   * The position check found `slot` disagreeing with the venue even after recovering fills:
   * re-seeds it from the venue's position (realized PnL from the venue's, relative to the start-up
   * base) and re-applies the fills booked after the venue's last fill (not in its figure yet).
   */
  correct(slot: SymbolSlot, venue: VenuePosition): void {
    this.#seed(slot, venue, false);
  }

  #seed(slot: SymbolSlot, venue: VenuePosition, atStart: boolean): void {
    const ledger = slot.ledger;
    const realizedBefore = ledger.realized;
    const after = this.#movesAfter(slot.symbol, venue.lastFillMs);
    ledger.seed(venue.qty, venue.costBasis);
    const base = atStart ? this.#seeded.setBase(slot.symbol, venue.realizedPnl) : this.#seeded.base(slot.symbol);
    const realizedThen = base !== null && venue.realizedPnl !== null ? venue.realizedPnl.minus(base) : null;
    ledger.realized = realizedThen ?? realizedBefore;
    for (const m of after) ledger.applyFill(m.delta > 0 ? 'buy' : 'sell', m.priceTicks, Math.abs(m.delta), null);
    // Without the venue's realized figure, keep ours rather than count the re-applied fills twice.
    if (realizedThen === null) ledger.realized = realizedBefore;
    this.#seeded.setCutoff(slot.symbol, venue.lastFillMs);
  }

  /** Fills booked for `symbol` after venue time `lastFillMs` (ms, compared floored as the venue's times are). */
  #movesAfter(symbol: string, lastFillMs: number | null): { delta: number; priceTicks: number }[] {
    const m = this.#moves.get(symbol);
    const out: { delta: number; priceTicks: number }[] = [];
    if (!m || lastFillMs === null) return out;
    const cutoff = Math.floor(lastFillMs);
    for (let i = 0; i < m.ts.length; i++) if (Math.floor(m.ts[i]!) > cutoff) out.push({ delta: m.delta[i]!, priceTicks: m.priceTicks[i]! });
    return out;
  }

  /**
   * Our position in `symbol` as of the venue's last fill at `lastFillMs` (the current one minus the
   * fills booked after it): what a venue position stamped with that time should equal.
   */
  positionAsOf(symbol: string, lastFillMs: number | null): number {
    const slot = this.slots.get(symbol);
    if (!slot) return 0;
    let q = slot.ledger.qty;
    for (const m of this.#movesAfter(symbol, lastFillMs)) q -= m.delta;
    return q;
  }

  /** Fetches REST fills in [fromMs, toMs) through the executor; resolves with the count recovered. */
  fetchFills(fromMs: number, toMs: number): Promise<number> {
    const reader = this.accounts;
    if (!reader) return Promise.resolve(0);
    // Fill times are the venue's clock, `toMs` ours: a venue clock ahead of ours (skew, or a local
    // venue at clock_speed > 1) would leave the newest fills outside the range and their fees
    // estimated forever (and every fill remembered). Reach at least a second past the newest fill.
    toMs = Math.max(toMs, (this.fills.lastFillMs ?? -Infinity) + 1_000);
    // The venue serves fill ranges of at most 7 days (docs/venue-rules.md §8): clamp, keeping a margin.
    fromMs = Math.max(fromMs, toMs - MAX_FILL_RANGE_MS);
    return new Promise((resolve) => {
      this.executor.submit({
        endpoint: 'fills',
        key: null,
        run: () => reader.fills(fromMs, toMs),
        settled: (ok, value) => resolve(ok ? this.applyRestFills(value as readonly FeeFill[]) : 0),
        dropped: () => resolve(0),
      });
    });
  }

  /** On a clock tick: polls REST fills for venue fees while some are still estimated. */
  maybePollFees(pollMs: number): void {
    if (!this.accounts || pollMs <= 0 || this.#polling || this.fills.estimatedCount === 0) return;
    const now = this.clock.nowMs();
    if (now - this.#lastPollMs < pollMs) return;
    const from = (this.fills.oldestEstimatedMs() ?? now) - 1_000;
    this.#polling = true;
    this.#lastPollMs = now;
    void this.fetchFills(from, now + 1).finally(() => (this.#polling = false));
  }

  /**
   * Books a funding settlement (rate record) on the position held at the settlement instant, not
   * the one held when the record arrives (a poll or replay can see it after later fills). Deduped
   * by symbol and time.
   */
  applyFunding(s: FundingSettlement): void {
    const slot = this.slots.get(s.symbol);
    if (!slot || !this.#firstFunding(`${s.symbol}@${s.tsEvent}`)) return;
    const position = this.positionAt(slot.symbol, s.tsEvent);
    const cash = fundingCash(position, s.amount, slot.instrument.multiplier);
    slot.ledger.addFunding(cash);
    this.emit({ type: 'funding', symbol: slot.symbol, amount: cash, position, tsMs: this.clock.nowMs() });
  }

  /**
   * Books a funding payment the venue made to or took from our account (its funding transaction:
   * the exact cash, computed by the venue on the position at the settlement). Deduped by event id.
   */
  applyFundingPayment(p: FundingPayment): void {
    const slot = this.slots.get(p.symbol);
    if (!slot || !this.#firstFunding(`tx:${p.eventId}`)) return;
    slot.ledger.addFunding(p.amount);
    this.emit({ type: 'funding', symbol: slot.symbol, amount: p.amount, position: this.positionAt(slot.symbol, p.tsEvent), tsMs: this.clock.nowMs() });
  }

  /**
   * Our signed position in `symbol` at venue time `tsMs`: the current one minus the fills booked
   * after it (fills older than the kept history count as before it).
   */
  positionAt(symbol: string, tsMs: number): number {
    const slot = this.slots.get(symbol);
    if (!slot) return 0;
    let q = slot.ledger.qty;
    const m = this.#moves.get(symbol);
    if (m) for (let i = m.ts.length - 1; i >= 0; i--) if (m.ts[i]! > tsMs) q -= m.delta[i]!;
    return q;
  }

  #firstFunding(key: string): boolean {
    if (this.#fundingSeen.has(key)) return false;
    this.#fundingSeen.add(key);
    if (this.#fundingSeen.size > MAX_FUNDING_KEYS) this.#fundingSeen.delete(this.#fundingSeen.values().next().value!);
    return true;
  }

  #recordMove(symbol: string, tsMs: number, delta: number, priceTicks: number): void {
    let m = this.#moves.get(symbol);
    if (!m) this.#moves.set(symbol, (m = { ts: [], delta: [], priceTicks: [] }));
    m.ts.push(tsMs);
    m.delta.push(delta);
    m.priceTicks.push(priceTicks);
    if (m.ts.length > MAX_POSITION_MOVES + MAX_POSITION_MOVES / 4) {
      m.ts.splice(0, m.ts.length - MAX_POSITION_MOVES);
      m.delta.splice(0, m.delta.length - MAX_POSITION_MOVES);
      m.priceTicks.splice(0, m.priceTicks.length - MAX_POSITION_MOVES);
    }
  }

  /** The PnL split of one symbol at its current mark. */
  breakdown(slot: SymbolSlot): PnlBreakdown {
    return slot.ledger.breakdown(slot.market.mark());
  }

  /** Total PnL over all symbols. */
  total(): PnlBreakdown {
    return sumBreakdowns([...this.slots.values()].map((s) => this.breakdown(s)));
  }

  /**
   * PnL since start-up over all symbols as a number (what the kill switch limits): total().total
   * without the other components, less the start-up positions' unrealized PnL at their first mark.
   */
  totalPnlUsd(): number {
    let t = 0;
    for (const s of this.slots.values()) t += s.ledger.sessionPnlUsd(s.market.mark());
    return t;
  }

  #book(
    slot: SymbolSlot,
    key: string,
    tradeId: string,
    orderId: FeeFill['orderId'],
    cid: ClientOrderId | null,
    side: FeeFill['side'],
    priceTicks: number,
    qty: number,
    aggressor: boolean,
    fee: Decimal,
    estimated: boolean,
    mid: number | null,
    tsMs: number,
    recovered: boolean,
  ): void {
    slot.ledger.applyFill(side, priceTicks, qty, mid);
    this.#recordMove(slot.symbol, tsMs, side === 'buy' ? qty : -qty, priceTicks);
    slot.ledger.addFee(fee);
    this.fills.add(key, { slot, tradeId, fee, estimated, tsMs });
    this.emit({
      type: 'fill',
      symbol: slot.symbol,
      orderId,
      clientOrderId: cid,
      tradeId,
      side,
      priceTicks,
      qty,
      liquidity: aggressor ? 'taker' : 'maker',
      fee,
      feeSource: estimated ? 'estimated' : 'venue',
      position: slot.ledger.qty,
      recovered,
      tsMs: this.clock.nowMs(),
    });
    this.onBooked(slot);
  }
}

