import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { MmError } from '../core/errors.ts';

const inFlight = new Map<string, Promise<string>>();

/** True when `ref` is a URL (file://, http://, https://) rather than a local path. */
export const isUrlRef = (ref: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(ref);

/**
 * The form of a data reference stored in a job: URLs as given, local paths made absolute (a
 * relative path means nothing to a worker in another directory).
 */
export const normalizeDataRef = (ref: string): string => (isUrlRef(ref) ? ref : resolve(ref));

/**
 * Turns a data reference into a local file: a path as is, a file:// URL to its path, an http(s)://
 * URL downloaded once into `cacheDir/data/<sha256(url)>/<name>` (reused afterwards; concurrent
 * callers in one process share one download; the file appears atomically).
 * @throws MmError USAGE (unsupported scheme), FILE_NOT_FOUND (missing file, HTTP 404/410),
 *   NETWORK_ERROR (unreachable host, other HTTP errors), each naming the reference.
 */
export async function resolveDataRef(ref: string, cacheDir: string): Promise<string> {
  if (!isUrlRef(ref)) {
    const p = resolve(ref);
    if (!existsSync(p)) throw new MmError('FILE_NOT_FOUND', `recording ${p} does not exist`, { file: p });
    return p;
  }
  const url = new URL(ref);
  if (url.protocol === 'file:') return resolveDataRef(fileURLToPath(url), cacheDir);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new MmError('USAGE', `data ${ref}: unsupported scheme ${url.protocol} (use a path, file://, http:// or https://)`);
  const key = createHash('sha256').update(ref).digest('hex').slice(0, 32);
  const name = basename(decodeURIComponent(url.pathname)) || 'data.jsonl.gz';
  const dir = join(cacheDir, 'data', key);
  const target = join(dir, name);
  if (existsSync(target)) return target;
  const pending = inFlight.get(target);
  if (pending) return pending;
  const p = download(ref, dir, target).finally(() => inFlight.delete(target));
  inFlight.set(target, p);
  return p;
}

async function download(ref: string, dir: string, target: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  let res: Response;
  try {
    res = await fetch(ref);
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new MmError('NETWORK_ERROR', `cannot download ${ref}: ${cause?.code ?? cause?.message ?? (e as Error).message}`, { url: ref });
  }
  if (!res.ok || res.body === null) {
    await res.body?.cancel();
    throw new MmError(res.status === 404 || res.status === 410 ? 'FILE_NOT_FOUND' : 'NETWORK_ERROR', `cannot download ${ref}: HTTP ${res.status}`, { url: ref, status: res.status });
  }
  const tmp = `${target}.${process.pid}.${Math.floor(Math.random() * 1e9)}.part`;
  try {
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(tmp));
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new MmError('NETWORK_ERROR', `download of ${ref} broke off: ${(e as Error).message}`, { url: ref });
  }
  return target;
}
