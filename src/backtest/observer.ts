import { Decimal } from '../core/decimal.ts';
import { DEFAULT_REWARD_SCORE_PARAMS, orderScore, combineSides, type RewardScoreParams } from '../domain/reward-score.ts';
import { ASK, BID } from './dense-book.ts';
import { leaves } from './exchange-order.ts';
import { FillMarkouts } from './fill-markouts.ts';
import { SampleColumn } from './sample-column.ts';
import type { ReplayExchange } from './replay-exchange.ts';
import type { BacktestSettings } from './settings.ts';

/**
 * Per-symbol time series sampled every `sampleMs` of exchange time (for charts and stats), held as
 * runs (`SampleColumn`: a quiet stretch or a night costs nothing per sample; `toArray()` for the numbers).
 */
export interface SymbolSeries {
  readonly t: SampleColumn;
  readonly mid: SampleColumn;
  /** Our best resting bid/ask at the exchange (NaN when none). */
  readonly quoteBid: SampleColumn;
  readonly quoteAsk: SampleColumn;
  readonly position: SampleColumn;
}

/** The cumulative PnL split over time (USD, one value per equity sample). */
export interface PnlParts {
  readonly spread: SampleColumn;
  readonly inventory: SampleColumn;
  readonly fees: SampleColumn;
  readonly funding: SampleColumn;
  readonly rewards: SampleColumn;
}

/** Per-symbol quoting statistics accumulated over exchange time. */
export interface QuoteTimes {
  /** Time with at least one of our orders resting on each side. */
  twoSidedMs: number;
  /** Time with at least one order resting on any side. */
  anySideMs: number;
  /** Time two-sided with both sides inside the reward program's max spread and above its minimum notional. */
  rewardTwoSidedMs: number;
  /** Time the book had a mid (the denominator of the ratios). */
  marketMs: number;
  /** Σ per-minute estimated share of the symbol's reward pool, and the number of scored minutes. */
  shareSum: number;
  scoredMinutes: number;
  /** Estimated rewards in USD (share × pool per minute). */
  rewardsUsd: number;
  /** Time with |position| at or beyond the symbol's position limit (0 when no limit was given). */
  atLimitMs: number;
  /** Contracts the market traded (recorded prints) inside the window: the runner adds each print. */
  marketVolume: number;
}

/**
 * Watches the replay exchange on exchange time: samples equity and inventory, accumulates quote
 * uptime and time inside the reward spread, and estimates reward shares per minute with the shared
 * §12.3 model (our orders against the displayed book, which stands in for the other makers).
 */
export class BacktestObserver {
  readonly series: SymbolSeries[];
  readonly times: QuoteTimes[];
  /** Total equity (net PnL over all symbols) at each sample, USD. */
  readonly equity = new SampleColumn();
  readonly equityT = new SampleColumn();
  /**
   * Total equity's parts at each equity sample, USD: spread capture, inventory (trading PnL − spread
   * capture), fees (negative = paid) and funding add up to `equity` exactly (inventory is the
   * remainder, in Decimal); `rewards` is the estimated reward so far, not part of equity.
   */
  readonly pnlParts: PnlParts = { spread: new SampleColumn(), inventory: new SampleColumn(), fees: new SampleColumn(), funding: new SampleColumn(), rewards: new SampleColumn() };
  /** Total equity at each UTC minute boundary (the basis of the report's Sharpe and Sortino). */
  readonly minuteEquity: number[] = [];
  readonly minuteT: number[] = [];
  /** Markouts of our fills (exchange time, lazily fed from the exchange books). */
  readonly markouts: FillMarkouts;
  /** Called with each symbol's estimated reward share at every scored minute (the runner feeds it to ctx.rewards). */
  onMinuteShare: ((s: number, share: number) => void) | null = null;
  #last = NaN;
  #nextSample = NaN;
  #nextMinute = NaN;
  readonly #flags: Uint8Array; // bit0 bid, bit1 ask, bit2 reward two-sided, bit3 market, bit4 at position limit
  readonly #limits: Float64Array;
  readonly #symIdx: (symbol: string) => number;
  readonly #params: RewardScoreParams;
  readonly #tick: Float64Array;
  /** Per symbol at the last sample: mark, fills, funding settlements (what its PnL depends on). */
  readonly #marks: Float64Array;
  readonly #mult: Float64Array;
  /** The spread, fee and funding sums of the last PnL sample and what they were taken at (fills + funding events of every symbol). */
  #sums: { key: number; spread: Decimal; fees: Decimal; funding: Decimal; spreadUsd: number; feesUsd: number; fundingUsd: number } | null = null;

