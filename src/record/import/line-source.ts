import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { MmError } from '../../core/errors.ts';

/** One line of a text file with its 1-based line number. */
export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/** A file read line by line in constant memory; `.gz` files are gunzipped on the fly. */
export interface LineSource extends AsyncIterable<NumberedLine> {
  readonly path: string;
  /** Size on disk in bytes (compressed size for .gz). */
  readonly sizeBytes: number;
  /** Bytes of the file read so far from disk, read-ahead included (compressed for .gz). */
  bytesRead(): number;
  /** Text bytes the file holds: its size, or for .gz the uncompressed size its trailer states. */
  readonly contentBytes: number;
  /** Text bytes of the lines handed out so far (what a progress bar should count: no read-ahead). */
  consumedBytes(): number;
}

/**
 * The uncompressed size a gzip file's trailer states (ISIZE, the last 4 bytes: the size mod 2^32),
 * or null when it cannot be trusted (unreadable, or smaller than the compressed file, i.e. wrapped).
 */
export function gzipContentBytes(path: string, compressedBytes: number): number | null {
  if (compressedBytes < 18) return null;
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, compressedBytes - 4);
    const isize = tail.readUInt32LE(0);
    return isize >= compressedBytes ? isize : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * The size of an input file in bytes (for progress).
 * @throws MmError FILE_NOT_FOUND naming the path when it cannot be read.
 */
export function inputFileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    throw new MmError('FILE_NOT_FOUND', `cannot read ${path}`, { path });
  }
}

/**
 * Opens `path` for streaming line by line.
 * @throws MmError FILE_NOT_FOUND naming the path when it cannot be read.
 */
export function openLines(path: string): LineSource {
  const sizeBytes = inputFileSize(path);
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const text = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  file.on('error', (e) => text.destroy(e));
  // The disk read runs up to a megabyte ahead of the lines (a whole small .gz file at once), so
  // progress counts the lines' own bytes (ASCII CSV: a character is a byte) against the content size.
  const contentBytes = path.endsWith('.gz') ? (gzipContentBytes(path, sizeBytes) ?? sizeBytes * 8) : sizeBytes;
  let consumed = 0;
  return {
    path,
    sizeBytes,
    contentBytes,
    bytesRead: () => file.bytesRead,
    consumedBytes: () => consumed,
    async *[Symbol.asyncIterator]() {
      let line = 0;
      try {
        for await (const t of createInterface({ input: text, crlfDelay: Infinity })) {
          consumed += t.length + 1;
          yield { text: t, line: ++line };
        }
      } catch (e) {
        throw new MmError('RECORDING_INVALID', `${path}: read failed after line ${line}: ${(e as Error).message}`, { path, line });
      }
    },
  };
}
