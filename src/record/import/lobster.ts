import type { Side } from '../../domain/enums.ts';
import type { TradeCondition } from '../../domain/events.ts';
import type { InstrumentDef } from './instrument-def.ts';
import type { LineSource, NumberedLine } from './line-source.ts';
import { OrderBookL3 } from './order-book-l3.ts';
import type { RowIssues } from './row-issues.ts';
import type { ImportSink, ImportStats } from './tardis.ts';

/** Options of a LOBSTER import. */
export interface LobsterImportOptions {
  /** `..._message_N.csv`: time,type,order_id,size,price,direction (no header). */
  readonly messages: LineSource;
  /** `..._orderbook_N.csv`: ask_price_1,ask_size_1,bid_price_1,bid_size_1,... after each message. */
  readonly orderbook: LineSource;
  readonly def: InstrumentDef;
  /** Epoch ms of midnight of the trading day in the exchange's time zone (times are seconds after it). */
  readonly midnightMs: number;
  /** Levels per side written (default: the book file's N). */
  readonly depth?: number;
  /** Added to every receive time, ms. */
  readonly feedLatencyMs: number;
  readonly issues: RowIssues;
  openSink(startedAtMs: number): ImportSink;
  onProgress?(rows: number): void;
}

/** What a LOBSTER import converted, beyond ImportStats. */
export interface LobsterImportStats extends ImportStats {
  /**
   * Levels settled to the order-book file that were outside its N levels on the row before (orders
   * resting before the file started, at prices the file did not show: a depth-N file cannot name
   * them). Expected, not bad rows; a difference at a level the file showed is a `book-mismatch`.
   */
  reconciledLevels: number;
  /** Cancels and executions of orders that predate the file at prices outside its N levels (unknown ids there, expected). */
  unseenOrders: number;
  /**
   * Cancels and executions of ids never added at a price the file showed, applied to the level's
   * latest known order of at least that size (OrderBookL3.reduceLatest: a replace with its messages
   * missing, as in LOBSTER's samples).
   */
  replacedOrders: number;
  /** Type 5: executions of hidden orders, written as `hidden` prints (they consumed no displayed queue). */
  hiddenTrades: number;
  hiddenContracts: number;
  /** Of those, prices between ticks (midpoint executions), written rounded to the resting side's worse tick. */
  hiddenOffGrid: number;
  /** Type 6: auction crosses, written as `cross` prints (no aggressor; they trade no resting order). */
  crossTrades: number;
  crossContracts: number;
  /** Type 7: trading halt, quote or trading resumption messages (each a gap). */
  halts: number;
  /** Levels the order-book file changed after the messages were applied (OrderBookL3.settleLevel): reconciled and mismatched levels alike. */
  settlements: number;
  /** Of those, drops the messages did not explain that took contracts off orders known by id. */
  settledKnownOrders: number;
  /** The contracts those drops took off known orders. */
  settledKnownContracts: number;
  /** Of those, drops that left an untouched newer order behind one they reduced (moving it up the queue). */
  settledReordered: number;
  /**
   * Later messages of orders a drop had taken volume off (still resting, so the drop was another
   * order's): that volume then came off the level's back (OrderBookL3.reduce), not reported as a mismatch.
   */
  settledCorrections: number;
}

/** LOBSTER prices are integers in 1/10000 of the currency. */
const PRICE_SCALE = 10_000;
/** LOBSTER's placeholder for an empty level. */
const EMPTY_PRICE = 9_999_999_999;
const PROGRESS_EVERY = 8192;

/**
 * Converts LOBSTER message + order-book files (one trading day of one ticker) into an order-level
 * recording: the book is rebuilt order by order (exact FIFO per price; orders resting before the
 * file starts are placeholders at the front of their level), checked against the order-book file
 * after every message (settled to the file: a level outside the file's N levels before is counted as
 * reconciled, a difference at a level it showed is reported), books carry every order's id (format
 * version 5), visible executions (type 4) become trades with the taker side opposite to the resting
 * order's, hidden executions (type 5) `hidden` prints, auction crosses (type 6) `cross` prints,
 * halts (type 7) gaps.
 */