  constructor(
    private readonly ex: ReplayExchange,
    private readonly settings: BacktestSettings,
    /** Per symbol index: the position limit (contracts) for time-at-limit; absent = not measured. */
    positionLimits: readonly number[] = [],
  ) {
    const n = ex.books.length;
    this.series = Array.from({ length: n }, () => ({ t: new SampleColumn(), mid: new SampleColumn(), quoteBid: new SampleColumn(), quoteAsk: new SampleColumn(), position: new SampleColumn() }));
    this.times = Array.from({ length: n }, () => ({ twoSidedMs: 0, anySideMs: 0, rewardTwoSidedMs: 0, marketMs: 0, shareSum: 0, scoredMinutes: 0, rewardsUsd: 0, atLimitMs: 0, marketVolume: 0 }));
    this.#limits = Float64Array.from(ex.ledgers, (_, s) => (positionLimits[s]! > 0 ? positionLimits[s]! : Infinity));
    const idx = new Map(ex.ledgers.map((l, s) => [l.instrument.symbol as string, s]));
    this.#symIdx = (sym) => idx.get(sym) ?? -1;
    this.markouts = new FillMarkouts(
      ex,
      ex.ledgers.map((l) => l.instrument.symbol),
      ex.ledgers.map((l) => l.unit.toNumber()),
    );
    this.#flags = new Uint8Array(n);
    this.#tick = Float64Array.from(ex.ledgers, (l) => l.instrument.grid.tickSize.toNumber());
    this.#marks = new Float64Array(3 * ex.ledgers.length);
    this.#mult = Float64Array.from(ex.ledgers, (l) => l.instrument.multiplier.toNumber());
    const r = settings.rewards;
    this.#params = { ...DEFAULT_REWARD_SCORE_PARAMS, maxSpreadBps: r.maxSpreadBps, minNotionalUsd: r.minNotionalUsd, minRestMs: r.minRestMs, curve: r.curve, singleSidedDivisor: r.singleSidedDivisor };
  }

  /** Symbol `s`'s position limit (contracts; Infinity when none was given). */
  positionLimit(s: number): number {
    return this.#limits[s]!;
  }

