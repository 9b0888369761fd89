import type { Symbol } from '../../core/ids.ts';
import type { Side } from '../../domain/enums.ts';
import type { BookUpdated, FundingSettled, PriceObserved, TickerUpdated, TradePrinted } from '../../domain/events.ts';
import type { RecordingGap } from '../format.ts';
import type { InstrumentDef } from './instrument-def.ts';
import { LevelBook } from './level-book.ts';
import { csvRows } from './csv-rows.ts';
import type { LineSource } from './line-source.ts';
import type { RowIssues } from './row-issues.ts';
import { SourceClock, type ClockMode } from './source-clock.ts';
import { FundingTracker, tickerRows } from './tardis-ticker.ts';
import { UnitScale } from './unit-scale.ts';

/** Where converted events go (a RecordingEncoder or a test array). */
export interface ImportSink {
  write(ev: BookUpdated | TradePrinted | RecordingGap): void;
}

/** Where a Tardis import's events go: books, trades and gaps, plus tickers, funding and index prices from derivative_ticker. */
export interface TardisSink {
  write(ev: BookUpdated | TradePrinted | RecordingGap | TickerUpdated | FundingSettled | PriceObserved): void;
}

/** Options of a Tardis import. */
export interface TardisImportOptions {
  /** `incremental_book_L2` CSV: exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount. */
  readonly book: LineSource;
  /** `trades` CSV: exchange,symbol,timestamp,local_timestamp,id,side,price,amount. */
  readonly trades?: LineSource;
  /**
   * `derivative_ticker` CSV: exchange,symbol,timestamp,local_timestamp,funding_timestamp,funding_rate,
   * predicted_funding_rate,open_interest,last_price,index_price,mark_price (tardis-ticker.ts).
   */
  readonly ticker?: LineSource;
  readonly def: InstrumentDef;
  /** Levels per side written to the recording (the full book is rebuilt regardless). */
  readonly depth: number;
  readonly clock: ClockMode;
  /**
   * Base receive latency, ms (models our distance from the source); null = the recorded one
   * (local − exchange where the recorder's clock is not behind: `SourceClock`).
   */
  readonly feedLatencyMs: number | null;
  readonly issues: RowIssues;
  /** Creates the sink once the first timestamp is known (it goes into the header). */
  openSink(startedAtMs: number): TardisSink;
  /** Called every few thousand rows. */
  onProgress?(rows: number): void;
}

/** What an import converted. */
export interface ImportStats {
  bookRows: number;
  tradeRows: number;
  books: number;
  trades: number;
  /** Sum of imported trade sizes, contracts. */
  tradedContracts: number;
  gaps: number;
  firstMs: number | null;
  lastMs: number | null;
}

/** What a Tardis import converted, and what it could not use. */
export interface TardisImportStats extends ImportStats {
  /** Level updates before the first snapshot, skipped (no book to apply them to). */
  skippedBeforeSnapshot: number;
  tickerRows: number;
  /** Funding settlements derived from derivative_ticker rows (`f` lines). */
  fundings: number;
}

/** A parsed CSV row the merge orders. */
interface Row {
  readonly kind: 'book' | 'trade';
  readonly file: string;
  readonly line: number;
  readonly tsUs: number;
  readonly localUs: number;
  readonly snapshot: boolean;
  readonly isBid: boolean;
  readonly side: Side | null;
  readonly priceTicks: number;
  readonly qty: number;
}

const BOOK_COLUMNS = ['timestamp', 'local_timestamp', 'is_snapshot', 'side', 'price', 'amount'] as const;
const TRADE_COLUMNS = ['timestamp', 'local_timestamp', 'side', 'price', 'amount'] as const;
const PROGRESS_EVERY = 8192;

/**
 * Converts Tardis-style CSVs (book level updates + trades, µs timestamps) into recording events:
 * merged by local_timestamp, Tardis's ordering clock (trades before book changes at the same
 * instant), book rows of one arrival instant applied together (stamped with their latest local
 * time; a row whose local time goes back joins the latest arrival, reported out-of-order), a snapshot run replacing the book,
 * level updates before the first snapshot skipped, top-`depth` levels written. Bad rows are
 * reported to `issues` by file and line and skipped.
 */
