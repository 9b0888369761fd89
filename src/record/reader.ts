import { createReadStream, existsSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { MmError } from '../core/errors.ts';
import type { Instrument } from '../domain/instrument.ts';
import { READABLE_VERSIONS, RECORDING_FORMAT, type RecordedEvent, type RecordingHeader } from './format.ts';
import { instrumentFromJson } from './instrument-json.ts';
import { decodeEvent } from './line-codec.ts';

/** An opened recording: the header, its instruments, and a one-shot stream of events. */
export interface OpenedRecording {
  readonly path: string;
  readonly header: RecordingHeader;
  readonly instruments: readonly Instrument[];
  /** Streams the events in file order with their 1-based line numbers. Call once (or `close`). */
  events(): AsyncGenerator<RecordedLine, void, undefined>;
  /**
   * The same events as `events()`, a chunk of the file at a time (one promise turn per chunk, not
   * per line: the bulk loader's path). Call once, instead of `events()`.
   */
  eventBatches(): AsyncGenerator<RecordedLine[], void, undefined>;
  /** Releases the file when the events are not (fully) read. */
  close(): Promise<void>;
}

/** A recording read fully into memory. */
export interface LoadedRecording {
  readonly path: string;
  readonly header: RecordingHeader;
  readonly instruments: readonly Instrument[];
  readonly events: readonly RecordedEvent[];
}

/** RECORDING_INVALID naming the file and line (the reader and the bulk loader word errors alike). */
export const recordingInvalid = (path: string, line: number, msg: string): MmError =>
  new MmError('RECORDING_INVALID', `${path}:${line}: ${msg}`, { file: path, line });

/**
 * Opens a gzip JSONL recording (plain JSONL is accepted too, detected by the gzip magic bytes) and
 * validates its header.
 * @throws MmError FILE_NOT_FOUND, or RECORDING_INVALID naming the file and line.
 */
export async function openRecording(path: string): Promise<OpenedRecording> {
  if (!existsSync(path)) throw new MmError('FILE_NOT_FOUND', `recording ${path} does not exist`, { file: path });
  const batches = lineBatches(path);
  let first: IteratorResult<string[]>;
  try {
    first = await batches.next();
  } catch (e) {
    throw recordingInvalid(path, 1, `unreadable data (${e instanceof Error ? e.message : String(e)})`);
  }
  if (first.done) throw recordingInvalid(path, 1, 'empty file: expected a header line');
  let header: RecordingHeader;
  let instruments: Instrument[];
  try {
    header = parseHeader(path, first.value[0]!);
    instruments = header.symbols.map((s) => instrumentFromJson(header.instruments[s], `${path}:1: instruments.${s}`));
  } catch (e) {
    await batches.return();
    throw e;
  }
  const { check } = lineChecker(path, header);
  let used = false;
  // The lines of the first batch after the header: decoded before the next batch is read.
  const firstRest = first.value.slice(1);
  async function* eventBatches(): AsyncGenerator<RecordedLine[], void, undefined> {
    if (used) throw new MmError('INVARIANT_BROKEN', `events() of ${path} can be iterated once`);
    used = true;
    let line = 1;
    let pending: string[] | null = firstRest;
    for (;;) {
      let lines: string[];
      if (pending !== null) {
        lines = pending;
        pending = null;
      } else {
        let r: IteratorResult<string[]>;
        try {
          r = await batches.next();
        } catch (e) {
          throw recordingInvalid(path, line + 1, `unreadable data (${e instanceof Error ? e.message : String(e)})`);
        }
        if (r.done) return;
        lines = r.value;
      }
      const out: RecordedLine[] = [];
      for (let i = 0; i < lines.length; i++) {
        line++;
        const text = lines[i]!;
        if (text.length === 0) continue;
        out.push({ line, event: check(line, text) });
      }
      if (out.length > 0) yield out;
    }
  }
  async function* events(): AsyncGenerator<RecordedLine, void, undefined> {
    for await (const batch of eventBatches()) for (const l of batch) yield l;
  }
  return { path, header, instruments, events, eventBatches, close: async () => void (await batches.return()) };
}

/** One decoded event line with its 1-based line number. */
export interface RecordedLine {
  readonly line: number;
  readonly event: RecordedEvent;
}

/** The per-line decoding of one file and the checks that span its lines. */
export interface LineChecker {
  /** Decodes and checks one line. @throws MmError RECORDING_INVALID naming the file and line. */
  check(line: number, text: string): RecordedEvent;
  /**
   * For a book or trade line the byte scanner decoded (its shape already checked): applies the
   * checks that span lines (receive time order, a snapshot before a delta) and advances their
   * state as `check` would; false, with no state changed, when `check` must take the line (it
   * throws the error).
   */
  admit(symbol: string, tsRecv: number, book: 'trade' | 'snapshot' | 'delta'): boolean;
}

/**
 * The per-line decoding and the checks that span lines (receive time order, a snapshot before a
 * delta, order lists on order-level recordings): synchronous, so a batch of lines is decoded
 * without a promise turn per line.
 */
export function lineChecker(path: string, header: RecordingHeader): LineChecker {
  const symbols = new Set(header.symbols);
  const l3 = header.book_level === 3;
  const ids = header.order_ids === true;
  let lastRecv = -Infinity;
  const haveBook = new Set<string>();
  const check = (line: number, text: string): RecordedEvent => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw recordingInvalid(path, line, `not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    let event: RecordedEvent;
    try {
      event = decodeEvent(parsed, symbols);
    } catch (e) {
      throw recordingInvalid(path, line, e instanceof Error ? e.message : String(e));
    }
    if (event.tsRecv < lastRecv) throw recordingInvalid(path, line, `receive time r=${event.tsRecv} goes back (previous ${lastRecv})`);
    lastRecv = event.tsRecv;
    if (event.type === 'book') {
      if (l3) {
        const bare = event.bids.find((l) => l.orders === undefined) ?? event.asks.find((l) => l.orders === undefined);
        if (bare) throw recordingInvalid(path, line, `order-level recording: level ${bare.priceTicks} has no order list ([priceTicks, qty, [q1, ...]])`);
        const odd = event.bids.find((l) => (l.orderIds !== undefined) !== ids) ?? event.asks.find((l) => (l.orderIds !== undefined) !== ids);
        if (odd) throw recordingInvalid(path, line, ids ? `order-level recording with order ids: level ${odd.priceTicks} has no ids ([priceTicks, qty, [q1, ...], [id1, ...]])` : `level ${odd.priceTicks} carries order ids, but the header does not say order_ids (version 5)`);
      } else if (event.level === 3) throw recordingInvalid(path, line, 'a level carries an order list, but the header does not say book_level 3');
      if (event.isSnapshot) haveBook.add(event.symbol);
      else if (!haveBook.has(event.symbol)) throw recordingInvalid(path, line, `book delta for ${event.symbol} before any snapshot`);
    } else if (event.type === 'gap') {
      if (event.symbol === null) haveBook.clear();
      else haveBook.delete(event.symbol);
    }
    return event;
  };
  const admit = (symbol: string, tsRecv: number, book: 'trade' | 'snapshot' | 'delta'): boolean => {
    if (tsRecv < lastRecv || (book === 'delta' && !haveBook.has(symbol))) return false;
    lastRecv = tsRecv;
    if (book === 'snapshot') haveBook.add(symbol);
    return true;
  };
  return { check, admit };
}

/**
 * Reads a whole recording into memory.
 * @throws MmError FILE_NOT_FOUND or RECORDING_INVALID (file and line named).
 */
export async function readRecording(path: string): Promise<LoadedRecording> {
  const rec = await openRecording(path);
  const events: RecordedEvent[] = [];
  for await (const { event } of rec.events()) events.push(event);
  return { path, header: rec.header, instruments: rec.instruments, events };
}

export function parseHeader(path: string, text: string): RecordingHeader {
  let h: unknown;
  try {
    h = JSON.parse(text);
  } catch {
    throw recordingInvalid(path, 1, 'header is not JSON (is this an mmbot recording?)');
  }
  if (typeof h !== 'object' || h === null) throw recordingInvalid(path, 1, 'header must be a JSON object');
  const o = h as Record<string, unknown>;
  if (o['format'] !== RECORDING_FORMAT) throw recordingInvalid(path, 1, `format: expected "${RECORDING_FORMAT}", got ${JSON.stringify(o['format'])}`);
  const version = o['version'];
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) throw recordingInvalid(path, 1, `version: this mmbot reads versions ${READABLE_VERSIONS.join(', ')}, got ${JSON.stringify(version)}`);
  const symbols = o['symbols'];
  if (!Array.isArray(symbols) || symbols.length === 0 || !symbols.every((s) => typeof s === 'string'))
    throw recordingInvalid(path, 1, 'symbols: expected a non-empty array of strings');
  const instruments = o['instruments'];
  if (typeof instruments !== 'object' || instruments === null) throw recordingInvalid(path, 1, 'instruments: expected an object keyed by symbol');
  for (const s of symbols as string[]) if (!(s in instruments)) throw recordingInvalid(path, 1, `instruments: missing ${s}`);
  if (typeof o['started_at'] !== 'number') throw recordingInvalid(path, 1, 'started_at: expected epoch ms');
  const bookLevel = o['book_level'];
  if (bookLevel !== undefined && bookLevel !== 3) throw recordingInvalid(path, 1, `book_level: expected 3 (order-level books) or absent, got ${JSON.stringify(bookLevel)}`);
  if (bookLevel === 3 && version < 4) throw recordingInvalid(path, 1, `book_level 3 (order-level books) needs version 4 or later, got version ${version}`);
  const orderIds = o['order_ids'];
  if (orderIds !== undefined && (orderIds !== true || bookLevel !== 3)) throw recordingInvalid(path, 1, `order_ids: expected true on an order-level recording (book_level 3) or absent, got ${JSON.stringify(orderIds)}`);
  if (orderIds === true && version < 5) throw recordingInvalid(path, 1, `order_ids (order-level books with ids) needs version 5 or later, got version ${version}`);
  if (version === 5 && orderIds !== true) throw recordingInvalid(path, 1, 'version 5 is an order-level recording with order ids: the header must say "book_level":3,"order_ids":true');
  return {
    format: RECORDING_FORMAT,
    version: version as RecordingHeader['version'],
    symbols: symbols as string[],
    instruments: instruments as RecordingHeader['instruments'],
    started_at: o['started_at'],
    source: typeof o['source'] === 'string' ? o['source'] : '',
    ...(o['fees'] !== undefined ? { fees: parseFees(path, o['fees'], symbols as string[]) } : {}),
    ...(bookLevel === 3 ? { book_level: 3 as const } : {}),
    ...(orderIds === true ? { order_ids: true as const } : {}),
  };
}

function parseFees(path: string, raw: unknown, symbols: readonly string[]): NonNullable<RecordingHeader['fees']> {
  if (typeof raw !== 'object' || raw === null) throw recordingInvalid(path, 1, 'fees: expected an object keyed by symbol');
  const out: Record<string, { maker: string; taker: string }> = {};
  for (const [s, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!symbols.includes(s)) throw recordingInvalid(path, 1, `fees.${s}: not one of the header's symbols`);
    const f = v as Record<string, unknown> | null;
    const rate = (k: 'maker' | 'taker'): string => {
      const x = f?.[k];
      if (typeof x !== 'string' || !/^-?[0-9]+(\.[0-9]+)?$/.test(x)) throw recordingInvalid(path, 1, `fees.${s}.${k}: expected a decimal string, got ${JSON.stringify(x)}`);
      return x;
    };
    out[s] = { maker: rate('maker'), taker: rate('taker') };
  }
  return out;
}

/**
 * The line reader reads and gunzips in 64 KiB chunks (gunzip defaults to 16 KiB); measured: 1 MiB
 * chunks decode slower there (large strings to split). The bulk loader, which splits bytes, passes
 * 256 KiB: a third less gunzip CPU (fewer calls into zlib, fewer buffers).
 */
const CHUNK_BYTES = 1 << 16;

/**
 * The file's bytes, gunzipped when it is a `.gz` (plain `.jsonl`, hand-written test data, is read
 * as is), in chunks of at most `chunkBytes`. zlib's streaming gunzip runs in libuv's thread pool:
 * the next chunk is inflated while the caller decodes this one.
 */
export async function* recordingBytes(path: string, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer, void, undefined> {
  const raw = createReadStream(path, { highWaterMark: chunkBytes });
  // Iterating the stream directly (not readline) makes gzip corruption surface as an exception here.
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip({ chunkSize: chunkBytes })) : raw;
  raw.on('error', (e) => input.destroy(e));
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) yield chunk;
  } finally {
    input.destroy();
    raw.destroy();
  }
}

/** The file's lines, a chunk's complete lines at a time (never an empty batch). */
async function* lineBatches(path: string): AsyncGenerator<string[], void, undefined> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of recordingBytes(path)) {
    const text = rest + decoder.decode(chunk, { stream: true });
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      lines.push(text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
    if (lines.length > 0) yield lines;
  }
  rest += decoder.decode();
  if (rest.length > 0) yield [rest];
}
