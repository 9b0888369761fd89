import { Decimal } from '../../core/decimal.ts';
import { fundingCash } from '../../domain/funding.ts';
import { localDate, nextSettlement, settlementsOnDate, slotIntervalMinutes, type FundingInstant } from '../../domain/funding-schedule.ts';
import type { Instrument } from '../../domain/instrument.ts';
import type { MarketConfig } from '../market/market-config.ts';
import type { Venue } from '../venue.ts';
import { slotFunding } from './funding-math.ts';
import { FundingStore, type FundingTxnType } from './funding-store.ts';
import { PriceSeries } from './price-series.ts';

/** The first intraday slot of a day averages over this long before it (no earlier slot that day). */
const FIRST_SLOT_WINDOW_MS = 30 * 60_000;
/** Kept beyond the longest window read, so a late timer still finds its window's first price. */
const RETENTION_SLACK_MS = 5 * 60_000;

/** Live price series the funding maths reads, per symbol. */
export interface FundingSeries {
  readonly marks: PriceSeries;
  readonly underlying: PriceSeries;
  readonly trades: PriceSeries;
}

/**
 * Funding settlement on each perpetual's schedule (daily_close and intraday_twap with slots, capped;
 * only positions open at the instant pay), final settlement of dated futures at expiry, and band
 * resets from the settlement price. Timers run on the venue clock.
 */
export class FundingService {
  readonly store: FundingStore;
  readonly series = new Map<string, FundingSeries>();
  /** Last settlement instant per symbol (ef reads settlement_pending right after it). */
  readonly lastSettledMs = new Map<string, number>();
  readonly #cancels: (() => void)[] = [];
  /** The pending next-settlement timer per symbol. */
  readonly #next = new Map<string, () => void>();

