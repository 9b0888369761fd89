import type { Decimal } from '../../core/decimal.ts';
import { RingBuffer } from '../history/ring-buffer.ts';

/** One settled funding event of a symbol (`/api/funding-rates`). */
export interface FundingRateRecord {
  readonly symbol: string;
  readonly tsNs: bigint;
  readonly rate: Decimal;
  readonly amount: Decimal;
  readonly benchmark: Decimal;
  readonly settlementPrice: Decimal;
}

/** Funding-transaction kinds (docs/venue-protocol.md §5). */
export type FundingTxnType = 'funding' | 'mark_to_market' | 'final_settlement';

/** One per-account funding/settlement cash row (`/api/funding-transactions`). */
export interface FundingTxn {
  readonly eventId: string;
  readonly seq: number;
  readonly accountId: string;
  readonly symbol: string;
  readonly type: FundingTxnType;
  readonly amount: Decimal;
  readonly tsNs: bigint;
  readonly settlementPrice: Decimal;
  readonly benchmark: Decimal | null;
  readonly rate: Decimal | null;
  readonly fundingAmount: Decimal | null;
  readonly referenceId: string;
}

/** The outcome of one funding slot of a day (realized or skipped). */
export interface SlotOutcome {
  readonly index: number;
  readonly atMs: number;
  readonly status: 'realized' | 'skipped';
  readonly markTwap: Decimal | null;
  readonly underlyingTwap: Decimal | null;
  readonly premiumBps: Decimal | null;
  readonly rateBps: Decimal | null;
  readonly capped: boolean;
  readonly reason: string | null;
}

/** How much funding history the store keeps. */
export interface FundingRetention {
  readonly rates: number;
  readonly transactions: number;
  /** Local dates of slot outcomes kept per symbol (the newest ones). */
  readonly slotDays: number;
}

/** Defaults matching the venue config's `retention` defaults. */
export const DEFAULT_FUNDING_RETENTION: FundingRetention = Object.freeze({ rates: 50_000, transactions: 100_000, slotDays: 14 });

/** What funding has settled, in memory, bounded by `FundingRetention` (oldest dropped first). */
export class FundingStore {
  readonly rates: RingBuffer<FundingRateRecord>;
  readonly txns: RingBuffer<FundingTxn>;
  /** `${symbol}|${date}` → the day's slot outcomes (insertion order = date order per symbol). */
  readonly slots = new Map<string, SlotOutcome[]>();
  readonly #slotDays: number;
  #seq = 0;

  constructor(retention: FundingRetention = DEFAULT_FUNDING_RETENTION) {
    this.rates = new RingBuffer(retention.rates);
    this.txns = new RingBuffer(retention.transactions);
    this.#slotDays = retention.slotDays;
  }

  /** Next transaction sequence number. */
  nextSeq(): number {
    return ++this.#seq;
  }

  /** Records a slot outcome. */
  addSlot(symbol: string, date: string, o: SlotOutcome): void {
    const key = `${symbol}|${date}`;
    let list = this.slots.get(key);
    if (!list) {
      this.slots.set(key, (list = []));
      this.#pruneSlots(symbol);
    }
    list.push(o);
  }

  /** Keeps the newest `slotDays` dates of `symbol` (dates arrive in order, so the oldest keys come first). */
  #pruneSlots(symbol: string): void {
    const prefix = `${symbol}|`;
    let n = 0;
    for (const k of this.slots.keys()) if (k.startsWith(prefix)) n++;
    for (const k of this.slots.keys()) {
      if (n <= this.#slotDays) break;
      if (k.startsWith(prefix)) {
        this.slots.delete(k);
        n--;
      }
    }
  }

  /** The outcomes recorded for a symbol's local date. */
  slotsOf(symbol: string, date: string): readonly SlotOutcome[] {
    return this.slots.get(`${symbol}|${date}`) ?? [];
  }
}