export async function importLobster(o: LobsterImportOptions): Promise<LobsterImportStats> {
  const stats: LobsterImportStats = {
    bookRows: 0, tradeRows: 0, books: 0, trades: 0, tradedContracts: 0, gaps: 0, firstMs: null, lastMs: null,
    reconciledLevels: 0, unseenOrders: 0, replacedOrders: 0, hiddenTrades: 0, hiddenContracts: 0, hiddenOffGrid: 0, crossTrades: 0, crossContracts: 0, halts: 0,
    settlements: 0, settledKnownOrders: 0, settledKnownContracts: 0, settledReordered: 0, settledCorrections: 0,
  };
  // A file that keeps only N levels (and starts mid-day) names orders and levels it never showed:
  // those rows are the format's, not errors; the order-book file is the truth the book settles to.
  o.issues.expect(['book-mismatch', 'unknown-order'], 'expected of a LOBSTER file: it shows a few levels and starts with orders resting it never added, so some messages cannot match its book; the book is settled to the order-book file');
  const symbol = o.def.instrument.symbol;
  const tick = o.def.instrument.grid.tickSize.toNumber();
  const lot = o.def.lotSize.toNumber();
  const book = new OrderBookL3();
  const msgs = (o.messages as AsyncIterable<NumberedLine>)[Symbol.asyncIterator]();
  const rows = (o.orderbook as AsyncIterable<NumberedLine>)[Symbol.asyncIterator]();
  let sink: ImportSink | null = null;
  let lastTimeS = -Infinity;
  let seeded = false;
  let depth = o.depth ?? 0;
  // The price range each side of the book file showed on the row before: a difference outside it is
  // depth the file did not show (reconciled), inside it something the messages failed to explain.
  const view: View = { bidBest: NaN, bidWorst: NaN, askBest: NaN, askWorst: NaN };
  let n = 0;
  const file = o.messages.path;

  const ticksOf = (raw: number, line: number, f: string): number | null => {
    const x = raw / PRICE_SCALE / tick;
    const t = Math.round(x);
    if (Math.abs(x - t) > 1e-6 * Math.max(1, x)) {
      o.issues.report('off-grid-price', f, line, `price ${raw} (${raw / PRICE_SCALE}) is not a multiple of tick_size ${tick}`);
      return null;
    }
    return t;
  };
  // A hidden execution between ticks (a midpoint order) is kept as a print at the resting side's
  // worse tick: a hidden print fills only our orders priced better than it, and every order of
  // ours that the aggressor would have met first is priced better than that tick too.
  const hiddenTicks = (raw: number, restingBid: boolean): number => {
    const x = raw / PRICE_SCALE / tick;
    const t = Math.round(x);
    if (Math.abs(x - t) <= 1e-6 * Math.max(1, x)) return t;
    stats.hiddenOffGrid++;
    return restingBid ? Math.floor(x) : Math.ceil(x);
  };
  const contractsOf = (raw: number, line: number, f: string): number | null => {
    const x = raw / lot;
    const q = Math.round(x);
    if (Math.abs(x - q) > 1e-6 * Math.max(1, x)) {
      o.issues.report('fractional-size', f, line, `size ${raw} is not a whole number of lot_size ${lot}; rounded`);
      return Math.max(1, q);
    }
    return q;
  };

  for (;;) {
    const m = await msgs.next();
    const r = await rows.next();
    if (m.done || r.done) {
      if (!m.done || !r.done) o.issues.report('malformed', m.done ? o.orderbook.path : file, (m.done ? r.value?.line : m.value.line) ?? 0, 'the message and order-book files have different lengths');
      break;
    }
    if (++n % PROGRESS_EVERY === 0) o.onProgress?.(n);
    const { text, line } = m.value;
    const f = text.split(',');
    const timeS = Number(f[0]);
    const type = Number(f[1]);
    const id = f[2] ?? '';
    const size = Number(f[3]);
    const priceRaw = Number(f[4]);
    const dir = Number(f[5]);
    const level = r.value.text.split(',').map(Number);
    if (f.length < 6 || !Number.isFinite(timeS) || !Number.isFinite(size) || !Number.isFinite(priceRaw) || (dir !== 1 && dir !== -1)) {
      o.issues.report('malformed', file, line, `expected time,type,order_id,size,price,direction, got ${JSON.stringify(text)}`);
      continue;
    }
    if (level.length < 4 || level.length % 4 !== 0 || level.some((x) => !Number.isFinite(x))) {
      o.issues.report('malformed', o.orderbook.path, r.value.line, 'expected ask_price,ask_size,bid_price,bid_size groups of numbers');
      continue;
    }
    if (depth === 0) depth = level.length / 4;
    if (timeS < lastTimeS) {
      o.issues.report('out-of-order', file, line, `time ${timeS} is before the previous message's ${lastTimeS}`);
      continue;
    }
    lastTimeS = timeS;
    // A message of no shares (halts carry size 0 by design) changes no order and trades nothing; a
    // print or an order of 0 written on would make the backtest refuse the recording, naming a
    // line of the recording instead of this one.
    if (size <= 0 && type !== 7) {
      o.issues.report('negative-size', file, line, `size ${size} must be > 0 (message type ${f[1]}); skipped`);
      continue;
    }
    const tsMs = o.midnightMs + timeS * 1000;
    const out = (sink ??= o.openSink(tsMs));
    const stamp = { tsEvent: tsMs, tsRecv: tsMs + o.feedLatencyMs };
    const isBid = dir === 1;
    const priceTicks = type === 7 ? 0 : type === 5 ? hiddenTicks(priceRaw, isBid) : ticksOf(priceRaw, line, file);
    const qty = contractsOf(size, line, file);
    if (priceTicks === null || qty === null) continue;
    if (!seeded) {
      // The book file's first row is the state after the first message: seed the levels as they
      // were before it (placeholders: those orders' ids are unknown).
      seedBefore(book, level, type, isBid, priceTicks, qty, ticksOf, contractsOf, o.orderbook.path, r.value.line);
      seeded = true;
    }
    stats.bookRows++;
    switch (type) {
      case 1:
        if (!book.add(id, isBid, priceTicks, qty)) o.issues.report('malformed', file, line, `order ${id} is added twice`);
        break;
      case 2:
      case 3:
      case 4:
        if (book.reduce(id, isBid, priceTicks, qty) === 'unknown-order') {
          // An order that predates the file at a price it did not show cannot be known by id; one at a
          // price it showed is a known order under a new id (a replace whose messages are missing).
          if (!inView(view, isBid, priceTicks)) stats.unseenOrders++;
          else if (book.reduceLatest(isBid, priceTicks, qty)) stats.replacedOrders++;
          else o.issues.report('unknown-order', file, line, `order ${id} is not resting at ${priceRaw}`);
        }
        if (type === 4) trade(out, priceTicks, qty, isBid ? 'sell' : 'buy', stamp);
        break;
      case 5:
        // A hidden order traded: real volume, but no displayed order did (no queue consumed).
        trade(out, priceTicks, qty, isBid ? 'sell' : 'buy', stamp, 'hidden');
        stats.hiddenTrades++;
        stats.hiddenContracts += qty;
        break;
      case 6:
        // An auction cross: no aggressor, and no order of the continuous book traded in it.
        trade(out, priceTicks, qty, 'buy', stamp, 'cross');
        stats.crossTrades++;
        stats.crossContracts += qty;
        break;
      case 7:
        // A halt (price −1) or resumption (0 quotes, 1 trading): the data is not continuous.
        out.write({ type: 'gap', symbol, tsEvent: tsMs, tsRecv: tsMs, reason: `trading halt message (price ${priceRaw})` });
        stats.gaps++;
        stats.halts++;
        break;
      default:
        o.issues.report('unknown-message', file, line, `message type ${f[1]} (LOBSTER types are 1-7)`);
        continue;
    }
    // Hidden and cross executions and halts leave the visible book as it was.
    if (type >= 5) continue;
    stats.reconciledLevels += settleToFile(book, level, depth, ticksOf, contractsOf, o.orderbook.path, r.value.line, o.issues, stats.bookRows > 1, view);
    const bb = book.bestBid();
    const ba = book.bestAsk();
    if (bb !== undefined && ba !== undefined && bb >= ba) o.issues.report('crossed-book', file, line, `best bid ${bb} ≥ best ask ${ba} after this message`);
    out.write({ type: 'book', symbol, level: 3, isSnapshot: true, bids: book.bids.top(depth), asks: book.asks.top(depth), ...stamp });
    stats.books++;
    stats.firstMs ??= tsMs;
    stats.lastMs = tsMs;
  }
  o.onProgress?.(n);
  stats.settlements = book.settled.settlements;
  stats.settledKnownOrders = book.settled.knownDrops;
  stats.settledKnownContracts = book.settled.knownContracts;
  stats.settledReordered = book.settled.reordered;
  stats.settledCorrections = book.settled.corrections;
  return stats;

  function trade(out: ImportSink, priceTicks: number, qty: number, aggressor: Side, stamp: { tsEvent: number; tsRecv: number }, condition?: TradeCondition): void {
    out.write({ type: 'trade', symbol, priceTicks, qty, aggressor, ...stamp, ...(condition ? { condition } : {}) });
    stats.tradeRows++;
    stats.trades++;
    stats.tradedContracts += qty;
  }
}

