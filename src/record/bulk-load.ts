import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { MmError } from '../core/errors.ts';
import { instrumentFromJson } from './instrument-json.ts';
import { LineScanner, symbolBytes, type LevelShape } from './line-scan.ts';
import { fileChunks } from './gunzip-chunks.ts';
import { lineChecker, parseHeader, recordingInvalid, type LineChecker } from './reader.ts';
import type { RecordedEvent, RecordingHeader } from './format.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { ScannedLine } from './line-scan.ts';

/**
 * What the bulk loader writes into: `ColumnarBuilder` (columnar.ts) is the one implementation. Named
 * here, not imported, so the loader and the builder that calls it do not import each other.
 */
export interface ColumnSink {
  addHeader(header: RecordingHeader, instruments: readonly Instrument[]): void;
  symbolIndex(symbol: string): number;
  pushScanned(line: ScannedLine, column: number): void;
  push(event: RecordedEvent): void;
}

/** Read and gunzip chunk size. */
const BULK_CHUNK_BYTES = 1 << 18;

/**
 * Decodes recording files into a columnar builder: the bulk loader behind `loadColumnar`. Lines are
 * split on bytes; book and trade lines in the writer's own shape go through the byte scanner
 * (`line-scan.ts`) straight into the columns, every other line through the reader's full decoder
 * (`lineChecker`), which also owns the checks that span lines. The result, and every error (file
 * and line named), is what `openRecording(...).events()` into `ColumnarBuilder.push` gives.
 * Several files are concatenated with a gap marker between; they must be in time order.
 * @throws MmError FILE_NOT_FOUND or RECORDING_INVALID naming the file and line.
 */
export async function decodeFiles(paths: readonly string[], b: ColumnSink): Promise<DecodeCounts> {
  const counts = { scannedLines: 0, decodedLines: 0 };
  let lastRecv = -Infinity;
  for (const path of paths) lastRecv = await decodeFile(path, b, lastRecv, counts);
  return counts;
}

/** How many event lines the byte scanner took and how many the full decoder. */
export interface DecodeCounts {
  scannedLines: number;
  decodedLines: number;
}

