import { MmError } from '../../core/errors.ts';
import type { Side } from '../../domain/enums.ts';
import type { BookLevel } from '../../domain/book.ts';
import { DBN_FLAG, DBN_SCHEMA, DbnCursor, MBO, MBP, PAIR, RTYPE, type DbnMetadata } from './dbn-decoder.ts';
import type { ByteSource } from './dbn-source.ts';
import type { InstrumentDef } from './instrument-def.ts';
import { MboBook } from './mbo-book.ts';
import type { RowIssues } from './row-issues.ts';
import type { ImportSink, ImportStats } from './tardis.ts';

/** Which Databento schema a book file holds. */
export type DatabentoBookKind = 'mbo' | 'mbp10';

/** Options of a Databento import. */
export interface DatabentoImportOptions {
  /** The book stream: MBO (order level, written as an L3 recording) or MBP-10 (top 10 levels, L2). */
  readonly book?: { readonly kind: DatabentoBookKind; readonly source: ByteSource };
  /** A `trades` schema file; when given, the book file's trade records are not written (no double count). */
  readonly trades?: ByteSource;
  /** Keeps this raw symbol's instrument ids only (the metadata's symbol mappings); default: the file's one instrument. */
  readonly rawSymbol?: string;
  readonly def: InstrumentDef;
  /** Levels per side written (default 50 for MBO; MBP-10 has 10). */
  readonly depth: number;
  /** Added to every receive time (Databento's `ts_recv`), ms. */
  readonly feedLatencyMs: number;
  readonly issues: RowIssues;
  openSink(startedAtMs: number): ImportSink;
  onProgress?(records: number): void;
}

/** What a Databento import converted. */
export interface DatabentoImportStats extends ImportStats {
  /** Records of another instrument or of a record type not imported (system, symbol mapping...). */
  skippedRecords: number;
}

const PROGRESS_EVERY = 1 << 16;
const CH = { A: 65, B: 66, C: 67, F: 70, M: 77, N: 78, R: 82, T: 84 } as const;
const BOOK_SCHEMA = { mbo: DBN_SCHEMA.mbo, mbp10: DBN_SCHEMA.mbp10 } as const;

/** One input file being read: its cursor and the record it stands on. */
interface Stream {
  readonly cur: DbnCursor;
  readonly kind: DatabentoBookKind | 'trades';
  /** Instrument ids of the wanted symbol; null = take the first one seen. */
  ids: Set<number> | null;
  has: boolean;
}

/**
 * Converts Databento DBN files (MBO, MBP-10, trades; DBN versions 1–3) into recording events in
 * constant memory: the book files' records are applied to a market-by-order book (exact FIFO by
 * order id) or taken as the top 10 levels, a book is written at the end of each event (`F_LAST`)
 * that changed the top `depth` levels, trade records become prints with their aggressor side,
 * `R` (clear book) mid-stream becomes a gap, and two files are merged by `ts_recv`. Venue time =
 * `ts_event`, receive time = `ts_recv` (+ `feedLatencyMs`). Bad records are reported to `issues`
 * by file and record number (in place of a line) and skipped.
 */
