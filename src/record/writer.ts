import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { createGzip, type Gzip } from 'node:zlib';
import { MmError } from '../core/errors.ts';
import type { Symbol } from '../core/ids.ts';
import type { BookLevel } from '../domain/book.ts';
import type { MarketEvent } from '../domain/events.ts';
import type { Instrument } from '../domain/instrument.ts';
import { TrackedBook } from './book-diff.ts';
import { RECORDING_FORMAT, RECORDING_VERSION, RECORDING_VERSION_L3, RECORDING_VERSION_L3_IDS, type OwnOrders, type RecordedEvent, type RecordingGap, type RecordingHeader, type SessionEvent } from './format.ts';
import { instrumentToJson } from './instrument-json.ts';
import { encodeEvent } from './line-codec.ts';

/** Options of a recording writer. */
export interface RecordingWriterOptions {
  /** Instruments recorded (their tick sizes give the meaning of prices). */
  readonly instruments: readonly Instrument[];
  /** Epoch ms written as `started_at`. */
  readonly startedAtMs: number;
  /** Where the data comes from (URL or "local-venue"). */
  readonly source: string;
  /** Store a full book snapshot every this many books per symbol (default 1000), deltas otherwise. */
  readonly keyframeEvery?: number;
  /** Fee rates of the source market per symbol (imports of third-party data carry them). */
  readonly fees?: RecordingHeader['fees'];
  /** 3: an order-level recording (format version 4): book levels keep their order lists. Default 2. */
  readonly bookLevel?: 2 | 3;
  /**
   * true: write straight to `path` (the daemon's long recording, readable as it grows). Default:
   * write a hidden temporary file beside `path` and rename it into place on `close`, so a failed
   * run (`abort`) never leaves, nor overwrites, a complete-looking recording.
   */
  readonly inPlace?: boolean;
  /** With bookLevel 3: levels keep their orders' ids too (format version 5); frames without ids are not written. */
  readonly orderIds?: boolean;
}

/** Counters of what was written, for the CLI's summary. */
export interface RecordingStats {
  events: number;
  books: number;
  snapshots: number;
  trades: number;
  tickers: number;
  fundings: number;
  gaps: number;
  /** `o` lines: the recording bot's own working orders after each change. */
  ownOrders: number;
  /** `q` lines: the recording bot's request round trips. */
  roundTrips: number;
  /** `x` lines: the recording bot's order events (acks, cancels, fills...). */
  executions: number;
  /** `p` lines: index and external reference prices. */
  prices: number;
}

/** A sink for normalized events; call `close` to flush the gzip trailer. */
export interface RecordingSink {
  /** Records one event. Candles are ignored; book frames are stored as snapshot or delta. */
  write(ev: MarketEvent | RecordingGap | OwnOrders | SessionEvent): void;
  /** Marks an interruption (reconnect): the next book of each affected symbol is a snapshot. */
  gap(symbol: Symbol | null, fromMs: number, toMs: number, reason: string): void;
  readonly stats: Readonly<RecordingStats>;
  /** Symbols of the header, when known: events of other symbols must not be written. */
  readonly symbols?: ReadonlySet<string>;
  /** Finishes the file (gzip trailer) and, unless written in place, renames it to its path. */
  close(): Promise<void>;
  /**
   * Gives up: the temporary file is removed and an existing file at the path is left untouched (an
   * in-place writer's file is left truncated, without its gzip trailer, which readers refuse).
   */
  abort?(): Promise<void>;
}

/** Builds the header line for a set of instruments. */
export function recordingHeader(opts: Pick<RecordingWriterOptions, 'instruments' | 'startedAtMs' | 'source' | 'fees' | 'bookLevel' | 'orderIds'>): RecordingHeader {
  const instruments: Record<string, ReturnType<typeof instrumentToJson>> = {};
  for (const i of opts.instruments) instruments[i.symbol] = instrumentToJson(i);
  const l3 = opts.bookLevel === 3;
  const ids = l3 && opts.orderIds === true;
  return {
    format: RECORDING_FORMAT,
    version: ids ? RECORDING_VERSION_L3_IDS : l3 ? RECORDING_VERSION_L3 : RECORDING_VERSION,
    symbols: opts.instruments.map((i) => i.symbol),
    instruments,
    started_at: opts.startedAtMs,
    source: opts.source,
    ...(opts.fees ? { fees: opts.fees } : {}),
    ...(l3 ? { book_level: 3 as const } : {}),
    ...(ids ? { order_ids: true as const } : {}),
  };
}

