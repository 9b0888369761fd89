import type { Decimal } from '../../core/decimal.ts';

/** One settled funding event of a symbol (`/api/funding-rates`). */
export interface FundingRateRecord {
  readonly symbol: string;
  readonly tsNs: bigint;
  readonly rate: Decimal;
  readonly amount: Decimal;
  readonly benchmark: Decimal;
  readonly settlementPrice: Decimal;
}

/** Funding-transaction kinds (protocol.md §5). */
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

/** Everything funding has settled, in memory. */
export class FundingStore {
  readonly rates: FundingRateRecord[] = [];
  readonly txns: FundingTxn[] = [];
  /** `${symbol}|${date}` → the day's slot outcomes. */
  readonly slots = new Map<string, SlotOutcome[]>();
  #seq = 0;

  /** Next transaction sequence number. */
  nextSeq(): number {
    return ++this.#seq;
  }

  /** Records a slot outcome. */
  addSlot(symbol: string, date: string, o: SlotOutcome): void {
    const key = `${symbol}|${date}`;
    let list = this.slots.get(key);
    if (!list) this.slots.set(key, (list = []));
    list.push(o);
  }

  /** The outcomes recorded for a symbol's local date. */
  slotsOf(symbol: string, date: string): readonly SlotOutcome[] {
    return this.slots.get(`${symbol}|${date}`) ?? [];
  }
}
