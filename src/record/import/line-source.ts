import { createReadStream, statSync } from 'node:fs';
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
  /** Bytes of the file read so far (for a progress bar). */
  bytesRead(): number;
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
  return {
    path,
    sizeBytes,
    bytesRead: () => file.bytesRead,
    async *[Symbol.asyncIterator]() {
      let line = 0;
      try {
        for await (const t of createInterface({ input: text, crlfDelay: Infinity })) yield { text: t, line: ++line };
      } catch (e) {
        throw new MmError('RECORDING_INVALID', `${path}: read failed after line ${line}: ${(e as Error).message}`, { path, line });
      }
    },
  };
}