/**
 * Normalizes a stream of market events into recording lines, converting full snapshots into deltas
 * against the previous book. Pure apart from the `emit` callback, so tests can use it without files.
 */
export class RecordingEncoder {
  readonly #books = new Map<string, TrackedBook>();
  readonly #sinceKeyframe = new Map<string, number>();
  readonly #keyframeEvery: number;
  readonly stats: RecordingStats = { events: 0, books: 0, snapshots: 0, trades: 0, tickers: 0, fundings: 0, gaps: 0, ownOrders: 0, roundTrips: 0, executions: 0, prices: 0 };

  readonly #l3: boolean;
  readonly #ids: boolean;

  constructor(
    private readonly emit: (line: string) => void,
    keyframeEvery = 1000,
    bookLevel: 2 | 3 = 2,
    orderIds = false,
  ) {
    this.#keyframeEvery = Math.max(1, keyframeEvery);
    this.#l3 = bookLevel === 3;
    this.#ids = this.#l3 && orderIds;
  }

  /** Encodes one event (candles are skipped). */
  write(ev: MarketEvent | RecordingGap | OwnOrders | SessionEvent): void {
    if (ev.type === 'candle') return;
    if (ev.type === 'gap') return this.gap(ev.symbol, ev.tsEvent, ev.tsRecv, ev.reason);
    if (ev.type === 'book') return this.#book(ev);
    this.#line(ev);
    if (ev.type === 'trade') this.stats.trades++;
    else if (ev.type === 'ticker') this.stats.tickers++;
    else if (ev.type === 'own') this.stats.ownOrders++;
    else if (ev.type === 'round-trip') this.stats.roundTrips++;
    else if (ev.type === 'execution') this.stats.executions++;
    else if (ev.type === 'price') this.stats.prices++;
    else this.stats.fundings++;
  }

  /** Writes a gap marker and forces snapshots next. */
  gap(symbol: Symbol | null, fromMs: number, toMs: number, reason: string): void {
    for (const [s, b] of this.#books) if (symbol === null || s === symbol) b.invalidate();
    this.stats.gaps++;
    this.#line({ type: 'gap', symbol, tsEvent: fromMs, tsRecv: toMs, reason });
  }

  #book(ev: Extract<MarketEvent, { type: 'book' }>): void {
    // An order-level recording holds order-level books only (every level with its order list): a
    // frame without orders (a subscription at another level) cannot be written into it. An L2
    // recording stores an order-level frame aggregated (its order lists dropped).
    if (this.#l3 && ev.level !== 3) return;
    if (!this.#l3 && ev.level === 3) ev = { ...ev, level: 2, bids: ev.bids.map(aggregated), asks: ev.asks.map(aggregated) };
    // A recording with ids holds frames with ids only; one without holds none (the venue's LEVEL_3 has none).
    else if (this.#l3 && this.#ids !== hasIds(ev.bids, ev.asks)) {
      if (this.#ids) return;
      ev = { ...ev, bids: ev.bids.map(withoutIds), asks: ev.asks.map(withoutIds) };
    }
    let tracked = this.#books.get(ev.symbol);
    if (!tracked) this.#books.set(ev.symbol, (tracked = new TrackedBook()));
    if (!ev.isSnapshot && !tracked.valid) return; // a delta without a base book cannot be replayed
    const n = (this.#sinceKeyframe.get(ev.symbol) ?? 0) + 1;
    const keyframe = !tracked.valid || n >= this.#keyframeEvery;
    let bids = ev.bids;
    let asks = ev.asks;
    if (ev.isSnapshot) {
      const d = tracked.replace(ev.bids, ev.asks);
      if (!keyframe) {
        if (d.bids.length === 0 && d.asks.length === 0) return; // unchanged book: nothing to record
        bids = d.bids;
        asks = d.asks;
      }
    } else {
      tracked.apply(ev.bids, ev.asks);
      if (keyframe) ({ bids, asks } = tracked.snapshot());
    }
    this.#sinceKeyframe.set(ev.symbol, keyframe ? 0 : n);
    this.stats.books++;
    if (keyframe) this.stats.snapshots++;
    this.#line({ ...ev, isSnapshot: keyframe, bids, asks });
  }

  #line(ev: RecordedEvent): void {
    this.stats.events++;
    this.emit(`${encodeEvent(ev)}\n`);
  }
}

/** A level without its order list. */
const aggregated = (l: BookLevel): BookLevel => ({ priceTicks: l.priceTicks, qty: l.qty });
/** An order-level level without its order ids. */
const withoutIds = (l: BookLevel): BookLevel => (l.orders === undefined ? aggregated(l) : { priceTicks: l.priceTicks, qty: l.qty, orders: l.orders });
/** True when every level of a frame carries order ids (an empty frame counts as having them). */
const hasIds = (bids: readonly BookLevel[], asks: readonly BookLevel[]): boolean => bids.every((l) => l.orderIds !== undefined) && asks.every((l) => l.orderIds !== undefined);

/** The gzip header's OS byte (RFC 1952: 3 = Unix). */
const GZIP_OS_UNIX = 3;

/**
 * Passes gzip output through with its header's OS byte set to Unix. zlib leaves the header's mtime
 * at 0 but stamps the OS it was built for (macOS builds write 19): pinned, the same events give the
 * same bytes on every platform (a seed's recording is a shareable dataset).
 */
export function pinGzipOs(): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let out = chunk;
      if (offset <= 9 && offset + chunk.length > 9 && chunk[9 - offset] !== GZIP_OS_UNIX) {
        out = Buffer.from(chunk);
        out[9 - offset] = GZIP_OS_UNIX;
      }
      offset += chunk.length;
      done(null, out);
    },
  });
}