export async function importDatabento(o: DatabentoImportOptions): Promise<DatabentoImportStats> {
  const stats: DatabentoImportStats = { bookRows: 0, tradeRows: 0, books: 0, trades: 0, tradedContracts: 0, gaps: 0, skippedRecords: 0, firstMs: null, lastMs: null };
  if (o.book === undefined && o.trades === undefined) throw new MmError('USAGE', 'mmbot import databento: give --mbo, --mbp10 or --trades');
  const symbol = o.def.instrument.symbol;
  const tickNano = Math.round(o.def.instrument.grid.tickSize.toNumber() * 1e9);
  const lot = o.def.lotSize.toNumber();
  const mbo = new MboBook();
  const depth = o.book?.kind === 'mbp10' ? Math.min(o.depth, 10) : o.depth;
  let sink: ImportSink | null = null;
  const out = (ms: number): ImportSink => (sink ??= o.openSink(ms));
  let lastRecvMs = -Infinity;
  let dirty = false;
  let haveBook = false;
  let lastBookMs = 0;
  let records = 0;
  let mbp: { bids: BookLevel[]; asks: BookLevel[] } = { bids: [], asks: [] };

  const open = async (source: ByteSource, kind: Stream['kind']): Promise<Stream> => {
    const cur = new DbnCursor(source, source.path);
    const meta = await cur.open();
    const want = kind === 'trades' ? DBN_SCHEMA.trades : BOOK_SCHEMA[kind];
    if (meta.schema !== null && meta.schema !== want) throw new MmError('USAGE', `${source.path}: holds DBN schema ${schemaName(meta.schema)}, --${kind} needs ${kind}`, { file: source.path });
    const s: Stream = { cur, kind, ids: o.rawSymbol === undefined ? null : instrumentIds(meta, o.rawSymbol, source.path), has: false };
    s.has = cur.advance() || (await load(cur));
    return s;
  };
  const book = o.book ? await open(o.book.source, o.book.kind) : null;
  const trades = o.trades ? await open(o.trades, 'trades') : null;

  for (;;) {
    const b = book !== null && book.has ? book : null;
    const t = trades !== null && trades.has ? trades : null;
    if (b === null && t === null) break;
    if (++records % PROGRESS_EVERY === 0) o.onProgress?.(records);
    // Trades first at equal receive times: the book change after reflects the liquidity they took.
    const s = t !== null && (b === null || recvKey(t) <= recvKey(b)) ? t : b!;
    if (wanted(s)) {
      if (s.kind === 'mbo') onMbo(s.cur);
      else if (s.kind === 'mbp10') onMbp10(s.cur);
      else onTrade(s.cur, MBP.price, MBP.size, MBP.side, MBP.tsRecv);
    }
    s.has = s.cur.advance() || (await load(s.cur));
  }
  o.onProgress?.(records);
  return stats;

  /** True when the current record is of the instrument and record type imported (else counted as skipped). */
  function wanted(s: Stream): boolean {
    const c = s.cur;
    const rtype = c.rtype();
    const want = s.kind === 'mbo' ? RTYPE.mbo : s.kind === 'mbp10' ? RTYPE.mbp10 : RTYPE.mbp0;
    if (rtype !== want) {
      stats.skippedRecords++;
      return false;
    }
    const id = c.instrumentId();
    if (s.ids === null) {
      s.ids = new Set([id]);
      if (book !== null && book !== s && book.ids === null) book.ids = s.ids;
      if (trades !== null && trades !== s && trades.ids === null) trades.ids = s.ids;
    } else if (!s.ids.has(id)) {
      if (o.rawSymbol === undefined)
        throw new MmError('USAGE', `${c.path}: holds several instruments (ids ${[...s.ids][0]} and ${id}): name one with --raw-symbol (${s.cur.meta!.mappings.map((m) => m.rawSymbol).join(', ') || 'no symbol mappings in the metadata'})`, { file: c.path });
      stats.skippedRecords++;
      return false;
    }
    const min = s.kind === 'mbo' ? MBO.length : s.kind === 'mbp10' ? MBP.length10 : MBP.length0;
    if (c.len < min) {
      o.issues.report('malformed', c.path, c.index, `record of ${c.len} bytes; this record type has ${min}`);
      return false;
    }
    return true;
  }

  /** The merge key of a stream's current record: its `ts_recv`; records not imported go first (they are skipped). */
  function recvKey(s: Stream): number {
    const c = s.cur;
    if (s.kind === 'mbo') return c.rtype() === RTYPE.mbo && c.len >= MBO.length ? c.ms(MBO.tsRecv) : -Infinity;
    return c.rtype() === (s.kind === 'mbp10' ? RTYPE.mbp10 : RTYPE.mbp0) && c.len >= MBP.length0 ? c.ms(MBP.tsRecv) : -Infinity;
  }

  /** Receive time of the current record, ms: `ts_recv` (its ts_event when flagged bad), never going back. */
  function recvMs(c: DbnCursor, at: number, eventMs: number): number {
    const flagsAt = c.rtype() === RTYPE.mbo ? MBO.flags : MBP.flags;
    let r = (c.u8(flagsAt) & DBN_FLAG.badTsRecv) !== 0 ? eventMs : c.ms(at);
    r += o.feedLatencyMs;
    if (r < lastRecvMs) r = lastRecvMs;
    return (lastRecvMs = r);
  }

  function ticks(c: DbnCursor, at: number): number | null {
    const p = c.price(at);
    if (p === null) return null;
    const t = p / tickNano;
    if (!Number.isInteger(t) || t <= 0) {
      o.issues.report('off-grid-price', c.path, c.index, `price ${p / 1e9} is not a positive multiple of tick_size ${tickNano / 1e9}`);
      return null;
    }
    return t;
  }

  function contracts(c: DbnCursor, size: number): number {
    const x = size / lot;
    const q = Math.round(x);
    if (Math.abs(x - q) > 1e-6 * Math.max(1, x)) {
      o.issues.report('fractional-size', c.path, c.index, `size ${size} is not a whole number of lot_size ${lot}; rounded`);
      return Math.max(1, q);
    }
    return q;
  }

  function onMbo(c: DbnCursor): void {
    stats.bookRows++;
    const action = c.u8(MBO.action);
    const flags = c.u8(MBO.flags);
    const sideCh = c.u8(MBO.side);
    const eventMs = c.tsEventMs();
    switch (action) {
      case CH.A:
      case CH.M: {
        if (sideCh !== CH.B && sideCh !== CH.A) {
          o.issues.report('malformed', c.path, c.index, `side ${String.fromCharCode(sideCh)} of an order (A or B expected)`);
          break;
        }
        const p = ticks(c, MBO.price);
        if (p === null) break;
        const isBid = sideCh === CH.B;
        const id = c.id(MBO.orderId);
        const before = mbo.order(id);
        const r = action === CH.A ? mbo.add(id, isBid, p, contracts(c, c.u32(MBO.size))) : mbo.modify(id, isBid, p, contracts(c, c.u32(MBO.size)));
        if (r === 'duplicate-order') o.issues.report('malformed', c.path, c.index, `order ${id} is added twice`);
        else if (r === 'unknown-order') o.issues.report('unknown-order', c.path, c.index, `modify of order ${id}, not resting: taken as an add`);
        touch(isBid, p);
        if (before !== undefined) touch(before.isBid, before.priceTicks);
        break;
      }
      case CH.C: {
        const id = c.id(MBO.orderId);
        const before = mbo.order(id);
        if (before === undefined) {
          o.issues.report('unknown-order', c.path, c.index, `cancel of order ${id}, not resting`);
          break;
        }
        touch(before.isBid, before.priceTicks);
        mbo.cancel(id, contracts(c, c.u32(MBO.size)));
        break;
      }
      case CH.R:
        // The source cleared its book (a new snapshot follows): after a book of ours, a gap in the data.
        if (haveBook) {
          out(eventMs).write({ type: 'gap', symbol, tsEvent: lastBookMs, tsRecv: recvMs(c, MBO.tsRecv, eventMs), reason: 'source cleared the book' });
          stats.gaps++;
          haveBook = false;
        }
        mbo.clear();
        dirty = true;
        break;
      case CH.T:
        if (trades === null) onTrade(c, MBO.price, MBO.size, MBO.side, MBO.tsRecv);
        break;
      case CH.F:
      case CH.N:
        // A fill is the resting side of a trade; the book change comes as its own cancel or modify.
        break;
      default:
        o.issues.report('unknown-message', c.path, c.index, `MBO action ${String.fromCharCode(action)} (A, C, M, R, T, F or N expected)`);
    }
    if ((flags & DBN_FLAG.last) !== 0 && dirty) {
      dirty = false;
      // A snapshot in progress is written once complete (its last record has F_LAST).
      emit(c, MBO.tsRecv, eventMs, mbo.bids.top(depth), mbo.asks.top(depth));
    }
  }

  /** Marks the book changed when `price` is (or was) within the top `depth` levels of its side. */
  function touch(isBid: boolean, priceTicks: number): void {
    if (!dirty && (isBid ? mbo.bids : mbo.asks).rank(priceTicks) < depth) dirty = true;
  }

  function onMbp10(c: DbnCursor): void {
    stats.bookRows++;
    const eventMs = c.tsEventMs();
    if (c.u8(MBP.action) === CH.T && trades === null) onTrade(c, MBP.price, MBP.size, MBP.side, MBP.tsRecv);
    const bids: BookLevel[] = [];
    const asks: BookLevel[] = [];
    for (let i = 0; i < depth; i++) {
      const at = MBP.levels + i * PAIR.length;
      const bp = ticks(c, at + PAIR.bidPx);
      const bq = c.u32(at + PAIR.bidSz);
      if (bp !== null && bq > 0) bids.push({ priceTicks: bp, qty: contracts(c, bq) });
      const ap = ticks(c, at + PAIR.askPx);
      const aq = c.u32(at + PAIR.askSz);
      if (ap !== null && aq > 0) asks.push({ priceTicks: ap, qty: contracts(c, aq) });
    }
    if ((c.u8(MBP.flags) & DBN_FLAG.last) === 0 || (sameSide(bids, mbp.bids) && sameSide(asks, mbp.asks))) return;
    mbp = { bids, asks };
    emit(c, MBP.tsRecv, eventMs, bids, asks);
  }

  function emit(c: DbnCursor, recvAt: number, eventMs: number, bids: BookLevel[], asks: BookLevel[]): void {
    const bb = bids[0]?.priceTicks;
    const ba = asks[0]?.priceTicks;
    if (bb !== undefined && ba !== undefined && bb >= ba) o.issues.report('crossed-book', c.path, c.index, `best bid ${bb} ≥ best ask ${ba} after this record`);
    const level = o.book?.kind === 'mbo' ? 3 : 2;
    out(eventMs).write({ type: 'book', symbol, level, isSnapshot: true, bids, asks, tsEvent: eventMs, tsRecv: recvMs(c, recvAt, eventMs) });
    haveBook = true;
    lastBookMs = eventMs;
    stats.books++;
    stats.firstMs ??= eventMs;
    stats.lastMs = eventMs;
  }

  function onTrade(c: DbnCursor, priceAt: number, sizeAt: number, sideAt: number, recvAt: number): void {
    stats.tradeRows++;
    const p = ticks(c, priceAt);
    const size = c.u32(sizeAt);
    if (p === null) return;
    if (size === 0) {
      o.issues.report('negative-size', c.path, c.index, 'trade of size 0');
      return;
    }
    const qty = contracts(c, size);
    const sideCh = c.u8(sideAt);
    let aggressor: Side;
    if (sideCh === CH.B) aggressor = 'buy';
    else if (sideCh === CH.A) aggressor = 'sell';
    else {
      // No aggressor side ('N'): at or above the best ask it was a buy, else a sell.
      const ask = o.book?.kind === 'mbo' ? mbo.bestAsk() : mbp.asks[0]?.priceTicks;
      aggressor = ask !== undefined && p >= ask ? 'buy' : 'sell';
    }
    const eventMs = c.tsEventMs();
    out(eventMs).write({ type: 'trade', symbol, priceTicks: p, qty, aggressor, tsEvent: eventMs, tsRecv: recvMs(c, recvAt, eventMs) });
    stats.trades++;
    stats.tradedContracts += qty;
    stats.firstMs ??= eventMs;
    stats.lastMs = eventMs;
  }
}