/** One file after `lastRecvBefore`, the previous file's last receive time; returns this file's last. */
async function decodeFile(path: string, b: ColumnSink, lastRecvBefore: number, counts: DecodeCounts): Promise<number> {
  if (!existsSync(path)) throw new MmError('FILE_NOT_FOUND', `recording ${path} does not exist`, { file: path });
  // The stream reader's decoder dropped a byte-order mark at the start of the file only.
  const headerText = new TextDecoder('utf-8');
  const lineText = new TextDecoder('utf-8', { ignoreBOM: true });
  let lastRecv = lastRecvBefore;
  let line = 0;
  let checker: LineChecker | null = null;
  let scanner: LineScanner | null = null;
  let symbols: readonly string[] = [];
  let columnOf: number[] = [];
  let firstEvent = true;

  const onHeader = (text: string): void => {
    const header = parseHeader(path, text);
    const instruments = header.symbols.map((s) => instrumentFromJson(header.instruments[s], `${path}:1: instruments.${s}`));
    b.addHeader(header, instruments);
    checker = lineChecker(path, header);
    const shape: LevelShape = header.book_level !== 3 ? 2 : header.order_ids === true ? 4 : 3;
    scanner = new LineScanner(symbolBytes(header.symbols), shape);
    symbols = header.symbols;
    columnOf = header.symbols.map((s) => b.symbolIndex(s));
  };

  /** Line `line` is buf[start, end) (no line end). */
  const onLine = (buf: Buffer, start: number, end: number): void => {
    line++;
    if (line === 1) return onHeader(headerText.decode(buf.subarray(start, end)));
    if (end === start) return;
    const c = checker!;
    if (!firstEvent) {
      const sc = scanner!;
      if (sc.scan(buf, start, end)) {
        const l = sc.out;
        if (c.admit(symbols[l.symbol]!, l.tsRecv, l.kind === 2 ? 'trade' : l.isSnapshot ? 'snapshot' : 'delta')) {
          b.pushScanned(l, columnOf[l.symbol]!);
          lastRecv = l.tsRecv;
          counts.scannedLines++;
          return;
        }
      }
    }
    counts.decodedLines++;
    const event = c.check(line, lineText.decode(buf.subarray(start, end)));
    if (firstEvent && lastRecv > -Infinity) b.push({ type: 'gap', symbol: null, tsEvent: lastRecv, tsRecv: Math.max(lastRecv, event.tsRecv), reason: 'file boundary' });
    firstEvent = false;
    // Within the file the checker holds receive times in order, so only the first event can go back past the previous file.
    if (event.tsRecv < lastRecv)
      throw new MmError('RECORDING_INVALID', `${path}:${line}: receive time ${event.tsRecv} is before the previous file's last event (${lastRecv}); pass recordings in time order`, { file: path, line });
    lastRecv = event.tsRecv;
    b.push(event);
  };

  const chunks = fileChunks(path, BULK_CHUNK_BYTES);
  /** The start of a line cut by the end of the previous chunk. */
  let carry: Buffer | null = null;
  try {
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await chunks.next();
      } catch (e) {
        throw recordingInvalid(path, line + 1, `unreadable data (${e instanceof Error ? e.message : String(e)})`);
      }
      if (r.done) break;
      const chunk = r.value;
      let start = 0;
      let nl = chunk.indexOf(10);
      if (carry !== null) {
        if (nl < 0) {
          carry = Buffer.concat([carry, chunk]); // a copy, as below
          continue;
        }
        const whole = Buffer.concat([carry, chunk.subarray(0, nl)]);
        carry = null;
        onLine(whole, 0, whole.length > 0 && whole[whole.length - 1] === 13 ? whole.length - 1 : whole.length);
        start = nl + 1;
        nl = chunk.indexOf(10, start);
      }
      while (nl >= 0) {
        onLine(chunk, start, nl > start && chunk[nl - 1] === 13 ? nl - 1 : nl);
        start = nl + 1;
        nl = chunk.indexOf(10, start);
      }
      // A copy: the chunk's buffer is reused for the next chunk.
      if (start < chunk.length) carry = Buffer.from(chunk.subarray(start));
    }
    // A last line without a line end keeps a trailing CR, as the stream reader did.
    if (carry !== null) {
      if (line === 0) {
        const text = headerText.decode(carry);
        if (text.length > 0) {
          line++;
          onHeader(text);
        }
      } else onLine(carry, 0, carry.length);
    }
  } finally {
    await chunks.return();
  }
  if (line === 0) throw recordingInvalid(path, 1, 'empty file: expected a header line');
  return lastRecv;
}

/** Text bytes per row and per book level that over-estimate rows and levels on typical recordings (measured: ~100 bytes a line, 12 a level). */
const LINE_BYTES_GUESS = 64;
const LEVEL_BYTES_GUESS = 10;
/** 16 M rows (600 MB of columns): beyond, the builder grows as it goes. */
const MAX_ROWS_GUESS = 1 << 24;

/**
 * Room for the rows and book levels of `paths`, sized from their text size (a gzip file's trailer
 * holds it, modulo 4 GiB) so the builder rarely grows: each growth copies every column, and on a
 * first load the fresh pages and the garbage collections of doubling arrays cost as much as the
 * decoding. An over-estimate costs address space only (zeroed pages are not touched), an
 * under-estimate the growths it was meant to save.
 */
export function capacityFor(paths: readonly string[]): { rows: number; levels: number } {
  let bytes = 0;
  for (const p of paths) bytes += textBytes(p);
  return { rows: Math.max(1 << 16, Math.min(MAX_ROWS_GUESS, Math.ceil(bytes / LINE_BYTES_GUESS))), levels: Math.max(1 << 17, Math.min(2 * MAX_ROWS_GUESS, Math.ceil(bytes / LEVEL_BYTES_GUESS))) };
}

/** The size of a recording's text: a `.gz` file's ISIZE trailer, else the file's size; 0 when unreadable. */
function textBytes(path: string): number {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (!path.endsWith('.gz')) return size;
    if (size < 18) return 0;
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, size - 4);
    return tail.readUInt32LE(0);
  } catch {
    return 0;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
