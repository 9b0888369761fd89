import { createReadStream } from 'node:fs';
import { MmError } from '../../core/errors.ts';
import { inputFileSize } from './line-source.ts';

/** A DBN file's bytes as a stream of chunks, plus progress. */
export interface ByteSource extends AsyncIterable<Buffer> {
  readonly path: string;
  /** Size on disk in bytes (compressed size for .zst). */
  readonly sizeBytes: number;
  /** Bytes of the file read so far. */
  bytesRead(): number;
}

/** Decompresses a zstd stream chunk by chunk (constant memory). */
export type ZstdStream = (compressed: AsyncIterable<Buffer>) => AsyncIterable<Buffer>;

/** The npm package (pure JavaScript, no native build) `.zst` input is decoded with. */
export const ZSTD_PACKAGE = 'fzstd';

/** fzstd's streaming decompressor, as much of it as this file uses. */
interface FzstdModule {
  Decompress: new (ondata: (chunk: Uint8Array, final: boolean) => void) => { push(chunk: Uint8Array, final?: boolean): void };
}

/**
 * Loads the zstd stream decoder (ZSTD_PACKAGE), imported by name at run time so that plain `.dbn`
 * files need no zstd package at all.
 * @throws MmError USAGE naming the package when it is not installed.
 */
export async function loadZstd(): Promise<ZstdStream> {
  let mod: FzstdModule;
  try {
    const name: string = ZSTD_PACKAGE;
    mod = (await import(name)) as FzstdModule;
  } catch {
    throw new MmError('USAGE', `a .zst DBN file needs the npm package ${ZSTD_PACKAGE} (pure JavaScript zstd), which is not installed; install it or decompress first (zstd -d <file>.dbn.zst)`);
  }
  return async function* (compressed) {
    const out: Buffer[] = [];
    const d = new mod.Decompress((chunk) => void out.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
    for await (const c of compressed) {
      d.push(c);
      while (out.length > 0) yield out.shift()!;
    }
    d.push(new Uint8Array(0), true);
    while (out.length > 0) yield out.shift()!;
  };
}

/**
 * Opens a DBN file for streaming (`.zst`: decompressed on the fly through `zstd`, default the
 * ZSTD_PACKAGE decoder).
 * @throws MmError FILE_NOT_FOUND naming the path; USAGE for .zst without a zstd decoder.
 */
export async function openDbnFile(path: string, zstd?: ZstdStream): Promise<ByteSource> {
  const sizeBytes = inputFileSize(path);
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const raw = file as AsyncIterable<Buffer>;
  const bytes = path.endsWith('.zst') ? (zstd ?? (await loadZstd()))(raw) : raw;
  return { path, sizeBytes, bytesRead: () => file.bytesRead, [Symbol.asyncIterator]: () => bytes[Symbol.asyncIterator]() };
}
