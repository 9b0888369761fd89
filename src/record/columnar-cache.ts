import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ColumnarRecording, SideEvent } from './columnar-types.ts';
import { instrumentFromJson, instrumentToJson } from './instrument-json.ts';
import type { SessionEvent } from './format.ts';
import { decodeEvent, encodeEvent } from './line-codec.ts';

const MAGIC = 'MMBC';
const VERSION = 4; // 2: the head holds the session lines (round trips, execution reports); 3: L3 order columns; 4: order ids, trade conditions

/**
 * The cache key of a set of recordings: their absolute paths, sizes and modification times, so an
 * edited or replaced file is decoded again.
 */
export function columnarCacheKey(paths: readonly string[]): string {
  const parts = paths.map((p) => {
    const st = statSync(p);
    return [resolve(p), st.size, st.mtimeMs];
  });
  return createHash('sha1').update(JSON.stringify([VERSION, parts])).digest('hex');
}

const align8 = (n: number): number => (n + 7) & ~7;

/**
 * Writes a columnar recording as a binary sidecar: a small JSON head (headers, instruments, rare
 * events as recording lines) then the raw columns, 8-byte aligned. Reading it back skips JSON
 * parsing of every event; gzip JSONL stays the interchange format.
 */
export function writeColumnarCache(file: string, col: ColumnarRecording): void {
  const head = Buffer.from(
    JSON.stringify({
      headers: col.headers,
      instruments: col.instruments.map(instrumentToJson),
      length: col.length,
      levels: col.levels.length,
      orderStart: col.orderStart?.length ?? -1,
      orderQty: col.orderQty?.length ?? -1,
      orderId: col.orderId?.length ?? -1,
      objects: col.objects.map((o) => encodeEvent(o)),
      session: col.session.map((o) => encodeEvent(o)),
      minTick: Array.from(col.minTick),
      maxTick: Array.from(col.maxTick),
    }),
  );
  const arrays = [col.kind, col.sym, col.tsEvent, col.tsRecv, col.a, col.b, col.c, col.levels];
  if (col.orderStart && col.orderQty) arrays.push(col.orderStart, col.orderQty);
  if (col.orderStart && col.orderQty && col.orderId) arrays.push(col.orderId);
  const prefix = Buffer.alloc(align8(12 + head.length));
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(VERSION, 4);
  prefix.writeUInt32LE(head.length, 8);
  head.copy(prefix, 12);
  mkdirSync(resolve(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  // Each column is written from its own memory (no copy into one file-sized buffer: on a first
  // load that copy and its fresh pages cost a third of the decoding).
  const fd = openSync(tmp, 'w');
  try {
    writeAll(fd, prefix);
    const pad = Buffer.alloc(8);
    for (const a of arrays) {
      writeAll(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      if (align8(a.byteLength) > a.byteLength) writeAll(fd, pad.subarray(0, align8(a.byteLength) - a.byteLength));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file); // atomic: a concurrent reader sees the old file or the whole new one
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
}

/**
 * The whole file in one ArrayBuffer of its own (offset 0), so the 8-byte aligned columns can be
 * views into it rather than copies: loading a sidecar then holds the columns once, not twice.
 */
function readWhole(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.from(new ArrayBuffer(size));
    for (let off = 0; off < size; ) {
      const got = readSync(fd, buf, off, size - off, off);
      if (got === 0) return buf.subarray(0, off);
      off += got;
    }
    return buf;
  } finally {
    closeSync(fd);
  }
}

/** Reads a sidecar written by writeColumnarCache; null when absent, of another version, or damaged. */
export function readColumnarCache(file: string): ColumnarRecording | null {
  let buf: Buffer;
  try {
    buf = readWhole(file);
  } catch {
    return null;
  }
  try {
    if (buf.toString('latin1', 0, 4) !== MAGIC || buf.readUInt32LE(4) !== VERSION) return null;
    const headLen = buf.readUInt32LE(8);
    const head = JSON.parse(buf.toString('utf8', 12, 12 + headLen)) as {
      headers: ColumnarRecording['headers'];
      instruments: unknown[];
      length: number;
      levels: number;
      orderStart: number;
      orderQty: number;
      orderId?: number;
      objects: string[];
      session: string[];
      minTick: number[];
      maxTick: number[];
    };
    const n = head.length;
    let off = align8(12 + headLen);
    // Views into the file's buffer (offset 0, columns 8-byte aligned); a column past the end is damage.
    const take = <T>(bytes: number, make: (ab: ArrayBuffer, at: number) => T): T => {
      if (off + bytes > buf.length) throw new RangeError('truncated sidecar');
      const view = make(buf.buffer as ArrayBuffer, buf.byteOffset + off);
      off += align8(bytes);
      return view;
    };
    const kind = take(n, (ab, at) => new Uint8Array(ab, at, n));
    const sym = take(n * 2, (ab, at) => new Uint16Array(ab, at, n));
    const tsEvent = take(n * 8, (ab, at) => new Float64Array(ab, at, n));
    const tsRecv = take(n * 8, (ab, at) => new Float64Array(ab, at, n));
    const a = take(n * 8, (ab, at) => new Float64Array(ab, at, n));
    const b = take(n * 8, (ab, at) => new Float64Array(ab, at, n));
    const c = take(n * 4, (ab, at) => new Int32Array(ab, at, n));
    const levels = take(head.levels * 8, (ab, at) => new Float64Array(ab, at, head.levels));
    const l3 = head.orderStart >= 0 && head.orderQty >= 0;
    const orderStart = l3 ? take(head.orderStart * 8, (ab, at) => new Float64Array(ab, at, head.orderStart)) : null;
    const orderQty = l3 ? take(head.orderQty * 8, (ab, at) => new Float64Array(ab, at, head.orderQty)) : null;
    const orderId = l3 && (head.orderId ?? -1) >= 0 ? take(head.orderId! * 8, (ab, at) => new Float64Array(ab, at, head.orderId!)) : null;
    const instruments = head.instruments.map((i, k) => instrumentFromJson(i, `${file}: instruments[${k}]`));
    const symbols = new Set(instruments.map((i) => i.symbol as string));
    const objects = head.objects.map((line) => decodeEvent(JSON.parse(line), symbols) as SideEvent);
    const session = head.session.map((line) => decodeEvent(JSON.parse(line), symbols) as SessionEvent);
    return { headers: head.headers, instruments, length: n, kind, sym, tsEvent, tsRecv, a, b, c, levels, objects, session, ...(orderStart && orderQty ? { orderStart, orderQty } : {}), ...(orderId ? { orderId } : {}), minTick: Float64Array.from(head.minTick), maxTick: Float64Array.from(head.maxTick) };
  } catch {
    return null;
  }
}

/** Where the sidecar of `paths` lives inside `cacheDir`. */
export const columnarCacheFile = (cacheDir: string, paths: readonly string[]): string => join(cacheDir, `${columnarCacheKey(paths)}.mmbc`);
