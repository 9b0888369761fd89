import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { MmError } from '../core/errors.ts';
import { cachedByStat } from './stat-cache.ts';

/** `sha256:<hex>` of a file's bytes, streamed (the event loop stays free). */
export async function sha256OfFile(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) h.update(chunk);
  return `sha256:${h.digest('hex')}`;
}

/**
 * A recording's content fingerprint (`sha256:<hex>` of the file's bytes): the same data names the
 * same fingerprint on every machine, whatever its path or URL. Cached by path, size and mtime (in
 * `cacheDir` too when given), so a large file is hashed once. Streams: the event loop stays free.
 * @throws MmError FILE_NOT_FOUND when the file cannot be read.
 */
export async function dataFingerprint(path: string, cacheDir: string | null = null): Promise<string> {
  try {
    return await cachedByStat('sha256', path, cacheDir, sha256OfFile);
  } catch (e) {
    throw new MmError('FILE_NOT_FOUND', `cannot read recording ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file: path });
  }
}
