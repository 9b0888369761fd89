import { existsSync } from 'node:fs';
import { MmError } from '../core/errors.ts';
import type { ColumnarBuilder } from './columnar.ts';
import { instrumentFromJson } from './instrument-json.ts';
import { LineScanner, symbolBytes, type LevelShape } from './line-scan.ts';
import { invalid, lineChecker, parseHeader, recordingBytes, type LineChecker } from './reader.ts';

/** Read and gunzip chunk size: measured, 256 KiB takes a third less gunzip CPU than 64 KiB, 1 MiB no less. */
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
export async function decodeFiles(paths: readonly string[], b: ColumnarBuilder): Promise<void> {
  let lastRecv = -Infinity;
  for (const path of paths) lastRecv = await decodeFile(path, b, lastRecv);
}

/** One file after `lastRecv`, the previous file's last receive time; returns this file's last. */
async function decodeFile(path: string, b: ColumnarBuilder, lastRecvBefore: number): Promise<number> {
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
          return;
        }
      }
    }
    const event = c.check(line, lineText.decode(buf.subarray(start, end)));
    if (firstEvent && lastRecv > -Infinity) b.push({ type: 'gap', symbol: null, tsEvent: lastRecv, tsRecv: Math.max(lastRecv, event.tsRecv), reason: 'file boundary' });
    firstEvent = false;
    // Within the file the checker holds receive times in order, so only the first event can go back past the previous file.
    if (event.tsRecv < lastRecv)
      throw new MmError('RECORDING_INVALID', `${path}:${line}: receive time ${event.tsRecv} is before the previous file's last event (${lastRecv}); pass recordings in time order`, { file: path, line });
    lastRecv = event.tsRecv;
    b.push(event);
  };

  const chunks = recordingBytes(path, BULK_CHUNK_BYTES);
  /** The start of a line cut by the end of the previous chunk. */
  let carry: Buffer | null = null;
  try {
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await chunks.next();
      } catch (e) {
        throw invalid(path, line + 1, `unreadable data (${e instanceof Error ? e.message : String(e)})`);
      }
      if (r.done) break;
      const chunk = r.value;
      let start = 0;
      let nl = chunk.indexOf(10);
      if (carry !== null) {
        if (nl < 0) {
          carry = Buffer.concat([carry, chunk]);
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
  if (line === 0) throw invalid(path, 1, 'empty file: expected a header line');
  return lastRecv;
}
