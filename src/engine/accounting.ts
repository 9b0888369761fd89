import type { Clock } from '../core/clock.ts';
import { Decimal, ZERO } from '../core/decimal.ts';
import type { ClientOrderId } from '../core/ids.ts';
import type { OrderFilled } from '../domain/events.ts';
import { fundingCash, type FundingSettlement } from '../domain/funding.ts';
import type { Fill } from '../domain/order.ts';
import type { Executor } from '../execution/executor.ts';
import type { FeeRates } from './config.ts';
import type { EngineEvent } from './events.ts';
import { FillBook } from './fills.ts';
import type { AccountReader } from './ports.ts';
import { feeFor, sumBreakdowns } from './position-ledger.ts';
import type { SymbolSlot } from './symbol-slot.ts';
import type { PnlBreakdown } from './types.ts';

/** Longest fills query the venue accepts (7 days), minus a minute of margin. */
const MAX_FILL_RANGE_MS = 7 * 86_400_000 - 60_000;

/** A REST fill with its fee. */
export type FeeFill = Fill & { readonly fee: Decimal };

/**
 * Books fills, fees and funding into each symbol's ledger. Stream fills (no fee on the wire) get a
 * fee estimated from the liquidity flag × configured rates; the REST fill, when it arrives, replaces
 * the estimate with the venue's figure (fee-settled). Fills the stream never delivered (missed while
 * disconnected) are booked from REST with their real fee and no spread-capture credit (the mid at
 * that time is unknown).
 */
export class Accounting {
  readonly fills = new FillBook();
  readonly #fundingSeen = new Set<string>();
  #polling = false;
  #lastPollMs = -Infinity;

  constructor(
    private readonly slots: ReadonlyMap<string, SymbolSlot>,
    private readonly clock: Clock,
    private readonly rates: FeeRates,
    private readonly emit: (ev: EngineEvent) => void,
    private readonly executor: Executor,
    private readonly accounts: AccountReader | undefined,
    private readonly onBooked: (slot: SymbolSlot) => void,
  ) {}

  /** Books a fill from the order stream (deduped). */
  onStreamFill(ev: OrderFilled, cid: ClientOrderId | null): void {
    const slot = this.slots.get(ev.order.symbol);
    if (!slot) return;
    const key = FillBook.key(ev.tradeId, ev.order.orderId);
    if (this.fills.get(key)) return;
    const rate = ev.aggressor ? this.rates.taker : this.rates.maker;
    const fee = feeFor(slot.instrument, ev.fillPriceTicks, ev.fillQty, rate);
    this.#book(slot, key, ev.tradeId, ev.order.orderId, cid, ev.fillSide, ev.fillPriceTicks, ev.fillQty, ev.aggressor, fee, true, slot.market.mid(), ev.tsEvent, false);
  }

  /** Applies REST fills: settles estimated fees, books fills the stream missed. Returns how many were new. */
  applyRestFills(rest: readonly FeeFill[]): number {
    let recovered = 0;
    for (const f of rest) {
      const slot = this.slots.get(f.symbol);
      if (!slot) continue;
      const key = FillBook.key(f.tradeId, f.orderId);
      const seen = this.fills.get(key);
      if (seen) {
        if (seen.estimated) {
          slot.ledger.addFee(f.fee.minus(seen.fee));
          this.emit({ type: 'fee-settled', symbol: slot.symbol, tradeId: f.tradeId, estimated: seen.fee, actual: f.fee, tsMs: this.clock.nowMs() });
          this.fills.settle(seen, f.fee);
        }
        continue;
      }
      recovered++;
      this.#book(slot, key, f.tradeId, f.orderId, null, f.side, f.priceTicks, f.qty, f.aggressor, f.fee, false, null, f.tsEvent, true);
    }
    return recovered;
  }

  /** Fetches REST fills in [fromMs, toMs) through the executor; resolves with the count recovered. */
  fetchFills(fromMs: number, toMs: number): Promise<number> {
    const reader = this.accounts;
    if (!reader) return Promise.resolve(0);
    // The venue serves fill ranges of at most 7 days (rules.md §8): clamp, keeping a margin.
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

  /** Books a funding settlement on the position held (deduped by symbol and time). */
  applyFunding(s: FundingSettlement): void {
    const slot = this.slots.get(s.symbol);
    if (!slot) return;
    const key = `${s.symbol}@${s.tsEvent}`;
    if (this.#fundingSeen.has(key)) return;
    this.#fundingSeen.add(key);
    const cash = fundingCash(slot.ledger.qty, s.amount, slot.instrument.multiplier);
    slot.ledger.addFunding(cash);
    this.emit({ type: 'funding', symbol: slot.symbol, amount: cash, position: slot.ledger.qty, tsMs: this.clock.nowMs() });
  }

  /** The PnL split of one symbol at its current mark. */
  breakdown(slot: SymbolSlot): PnlBreakdown {
    return slot.ledger.breakdown(slot.market.mark());
  }

  /** Total PnL over all symbols. */
  total(): PnlBreakdown {
    return sumBreakdowns([...this.slots.values()].map((s) => this.breakdown(s)));
  }

  /** Total PnL over all symbols as a number: total().total.toNumber() without the other components. */
  totalPnlUsd(): number {
    let t = ZERO;
    for (const s of this.slots.values()) t = t.plus(s.ledger.totalPnl(s.market.mark()));
    return t.toNumber();
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