type Conv = (raw: number, line: number, f: string) => number | null;

/** The price range each side of the order-book file showed on a row (NaN: the side showed none). */
interface View {
  bidBest: number;
  bidWorst: number;
  askBest: number;
  askWorst: number;
}

/** True when the file's row showed the price's place on its side (between its best and worst shown). */
const inView = (v: View, bid: boolean, p: number): boolean => (bid ? p <= v.bidBest && p >= v.bidWorst : p >= v.askBest && p <= v.askWorst);

/** Seeds the book from the file's first row with the first message undone. */
function seedBefore(book: OrderBookL3, level: number[], type: number, isBid: boolean, priceTicks: number, qty: number, ticksOf: Conv, contractsOf: Conv, path: string, line: number): void {
  for (let i = 0; i < level.length; i += 4) {
    for (const [pIdx, bid] of [[i, false], [i + 2, true]] as const) {
      const raw = level[pIdx]!;
      if (Math.abs(raw) >= EMPTY_PRICE || raw <= 0) continue;
      const p = ticksOf(raw, line, path);
      const q = contractsOf(level[pIdx + 1]!, line, path);
      if (p === null || q === null) continue;
      let before = q;
      if (bid === isBid && p === priceTicks) before += type === 1 ? -qty : type >= 2 && type <= 4 ? qty : 0;
      if (before > 0) book.seedLevel(bid, p, before);
    }
  }
  // A reduction of an order at a level the row no longer shows (it emptied it): seed it too.
  if (type >= 2 && type <= 4 && book.levelQty(isBid, priceTicks) === 0) book.seedLevel(isBid, priceTicks, qty);
}

