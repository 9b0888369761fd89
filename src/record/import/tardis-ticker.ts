import { Decimal } from '../../core/decimal.ts';
import type { Symbol } from '../../core/ids.ts';
import { INDEX_PRICE_SOURCE, type FundingSettled, type PriceObserved, type TickerUpdated } from '../../domain/events.ts';
import { csvRows } from './csv-rows.ts';
import type { LineSource } from './line-source.ts';
import type { RowIssues } from './row-issues.ts';

/** One `derivative_ticker` row: the perpetual's funding, mark, index and last price (empty = unknown). */
export interface TickerRow {
  readonly file: string;
  readonly line: number;
  readonly tsUs: number;
  readonly localUs: number;
  /** The next funding instant, µs. */
  readonly fundingUs: number | null;
  /** The rate that instant will settle at (fraction; positive: longs pay). */
  readonly fundingRate: Decimal | null;
  readonly openInterest: number | null;
  readonly last: Decimal | null;
  readonly index: Decimal | null;
  readonly mark: Decimal | null;
}

const COLUMNS = ['timestamp', 'local_timestamp', 'funding_timestamp', 'funding_rate', 'open_interest', 'last_price', 'index_price', 'mark_price'] as const;
const NUMBER = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/** Reads a Tardis `derivative_ticker` CSV into rows, reporting (and skipping) the bad ones. */
export async function* tickerRows(src: LineSource, issues: RowIssues): AsyncGenerator<TickerRow, void, undefined> {
  for await (const { f, col, line } of csvRows(src, COLUMNS, 'Tardis derivative_ticker', issues)) {
    const row = parseTickerRow(f, col, src.path, line, issues);
    if (row !== null) yield row;
  }
}

function parseTickerRow(f: string[], col: Record<string, number>, file: string, line: number, issues: RowIssues): TickerRow | null {
  const tsUs = Number(f[col['timestamp']!]);
  const localUs = Number(f[col['local_timestamp']!]);
  if (!Number.isFinite(tsUs) || !Number.isFinite(localUs)) {
    issues.report('malformed', file, line, 'timestamp or local_timestamp is not a number');
    return null;
  }
  let bad: string | null = null;
  const dec = (name: (typeof COLUMNS)[number], positive: boolean): Decimal | null => {
    const t = (f[col[name]!] ?? '').trim();
    if (t === '') return null;
    if (!NUMBER.test(t) || (positive && Number(t) <= 0)) {
      bad ??= `${name} ${JSON.stringify(t)} is not ${positive ? 'a positive number' : 'a number'}`;
      return null;
    }
    return new Decimal(t);
  };
  const funding = dec('funding_timestamp', true);
  const row: TickerRow = {
    file,
    line,
    tsUs,
    localUs,
    fundingUs: funding === null ? null : funding.toNumber(),
    fundingRate: dec('funding_rate', false),
    openInterest: dec('open_interest', false)?.toNumber() ?? null,
    last: dec('last_price', true),
    index: dec('index_price', true),
    mark: dec('mark_price', true),
  };
  if (bad !== null) {
    issues.report('malformed', file, line, bad);
    return null;
  }
  return row;
}

/** Recording times of one row. */
export interface RowStamp {
  readonly eventMs: number;
  readonly recvMs: number;
}

/**
 * Turns derivative_ticker rows into recording events: a ticker (`k`: last and mark price on the tick
 * grid, open interest, the funding estimate), the index price (`p`, fractional ticks), and a funding
 * settlement (`f`) each time the next funding instant moves on: the instant passed, settling at the
 * last rate announced for it, on the last mark price before it (amount = rate × mark, per unit of
 * the contract's multiplier, as `fundingCash` charges).
 */
export class FundingTracker {
  #fundingUs: number | null = null;
  #rate: Decimal | null = null;
  #mark: Decimal | null = null;
  #index: Decimal | null = null;

  constructor(
    readonly symbol: Symbol,
    readonly tickSize: Decimal,
  ) {}

  /** The events of one row, in order: a settlement that happened before it, then its ticker and index. */
  events(r: TickerRow, ts: RowStamp): (FundingSettled | TickerUpdated | PriceObserved)[] {
    const out: (FundingSettled | TickerUpdated | PriceObserved)[] = [];
    const prev = this.#fundingUs;
    if (prev !== null && r.fundingUs !== null && r.fundingUs > prev && r.tsUs >= prev && this.#rate !== null && this.#mark !== null) {
      const settleMs = prev / 1000;
      const mark = this.#mark;
      out.push({
        type: 'funding',
        settlement: { symbol: this.symbol, rate: this.#rate, amount: this.#rate.mul(mark), benchmarkPrice: this.#index ?? mark, settlementPrice: mark, tsEvent: settleMs },
        tsEvent: settleMs,
        tsRecv: ts.recvMs,
      });
    }
    if (r.fundingUs !== null) this.#fundingUs = r.fundingUs;
    if (r.fundingRate !== null) this.#rate = r.fundingRate;
    if (r.mark !== null) this.#mark = r.mark;
    if (r.index !== null) this.#index = r.index;
    const ticks = (d: Decimal | null): number | null => (d === null ? null : d.div(this.tickSize).round().toNumber());
    const rate = r.fundingRate ?? this.#rate;
    const mark = r.mark ?? this.#mark;
    out.push({
      type: 'ticker',
      symbol: this.symbol,
      lastTicks: ticks(r.last),
      lastQty: 0,
      markTicks: ticks(r.mark),
      bestBidTicks: null,
      bestAskTicks: null,
      bandLowerTicks: null,
      bandUpperTicks: null,
      lastSettlementTicks: null,
      lastSettlementMs: null,
      state: 'OPEN',
      volume: 0,
      openInterest: r.openInterest ?? 0,
      funding:
        rate === null || mark === null
          ? null
          : { symbol: this.symbol, status: 'ready', rate, amount: rate.mul(mark), benchmarkPrice: this.#index ?? mark, settlementPrice: mark, reason: null, computedMs: ts.eventMs },
      tsEvent: ts.eventMs,
      tsRecv: ts.recvMs,
    });
    if (r.index !== null) out.push({ type: 'price', symbol: this.symbol, source: INDEX_PRICE_SOURCE, priceTicks: r.index.div(this.tickSize).toNumber(), tsEvent: ts.eventMs, tsRecv: ts.recvMs });
    return out;
  }
}