export async function importTardis(o: TardisImportOptions): Promise<TardisImportStats> {
  const stats: TardisImportStats = { bookRows: 0, tradeRows: 0, books: 0, trades: 0, tradedContracts: 0, gaps: 0, skippedBeforeSnapshot: 0, tickerRows: 0, fundings: 0, firstMs: null, lastMs: null };
  const symbol = o.def.instrument.symbol;
  const scale = new UnitScale(o.def);
  const clock = new SourceClock(o.clock, o.feedLatencyMs);
  const book = new LevelBook();
  const books = rowReader(o.book, 'book', scale, o.issues);
  const trades = o.trades ? rowReader(o.trades, 'trade', scale, o.issues) : null;
  const tickers = o.ticker ? tickerRows(o.ticker, o.issues) : null;
  const funding = new FundingTracker(symbol, o.def.instrument.grid.tickSize);
  let sink: TardisSink | null = null;
  const out = (tsUs: number): TardisSink => (sink ??= o.openSink(tsUs / 1000));

  // The book rows of the current instant, not yet applied.
  let batch: Row[] = [];
  // Inside a snapshot run the book is incomplete: it is written once the run ends.
  let snapshotEnd: Row | null = null;
  let haveBook = false;
  let seenSnapshot = false;
  // The arrival instant (local_timestamp) of the rows in `batch`.
  let batchLocalUs = -Infinity;
  let lastBookUs = -Infinity;
  let rows = 0;

  const flush = (): void => {
    const first = batch[0];
    if (first === undefined) return;
    // The frame is complete when its last row arrived: its times are those of the row with the
    // latest local time (a row whose local time went back joined it, and must not stamp it early).
    const at = batch.findLast((r) => r.localUs === batchLocalUs) ?? batch[batch.length - 1]!;
    const last = at.localUs === batchLocalUs ? at : { ...at, localUs: batchLocalUs };
    if (first.snapshot) {
      if (snapshotEnd === null) {
        // A new snapshot run: the source (re)connected. Mid-stream that is a gap in our data.
        if (haveBook) {
          out(first.tsUs).write({ type: 'gap', symbol, tsEvent: lastBookUs / 1000, tsRecv: first.tsUs / 1000, reason: 'source snapshot' });
          stats.gaps++;
        }
        book.clear();
      }
      for (const r of batch) book.set(r.isBid, r.priceTicks, r.qty);
      snapshotEnd = last;
    } else {
      endSnapshot();
      for (const r of batch) book.set(r.isBid, r.priceTicks, r.qty);
      uncross(last);
      emitBook(last);
    }
    batch = [];
  };
  const endSnapshot = (): void => {
    if (snapshotEnd === null) return;
    const r = snapshotEnd;
    snapshotEnd = null;
    uncross(r);
    emitBook(r);
  };
  const uncross = (r: Row): void => {
    if (!book.crossed()) return;
    o.issues.report('crossed-book', r.file, r.line, `best bid ${book.bids.best()} ≥ best ask ${book.asks.best()} after this update; the stale crossing levels were removed`);
    book.uncross(r.isBid);
  };
  const emitBook = (r: Row): void => {
    const ts = clock.stamp(r.tsUs, r.localUs);
    lastBookUs = r.tsUs;
    out(r.tsUs).write({ type: 'book', symbol, level: 2, isSnapshot: true, bids: book.bids.top(o.depth), asks: book.asks.top(o.depth), tsEvent: ts.eventMs, tsRecv: ts.recvMs });
    haveBook = true;
    stats.books++;
    touch(ts.eventMs);
  };
  // Kept at the place it has in its file, with the other rows of that arrival: reported all the same.
  const outOfOrder = (r: { readonly file: string; readonly line: number; readonly localUs: number }, prevUs: number): void =>
    o.issues.report('out-of-order', r.file, r.line, `local_timestamp ${r.localUs} is before the previous row's ${prevUs}; kept with the rows that arrived at ${prevUs}`);
  const touch = (ms: number): void => {
    stats.firstMs ??= ms;
    stats.lastMs = ms;
  };

  let nb = await books.next();
  let nt = trades ? await trades.next() : null;
  let nk = tickers ? await tickers.next() : null;
  // Tardis orders by local_timestamp (arrival at the recorder): each file is in arrival order, so a
  // row whose local time goes back keeps its place in its file (merged as if it came at the last one).
  let bookLocalUs = -Infinity;
  let tradeLocalUs = -Infinity;
  let tickerLocalUs = -Infinity;
  for (;;) {
    const b = nb.done ? null : nb.value;
    const t = nt === null || nt.done ? null : nt.value;
    const k = nk === null || nk.done ? null : nk.value;
    if (b === null && t === null && k === null) break;
    if (++rows % PROGRESS_EVERY === 0) o.onProgress?.(rows);
    const bLocal = b === null ? Infinity : Math.max(b.localUs, bookLocalUs);
    const tLocal = t === null ? Infinity : Math.max(t.localUs, tradeLocalUs);
    const kLocal = k === null ? Infinity : Math.max(k.localUs, tickerLocalUs);
    // Trades first at equal instants: the book change that follows reflects the liquidity they took.
    if (t !== null && tLocal <= bLocal && tLocal <= kLocal) {
      nt = await trades!.next();
      stats.tradeRows++;
      if (t.localUs < tradeLocalUs) outOfOrder(t, tradeLocalUs);
      tradeLocalUs = tLocal;
      if (batch.length > 0 && tLocal > batchLocalUs) flush();
      if (batch.length === 0) endSnapshot();
      writeTrade(t);
      continue;
    }
    if (k !== null && kLocal <= bLocal) {
      nk = await tickers!.next();
      stats.tickerRows++;
      if (k.localUs < tickerLocalUs) outOfOrder(k, tickerLocalUs);
      tickerLocalUs = kLocal;
      if (batch.length > 0 && kLocal > batchLocalUs) flush();
      if (batch.length === 0) endSnapshot();
      const ts = clock.stamp(k.tsUs, k.localUs);
      for (const ev of funding.events(k, ts)) {
        out(k.tsUs).write(ev);
        if (ev.type === 'funding') stats.fundings++;
      }
      touch(ts.eventMs);
      continue;
    }
    nb = await books.next();
    stats.bookRows++;
    const row = b!;
    if (row.localUs < bookLocalUs) outOfOrder(row, bookLocalUs);
    bookLocalUs = bLocal;
    // Level updates before the first snapshot change a book we do not have: applying them would
    // write a one-sided or partial book.
    if (!row.snapshot && !seenSnapshot) {
      stats.skippedBeforeSnapshot++;
      continue;
    }
    seenSnapshot ||= row.snapshot;
    // Every level update is kept (Tardis sizes are absolute: a dropped delete would leave a stale
    // level), also one whose exchange time goes back; rows are grouped by arrival instant.
    const head = batch[0];
    if (head !== undefined && (batchLocalUs !== bLocal || head.snapshot !== row.snapshot)) flush();
    batchLocalUs = bLocal;
    batch.push(row);
  }
  flush();
  endSnapshot();
  o.onProgress?.(rows);
  return stats;

  function writeTrade(t: Row): void {
    let side = t.side;
    if (side === null) {
      // Unknown aggressor: at or above the best ask it was a buy, at or below the best bid a sell.
      const ask = book.asks.best();
      side = ask !== undefined && t.priceTicks >= ask ? 'buy' : 'sell';
    }
    const ts = clock.stamp(t.tsUs, t.localUs);
    out(t.tsUs).write({ type: 'trade', symbol: symbol as Symbol, priceTicks: t.priceTicks, qty: t.qty, aggressor: side, tsEvent: ts.eventMs, tsRecv: ts.recvMs });
    stats.trades++;
    stats.tradedContracts += t.qty;
    touch(ts.eventMs);
  }
}