/** Reads until a record is complete; false at the end of the stream. */
async function load(cur: DbnCursor): Promise<boolean> {
  for (;;) {
    if (!(await cur.fill())) return false;
    if (cur.advance()) return true;
  }
}

/**
 * The instrument ids a raw symbol maps to in the metadata (stype_out instrument_id: each mapping
 * interval's symbol is an id).
 * @throws MmError USAGE listing the file's symbols when it has none.
 */
export function instrumentIds(meta: DbnMetadata, rawSymbol: string, path: string): Set<number> {
  const ids = new Set<number>();
  for (const m of meta.mappings) {
    if (m.rawSymbol !== rawSymbol) continue;
    for (const i of m.intervals) if (/^[0-9]+$/.test(i.symbol)) ids.add(Number(i.symbol));
  }
  if (ids.size === 0) throw new MmError('USAGE', `${path}: no instrument maps to raw symbol ${rawSymbol} (the file has ${meta.mappings.map((m) => m.rawSymbol).join(', ') || 'no symbol mappings'})`, { file: path });
  return ids;
}

function sameSide(a: readonly BookLevel[], b: readonly BookLevel[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.priceTicks !== b[i]!.priceTicks || a[i]!.qty !== b[i]!.qty) return false;
  return true;
}

function schemaName(schema: number): string {
  return Object.entries(DBN_SCHEMA).find(([, v]) => v === schema)?.[0] ?? `#${schema}`;
}