  /** Moves observation time to `t` (before the exchange changes at `t`): accrues times, takes due samples. */
  advance(t: number): void {
    if (t > this.markouts.nextDueMs) this.markouts.advance(t);
    if (Number.isNaN(this.#last)) {
      this.#last = t;
      this.#nextSample = t;
      this.#nextMinute = Math.floor(t / 60_000) * 60_000 + 60_000;
    }
    if (t <= this.#last) return;
    while (this.#nextSample <= t || this.#nextMinute <= t) {
      if (this.#nextSample <= this.#nextMinute) {
        this.#accrue(this.#nextSample);
        this.#sample(this.#nextSample);
        this.#nextSample += this.settings.sampleMs;
      } else {
        this.#accrue(this.#nextMinute);
        this.#scoreMinute(this.#nextMinute);
        this.minuteT.push(this.#nextMinute);
        this.minuteEquity.push(this.#equity());
        this.#nextMinute += 60_000;
      }
    }
    this.#accrue(t);
  }

  /** Recomputes a symbol's quoting flags after the exchange changed it. */
  refresh(s: number): void {
    if (this.ex.fillLog.length !== this.markouts.seen) this.markouts.takeFills(this.#symIdx);
    const book = this.ex.books[s]!;
    const mid = (book.bestBid() + book.bestAsk()) / 2;
    let f = Number.isFinite(mid) ? 8 : 0;
    const orders = this.ex.open[s]!;
    if (orders.length > 0) {
      const tick = this.#tick[s]!;
      const mult = this.#mult[s]!;
      const maxD = this.#params.maxSpreadBps / 1e4;
      let rb = false;
      let ra = false;
      for (const x of orders) {
        f |= x.sideIdx === BID ? 1 : 2;
        if (f & 8 && Math.abs(x.priceTicks - mid) / mid <= maxD + 1e-12 && x.priceTicks * tick * leaves(x) * mult >= this.#params.minNotionalUsd) {
          if (x.sideIdx === BID) rb = true;
          else ra = true;
        }
      }
      if (rb && ra) f |= 4;
    }
    const pos = this.ex.ledgers[s]!.position;
    if (pos >= this.#limits[s]! || -pos >= this.#limits[s]!) f |= 16;
    this.#flags[s] = f;
  }

  /** Takes a final sample at `t` (end of replay). */
  finish(t: number): void {
    this.advance(t);
    const last = this.equityT.at(-1);
    if (last === undefined || last < t) this.#sample(t);
  }

  #accrue(t: number): void {
    const dt = t - this.#last;
    if (dt <= 0) return;
    for (let s = 0; s < this.#flags.length; s++) {
      const f = this.#flags[s]!;
      if (f === 0) continue;
      const q = this.times[s]!;
      if (f & 8) q.marketMs += dt;
      if ((f & 3) === 3) q.twoSidedMs += dt;
      if (f & 3) q.anySideMs += dt;
      if (f & 4) q.rewardTwoSidedMs += dt;
      if (f & 16) q.atLimitMs += dt;
    }
    this.#last = t;
  }

  /** Total net PnL now, each symbol marked at its book's mid (or its last sampled mid). */
  #equity(): number {
    let equity = new Decimal(0);
    for (let s = 0; s < this.series.length; s++) {
      const book = this.ex.books[s]!;
      const mid = (book.bestBid() + book.bestAsk()) / 2;
      equity = equity.plus(this.ex.ledgers[s]!.netPnl(Number.isFinite(mid) ? mid : (this.series[s]!.mid.at(-1) ?? NaN)));
    }
    return equity.toNumber();
  }

  #sample(t: number): void {
    // Each symbol's PnL depends on its mark, fills and funding only: when none moved since the last
    // sample (a quiet stretch, a night between days), the sums are the last ones (no Decimal work).
    let same = this.equity.length > 0;
    const marks = this.#marks;
    for (let s = 0; s < this.series.length; s++) {
      const book = this.ex.books[s]!;
      const mid = (book.bestBid() + book.bestAsk()) / 2;
      const ser = this.series[s]!;
      let qb = NaN;
      let qa = NaN;
      for (const x of this.ex.open[s]!) {
        if (x.sideIdx === BID) qb = Number.isNaN(qb) ? x.priceTicks : Math.max(qb, x.priceTicks);
        else qa = Number.isNaN(qa) ? x.priceTicks : Math.min(qa, x.priceTicks);
      }
      const ledger = this.ex.ledgers[s]!;
      const lastMid = ser.mid.at(-1) ?? NaN;
      const mark = Number.isFinite(mid) ? mid : lastMid;
      ser.t.push(t);
      ser.mid.push(mark);
      ser.quoteBid.push(qb);
      ser.quoteAsk.push(qa);
      ser.position.push(ledger.position);
      if (!Object.is(marks[3 * s], mark) || marks[3 * s + 1] !== ledger.fills || marks[3 * s + 2] !== ledger.fundingEvents) same = false;
      marks[3 * s] = mark;
      marks[3 * s + 1] = ledger.fills;
      marks[3 * s + 2] = ledger.fundingEvents;
    }
    let rewards = 0;
    for (let s = 0; s < this.series.length; s++) rewards += this.times[s]!.rewardsUsd;
    this.equityT.push(t);
    const p = this.pnlParts;
    if (same) {
      this.equity.push(this.equity.at(-1)!);
      p.spread.push(p.spread.at(-1)!);
      p.inventory.push(p.inventory.at(-1)!);
      p.fees.push(p.fees.at(-1)!);
      p.funding.push(p.funding.at(-1)!);
      p.rewards.push(rewards);
      return;
    }
    let equity = new Decimal(0);
    let key = 0;
    for (let s = 0; s < this.series.length; s++) {
      equity = equity.plus(this.ex.ledgers[s]!.netPnl(marks[3 * s]!));
      key += marks[3 * s + 1]! + marks[3 * s + 2]!;
    }
    // Spread capture, fees and funding move only with fills and funding settlements (counts only grow).
    let sums = this.#sums;
    if (sums === null || sums.key !== key) {
      let spread = new Decimal(0);
      let fees = new Decimal(0);
      let funding = new Decimal(0);
      for (let s = 0; s < this.series.length; s++) {
        const ledger = this.ex.ledgers[s]!;
        spread = spread.plus(ledger.spreadCapture);
        fees = fees.plus(ledger.fees);
        funding = funding.plus(ledger.funding);
      }
      sums = this.#sums = { key, spread, fees, funding, spreadUsd: spread.toNumber(), feesUsd: fees.neg().toNumber(), fundingUsd: funding.toNumber() };
    }
    this.equity.push(equity.toNumber());
    p.spread.push(sums.spreadUsd);
    p.inventory.push(equity.minus(sums.spread).plus(sums.fees).minus(sums.funding).toNumber());
    p.fees.push(sums.feesUsd);
    p.funding.push(sums.fundingUsd);
    p.rewards.push(rewards);
  }

  #scoreMinute(t: number): void {
    const p = this.#params;
    const perMinute = this.settings.rewards.poolUsdPerDay / 1440;
    for (let s = 0; s < this.series.length; s++) {
      const book = this.ex.books[s]!;
      const bb = book.bestBid();
      const ba = book.bestAsk();
      if (!Number.isFinite(bb) || !Number.isFinite(ba)) continue;
      const inst = this.ex.ledgers[s]!.instrument;
      const tick = inst.grid.tickSize.toNumber();
      const mult = inst.multiplier.toNumber();
      const mid = ((bb + ba) / 2) * tick;
      let ob = 0;
      let oa = 0;
      for (const x of this.ex.open[s]!) {
        const sc = orderScore({ accountId: 'us', side: x.side, price: x.priceTicks * tick, qty: leaves(x), multiplier: mult, restedMs: t - x.restingSinceMs }, mid, p);
        if (x.sideIdx === BID) ob += sc;
        else oa += sc;
      }
      const ours = combineSides(ob, oa, p);
      // The displayed book (other makers) as one competitor with fully rested orders.
      const others = combineSides(this.#bookScore(s, BID, mid, tick, mult), this.#bookScore(s, ASK, mid, tick, mult), p);
      const share = ours + others > 0 ? ours / (ours + others) : 0;
      const q = this.times[s]!;
      q.shareSum += share;
      q.scoredMinutes += 1;
      q.rewardsUsd += share * perMinute;
      this.onMinuteShare?.(s, share);
    }
  }

  #bookScore(s: number, side: number, mid: number, tick: number, mult: number): number {
    const book = this.ex.books[s]!;
    const maxTicks = Math.ceil(((mid * this.#params.maxSpreadBps) / 1e4) / tick) + 1;
    let score = 0;
    const midTicks = mid / tick;
    const best = side === BID ? book.bestBid() : book.bestAsk();
    for (let k = 0; k <= maxTicks; k++) {
      const p = side === BID ? best - k : best + k;
      if (Math.abs(p - midTicks) > maxTicks) break;
      const qty = this.ex.othersQty(s, side, p); // the recording bot's own orders are us, not competitors
      if (qty > 0) score += orderScore({ accountId: 'book', side: side === BID ? 'buy' : 'sell', price: p * tick, qty, multiplier: mult, restedMs: Infinity }, mid, this.#params);
    }
    return score;
  }
}