/** Reads one CSV file into rows, reporting (and skipping) the bad ones. */
async function* rowReader(src: LineSource, kind: 'book' | 'trade', scale: UnitScale, issues: RowIssues): AsyncGenerator<Row, void, undefined> {
  const wanted = kind === 'book' ? BOOK_COLUMNS : TRADE_COLUMNS;
  for await (const { f, col, line } of csvRows(src, wanted, `Tardis ${kind === 'book' ? 'incremental_book_L2' : 'trades'}`, issues)) {
    const row = parseRow(f, col, kind, src.path, line, scale, issues);
    if (row !== null) yield row;
  }
}

function parseRow(f: string[], col: Record<string, number>, kind: 'book' | 'trade', file: string, line: number, scale: UnitScale, issues: RowIssues): Row | null {
  const tsUs = Number(f[col['timestamp']!]);
  const localUs = Number(f[col['local_timestamp']!]);
  if (!Number.isFinite(tsUs) || !Number.isFinite(localUs)) {
    issues.report('malformed', file, line, 'timestamp or local_timestamp is not a number');
    return null;
  }
  const sideText = f[col['side']!];
  let isBid: boolean;
  let side: Side | null;
  if (kind === 'book') {
    if (sideText === 'bid') isBid = true;
    else if (sideText === 'ask') isBid = false;
    else {
      issues.report('malformed', file, line, `side must be bid or ask, got ${JSON.stringify(sideText)}`);
      return null;
    }
    side = null;
  } else {
    if (sideText === 'buy') side = 'buy';
    else if (sideText === 'sell') side = 'sell';
    else if (sideText === 'unknown' || sideText === '') side = null;
    else {
      issues.report('malformed', file, line, `side must be buy, sell or unknown, got ${JSON.stringify(sideText)}`);
      return null;
    }
    isBid = side === 'buy';
  }
  const priceText = f[col['price']!] ?? '';
  const amountText = f[col['amount']!] ?? '';
  const priceTicks = scale.priceTicks(priceText, file, line, issues);
  if (priceTicks === null) return null;
  const qty = scale.contracts(amountText, kind === 'trade', file, line, issues);
  if (qty === null) return null;
  const snapshot = kind === 'book' && f[col['is_snapshot']!] === 'true';
  return { kind, file, line, tsUs, localUs, snapshot, isBid, side, priceTicks, qty };
}