  constructor(
    readonly venue: Venue,
    readonly cfg: MarketConfig['funding'],
    private readonly underlyingNow: (symbol: string) => number | undefined,
  ) {
    const keep = venue.config.retention;
    this.store = new FundingStore({ rates: keep.funding_rates, transactions: keep.funding_transactions, slotDays: keep.funding_slot_days });
    // Keep only the longest window funding reads (the daily mark window, an intraday slot):
    // #armNext widens it per symbol from the schedule; amounts are the same as with full history.
    const retain = Math.max(cfg.mark_window_ms, FIRST_SLOT_WINDOW_MS) + RETENTION_SLACK_MS;
    for (const ins of venue.catalog.all()) {
      this.series.set(ins.symbol, { marks: new PriceSeries(retain), underlying: new PriceSeries(retain), trades: new PriceSeries(retain) });
    }
    this.#cancels.push(
      venue.onTrade((t) => {
        const s = this.series.get(t.symbol);
        const ins = venue.catalog.get(t.symbol);
        if (s && ins) s.trades.push(Number(t.tsNs / 1_000_000n), ins.grid.toDecimal(t.priceTicks).toNumber(), t.qty);
      }),
    );
    if (!cfg.enabled) return;
    this.#armSampler(Math.max(1000, 20 * venue.config.clock_speed));
    for (const ins of venue.catalog.all()) {
      if (ins.kind === 'perpetual' && ins.fundingSchedule) this.#armNext(ins, venue.clock.nowMs());
      if (ins.expirationMs !== null) this.#armExpiry(ins);
    }
  }

  /** Samples marks and underlying prices now (a venue-clock timer calls this about once a second). */
  sample(nowMs: number): void {
    for (const [symbol, s] of this.series) {
      const mark = this.venue.mark(symbol);
      if (mark) s.marks.push(nowMs, mark.toNumber());
      const u = this.underlyingNow(symbol);
      if (u !== undefined) s.underlying.push(nowMs, u);
    }
  }

  /** Stops timers and listeners. */
  close(): void {
    for (const c of this.#cancels.splice(0)) c();
    for (const c of this.#next.values()) c();
    this.#next.clear();
  }

  /** The settlement mark for a daily close at `atMs`: VWAP of trades in the window, else TWAP of marks. */
  dailyMark(symbol: string, atMs: number): number | undefined {
    const s = this.series.get(symbol)!;
    const from = atMs - this.cfg.mark_window_ms;
    return s.trades.vwap(from, atMs) ?? s.marks.twap(from, atMs);
  }

  /** Settles one instant of `ins` now (exposed so tests can force a settlement). */
  settle(ins: Instrument, inst: FundingInstant): void {
    const schedule = ins.fundingSchedule!;
    const dayList = settlementsOnDate(schedule, inst.date);
    const n = dayList.length;
    const intraday = ins.fundingVariant === 'intraday_twap' || n > 1;
    const s = this.series.get(ins.symbol)!;
    const grid = ins.grid;
    const digits = grid.decimals + 2;
    let mark: number | undefined;
    let bench: number | undefined;
    if (intraday) {
      const prev = intradayWindowStart(dayList, inst);
      mark = s.marks.twap(prev, inst.atMs);
      bench = s.underlying.twap(prev, inst.atMs);
    } else {
      mark = this.dailyMark(ins.symbol, inst.atMs);
      bench = s.underlying.at(inst.atMs);
    }
    this.lastSettledMs.set(ins.symbol, inst.atMs);
    if (mark === undefined || bench === undefined || !(bench > 0)) {
      this.store.addSlot(ins.symbol, inst.date, {
        index: inst.index,
        atMs: inst.atMs,
        status: 'skipped',
        markTwap: null,
        underlyingTwap: null,
        premiumBps: null,
        rateBps: null,
        capped: false,
        reason: mark === undefined ? 'insufficient mark price data in the interval' : 'insufficient benchmark price data in the interval',
      });
      return;
    }
    const markD = intraday ? new Decimal(mark).toDecimalPlaces(digits) : grid.toDecimal(grid.toTicks(new Decimal(mark).toFixed(digits + 4), 'nearest'));
    const benchD = new Decimal(bench).toDecimalPlaces(digits);
    const { rate, amount, premiumBps, rateBps, capped } = slotFunding(ins, intraday, markD, benchD, n, this.cfg.divide_intraday_by_count);
    const tsNs = BigInt(Math.round(inst.atMs)) * 1_000_000n;
    this.store.rates.push({ symbol: ins.symbol, tsNs, rate, amount, benchmark: benchD, settlementPrice: markD });
    this.store.addSlot(ins.symbol, inst.date, {
      index: inst.index,
      atMs: inst.atMs,
      status: 'realized',
      markTwap: markD,
      underlyingTwap: benchD,
      premiumBps,
      rateBps,
      capped,
      reason: null,
    });
    const ref = `settlement://${ins.symbol}/${tsNs}`;
    for (const acct of this.venue.accounts.accounts.values()) {
      const qty = acct.positions.get(ins.symbol)?.signedQty ?? 0;
      if (qty === 0) continue;
      const cash = fundingCash(qty, amount, ins.multiplier);
      const extra = { funding_rate: rate, funding_amount: amount, benchmark_price: benchD, settlement_price: markD };
      const entry = this.venue.accounts.post(acct.id, ins.symbol, cash, 'funding', ref, null, extra);
      this.#txn(acct.id, ins.symbol, 'funding', cash, tsNs, markD, benchD, rate, amount, ref, entry.eventId);
    }
    // Bands reset from the daily settlement (the last slot of an intraday day).
    if (!intraday || inst.index === n) this.venue.setSettlement(ins.symbol, markD, inst.atMs);
  }

  /** Final settlement of a dated future at expiry: every position closes at the settlement mark. */
  finalSettle(ins: Instrument, atMs: number): void {
    const px = this.dailyMark(ins.symbol, atMs) ?? this.venue.mark(ins.symbol)!.toNumber();
    const ticks = ins.grid.toTicks(new Decimal(px).toFixed(ins.grid.decimals + 4), 'nearest');
    const price = ins.grid.toDecimal(ticks);
    const tsNs = BigInt(Math.round(atMs)) * 1_000_000n;
    const ref = `final-settlement://${ins.symbol}/${tsNs}`;
    for (const acct of this.venue.accounts.accounts.values()) {
      if (acct.open.size > 0) this.venue.cancelAll(acct.id, { symbol: ins.symbol }, 'UNKNOWN', 'instrument expired');
      const qty = acct.positions.get(ins.symbol)?.signedQty ?? 0;
      if (qty === 0) continue;
      const rec = this.venue.accounts.bookFill(acct, ins, {
        tradeId: this.venue.ids.trade(),
        orderId: ref,
        side: qty > 0 ? 'sell' : 'buy',
        qty: Math.abs(qty),
        priceTicks: ticks,
        isTaker: false,
        tsNs,
        isFinalSettlement: true,
      });
      this.#txn(acct.id, ins.symbol, 'final_settlement', rec.realizedPnl ?? new Decimal(0), tsNs, price, null, null, null, ref, this.venue.ids.ulid());
    }
    const m = this.venue.markets.get(ins.symbol);
    if (m) m.openInterest = 0;
    this.venue.setSettlement(ins.symbol, price, atMs);
    this.venue.setInstrumentState(ins.symbol, 'DELISTED');
  }

  #txn(
    accountId: string,
    symbol: string,
    type: FundingTxnType,
    amount: Decimal,
    tsNs: bigint,
    settlementPrice: Decimal,
    benchmark: Decimal | null,
    rate: Decimal | null,
    fundingAmount: Decimal | null,
    referenceId: string,
    eventId: string,
  ): void {
    this.store.txns.push({ eventId, seq: this.store.nextSeq(), accountId, symbol, type, amount, tsNs, settlementPrice, benchmark, rate, fundingAmount, referenceId });
  }

  #armSampler(everyMs: number): void {
    let cancel = (): void => {};
    const tick = (): void => {
      this.sample(this.venue.clock.nowMs());
      cancel = this.venue.clock.setTimer(everyMs, tick);
    };
    tick();
    this.#cancels.push(() => cancel());
  }

  #armNext(ins: Instrument, afterMs: number): void {
    const next = nextSettlement(ins.fundingSchedule!, afterMs);
    if (!next) return;
    this.#retainFor(ins, next);
    const cancel = this.#at(next.atMs, () => {
      this.settle(ins, next);
      this.#armNext(ins, next.atMs);
    });
    this.#next.set(ins.symbol, cancel);
  }

  /**
   * Sizes the symbol's series to the windows read until `next`: the daily mark window, the slot's
   * TWAP window and the estimate's slot-interval window.
   */
  #retainFor(ins: Instrument, next: FundingInstant): void {
    const dayList = settlementsOnDate(ins.fundingSchedule!, next.date);
    const slotMs = (slotIntervalMinutes(ins.fundingSchedule!, next.date) ?? 30) * 60_000;
    const need = Math.max(this.cfg.mark_window_ms, FIRST_SLOT_WINDOW_MS, slotMs, next.atMs - intradayWindowStart(dayList, next)) + RETENTION_SLACK_MS;
    const s = this.series.get(ins.symbol)!;
    s.marks.retainMs = need;
    s.underlying.retainMs = need;
    s.trades.retainMs = need;
  }

  #armExpiry(ins: Instrument): void {
    const at = ins.expirationMs!;
    const now = this.venue.clock.nowMs();
    if (at <= now) return;
    this.#cancels.push(this.#at(at, () => this.finalSettle(ins, at)));
  }

  /**
   * Runs `fn` once the venue clock has reached `atMs`. A timer that fires early (Node's ~1 ms
   * slack, multiplied by `clock_speed`) waits out the rest, so a settlement sees the positions
   * open at its instant, not a few venue seconds before it. Returns a cancel.
   */
  #at(atMs: number, fn: () => void): () => void {
    const pending = { cancel: (): void => {} };
    const fire = (): void => {
      const left = atMs - this.venue.clock.nowMs();
      if (left > 0) pending.cancel = this.venue.clock.setTimer(left, fire);
      else fn();
    };
    pending.cancel = this.venue.clock.setTimer(atMs - this.venue.clock.nowMs(), fire);
    return () => pending.cancel();
  }

  /** Local date of `ms` in the instrument's funding timezone. */
  static dateOf(ins: Instrument, ms: number): string {
    return localDate(ms, ins.fundingSchedule?.timezone ?? 'UTC');
  }
}

/** Start of an intraday slot's TWAP window: the previous slot that day, else 30 min before it. */
function intradayWindowStart(dayList: readonly FundingInstant[], inst: FundingInstant): number {
  return inst.index > 1 ? dayList[inst.index - 2]!.atMs : inst.atMs - FIRST_SLOT_WINDOW_MS;
}