/**
 * Compares the rebuilt book's visible levels with the file's row and settles differences. A
 * difference at a price the previous row showed means the messages did not explain it: reported
 * (when `report`, i.e. after the first message). One outside it is depth the file did not show
 * (orders older than the file there): counted, returned, not reported. Updates `view` to this row.
 */
function settleToFile(
  book: OrderBookL3,
  level: number[],
  depth: number,
  ticksOf: Conv,
  contractsOf: Conv,
  path: string,
  line: number,
  issues: RowIssues,
  report: boolean,
  view: View,
): number {
  let reconciled = 0;
  const shown = { bidBest: NaN, bidWorst: NaN, askBest: NaN, askWorst: NaN };
  for (const bid of [false, true]) {
    const want = new Map<number, number>();
    let worst: number | undefined;
    // An empty slot: the side has fewer levels than the file shows, so the row shows all of it.
    let whole = false;
    for (let i = 0; i < level.length && i / 4 < depth; i += 4) {
      const raw = level[bid ? i + 2 : i]!;
      if (Math.abs(raw) >= EMPTY_PRICE || raw <= 0) {
        whole = true;
        continue;
      }
      const p = ticksOf(raw, line, path);
      const q = contractsOf(level[bid ? i + 3 : i + 1]!, line, path);
      if (p === null || q === null) continue;
      want.set(p, q);
      if (worst === undefined) bid ? (shown.bidBest = p) : (shown.askBest = p);
      worst = p;
    }
    if (worst !== undefined) bid ? (shown.bidWorst = worst) : (shown.askWorst = worst);
    const side = bid ? book.bids : book.asks;
    // Our levels inside the file's visible range that the file does not show are gone (all of them
    // when it shows the whole side).
    for (const p of [...side.prices]) {
      if (!whole && (worst === undefined || (bid ? p < worst : p > worst))) break;
      if (!want.has(p)) {
        if (report && inView(view, bid, p)) issues.report('book-mismatch', path, line, `${bid ? 'bid' : 'ask'} level ${p} is not in the order-book file; removed`, book.levelQty(bid, p));
        else if (report) reconciled++;
        book.settleLevel(bid, p, 0);
      }
    }
    for (const [p, q] of want) {
      const have = book.levelQty(bid, p);
      if (have !== q) {
        if (report && inView(view, bid, p)) issues.report('book-mismatch', path, line, `${bid ? 'bid' : 'ask'} level ${p}: messages give ${have}, the file ${q}; settled to the file`, have - q);
        else if (report) reconciled++;
        book.settleLevel(bid, p, q);
      }
    }
  }
  Object.assign(view, shown);
  return reconciled;
}