/**
 * Opens a streaming gzip JSONL recording at `path` and writes the header.
 * Writes are buffered by the gzip stream; `close` resolves once the file is complete on disk.
 */
export function createRecordingWriter(path: string, opts: RecordingWriterOptions): RecordingSink {
  const target = opts.inPlace === true ? path : temporaryPath(path);
  const gzip: Gzip = createGzip({ level: 6 });
  const file: WriteStream = createWriteStream(target);
  const header = pinGzipOs();
  gzip.pipe(header).pipe(file);
  let failure: Error | null = null;
  const onError = (e: Error): void => {
    failure ??= e;
  };
  gzip.on('error', onError);
  header.on('error', onError);
  file.on('error', onError);
  gzip.write(`${JSON.stringify(recordingHeader(opts))}\n`);
  const encoder = new RecordingEncoder((line) => void gzip.write(line), opts.keyframeEvery, opts.bookLevel ?? 2, opts.orderIds ?? false);
  // A file that failed to open (missing folder, no permission) has closed already: waiting for
  // its 'close' would never end (the process exited 13 with no message).
  const closed = (): Promise<unknown> => (file.closed ? Promise.resolve() : once(file, 'close').catch(() => undefined));
  const removeTemporary = (): void => {
    if (target !== path) rmSync(target, { force: true });
  };
  return {
    write: (ev) => encoder.write(ev),
    gap: (s, from, to, reason) => encoder.gap(s, from, to, reason),
    stats: encoder.stats,
    symbols: new Set(opts.instruments.map((i) => i.symbol as string)),
    async close() {
      const done = closed();
      gzip.end();
      await done;
      if (failure) {
        removeTemporary();
        throw new MmError('FILE_NOT_FOUND', `cannot write recording ${path}: ${failure.message}`, { file: path }, { cause: failure });
      }
      if (target !== path) renameSync(target, path);
    },
    async abort() {
      // No gzip trailer is written: even an in-place file stays one that readers refuse.
      const done = closed();
      gzip.unpipe(header);
      header.unpipe(file);
      gzip.destroy();
      header.destroy();
      file.destroy();
      await done;
      removeTemporary();
    },
  };
}

/** A hidden name beside `path` (same folder, so the final rename is atomic on one file system). */
function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
}
