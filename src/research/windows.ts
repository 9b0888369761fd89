import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { MmError } from '../core/errors.ts';
import { RECORDING_FORMAT } from '../record/format.ts';
import { cachedByStat } from './stat-cache.ts';

/** A slice of the data a job replays: receive times in [startMs, endMs); null = the data's own start / end. */
export interface DataWindow {
  readonly id: string;
  readonly startMs: number | null;
  readonly endMs: number | null;
}

/** The receive-time span of a set of recordings, epoch ms (first and last event). */
export interface DataSpan {
  readonly startMs: number;
  readonly endMs: number;
}

/** The whole data as one window (`all`). */
export const WHOLE_DATA: DataWindow = Object.freeze({ id: 'all', startMs: null, endMs: null });

const receiveTime = (path: string, line: string, where: string): number => {
  let r: unknown;
  try {
    r = (JSON.parse(line) as { r?: unknown }).r;
  } catch {
    throw new MmError('RECORDING_INVALID', `${path}: ${where} event line is not JSON`, { file: path });
  }
  if (typeof r !== 'number' || !Number.isFinite(r)) throw new MmError('RECORDING_INVALID', `${path}: ${where} event has no receive time "r"`, { file: path });
  return r;
};

/** Line 1 must be a recording header: anything else is not a recording at all (say so, not "no events"). */
function checkHeader(path: string, line: string): void {
  let format: unknown;
  try {
    format = (JSON.parse(line) as { format?: unknown }).format;
  } catch {
    format = undefined;
  }
  if (format !== RECORDING_FORMAT) throw new MmError('RECORDING_INVALID', `${path}:1: not an mmbot recording (line 1 must be its header, {"format":"mmbot-recording",...}; import other data with mmbot import)`, { file: path, line: 1 });
}

/** Reads one file's first and last receive times, parsing only those two lines' JSON (and the header's). */
async function fileSpan(path: string): Promise<string> {
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => input.destroy(e));
  const decoder = new StringDecoder('utf8');
  let lineNo = 0; // non-empty lines seen; line 1 is the header
  let first: string | null = null;
  let last: string | null = null;
  let rest = '';
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      const text = rest + decoder.write(chunk);
      let start = 0;
      let lastStart = -1;
      let lastEnd = -1;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        if (nl > start && !(nl === start + 1 && text.charCodeAt(start) === 13)) {
          lineNo++;
          if (lineNo === 1) checkHeader(path, text.slice(start, nl));
          if (lineNo === 2) first = text.slice(start, nl);
          lastStart = start;
          lastEnd = nl;
        }
        start = nl + 1;
      }
      if (lastEnd >= 0 && lineNo >= 2) last = text.slice(lastStart, lastEnd); // one slice per chunk
      rest = text.slice(start);
    }
  } catch (e) {
    throw new MmError('RECORDING_INVALID', `${path}: unreadable (${(e as Error).message})`, { file: path });
  }
  rest += decoder.end();
  if (rest.trim().length > 0) {
    lineNo++;
    if (lineNo === 1) checkHeader(path, rest);
    if (lineNo === 2) first = rest;
    if (lineNo >= 2) last = rest;
  }
  if (first === null || last === null) throw new MmError('RECORDING_INVALID', `${path}: no events after the header`, { file: path });
  return JSON.stringify([receiveTime(path, first, 'first'), receiveTime(path, last, 'last')]);
}

/**
 * The receive-time span of recordings (first event of the earliest file to last event of the
 * latest), read by streaming each file once without decoding events, and cached by path, size and
 * mtime (in `cacheDir` too when given).
 * @throws MmError FILE_NOT_FOUND or RECORDING_INVALID naming the file.
 */
export async function dataSpan(paths: readonly string[], cacheDir: string | null = null): Promise<DataSpan> {
  if (paths.length === 0) throw new MmError('USAGE', 'no recording given');
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const p of paths) {
    let text: string;
    try {
      text = await cachedByStat('span', p, cacheDir, fileSpan);
    } catch (e) {
      if (e instanceof MmError) throw e;
      throw new MmError('FILE_NOT_FOUND', `cannot read recording ${p}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file: p });
    }
    const [a, b] = JSON.parse(text) as [number, number];
    startMs = Math.min(startMs, a);
    endMs = Math.max(endMs, b);
  }
  return { startMs, endMs };
}

/**
 * Splits a span into `n` equal consecutive windows `w1..wn` (whole milliseconds). The first starts
 * and the last ends with the data (null bounds), so no event falls outside every window.
 * @throws MmError USAGE when n is not a positive integer or the span is too short to split.
 */
export function splitWindows(span: DataSpan, n: number): DataWindow[] {
  if (!Number.isInteger(n) || n < 1) throw new MmError('USAGE', `windows: expected a positive integer, got ${n}`);
  if (n === 1) return [{ id: 'w1', startMs: null, endMs: null }];
  const lengthMs = span.endMs - span.startMs;
  if (lengthMs < n) throw new MmError('USAGE', `the data spans ${lengthMs} ms: too short for ${n} windows`);
  const cut = (k: number): number => Math.floor(span.startMs + (lengthMs * k) / n);
  return Array.from({ length: n }, (_, k) => ({ id: `w${k + 1}`, startMs: k === 0 ? null : cut(k), endMs: k === n - 1 ? null : cut(k + 1) }));
}

/**
 * Explicit windows from `[startMs, endMs)` pairs (null = open end), ids `w1..wn` unless named.
 * @throws MmError USAGE when a window is empty or ids repeat.
 */
export function explicitWindows(list: ReadonlyArray<{ readonly id?: string; readonly startMs: number | null; readonly endMs: number | null }>): DataWindow[] {
  const out = list.map((w, k) => ({ id: w.id ?? `w${k + 1}`, startMs: w.startMs, endMs: w.endMs }));
  for (const w of out) if (w.startMs !== null && w.endMs !== null && !(w.endMs > w.startMs)) throw new MmError('USAGE', `window ${w.id}: end ${w.endMs} is not after start ${w.startMs}`);
  const ids = new Set(out.map((w) => w.id));
  if (ids.size !== out.length) throw new MmError('USAGE', 'window ids must be distinct');
  return out;
}
