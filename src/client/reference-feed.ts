import { open, type FileHandle } from 'node:fs/promises';
import { Subject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { Decimal } from '../core/decimal.ts';
import type { PriceObserved } from '../domain/events.ts';
import type { Instrument } from '../domain/instrument.ts';
import { wsSocketFactory, type SocketFactory, type SocketLike } from './socket.ts';

/** Where a reference feed's prices come from. */
export type ReferenceSource =
  | { readonly file: string; readonly pollMs: number }
  | { readonly ws: string; readonly subscribe?: string | undefined; readonly reconnectMs: number };

/** One external reference feed: its name, the symbol its prices are for, and its source. */
export interface ReferenceFeedSpec {
  readonly name: string;
  readonly instrument: Instrument;
  readonly source: ReferenceSource;
}

/** A running feed. */
export interface ReferenceFeed {
  /** Each price as a `price` market event (source = the feed's name), in the instrument's ticks. */
  readonly prices$: Observable<PriceObserved>;
  /** Stops reading (closes the file or socket) and completes `prices$`. */
  stop(): Promise<void>;
}

/**
 * Parses one line of the reference format, `{"ts": <epoch ms>, "price": "<decimal>"}` (price may
 * also be a JSON number; other keys are ignored), into a price event received at `tsRecvMs`.
 * Returns an error message naming the bad field instead of throwing: a feed skips bad lines.
 */
export function parseReferenceLine(line: string, spec: Pick<ReferenceFeedSpec, 'name' | 'instrument'>, tsRecvMs: number): PriceObserved | string {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return `not JSON: ${line.slice(0, 80)}`;
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'expected a JSON object';
  const r = o as Record<string, unknown>;
  const ts = r['ts'];
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return `ts: expected epoch milliseconds, got ${JSON.stringify(ts)}`;
  const p = r['price'];
  const text = typeof p === 'number' && Number.isFinite(p) ? String(p) : typeof p === 'string' ? p : null;
  if (text === null || !/^-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?$/i.test(text)) return `price: expected a decimal string, got ${JSON.stringify(p)}`;
  const priceTicks = new Decimal(text).div(spec.instrument.grid.tickSize).toNumber();
  return { type: 'price', symbol: spec.instrument.symbol, source: spec.name, priceTicks, tsEvent: ts, tsRecv: tsRecvMs };
}

/**
 * Starts a reference feed. A `file` source is followed like `tail -f`: the newest line already in
 * it is emitted at start, then each appended line (checked every `pollMs`; a truncated file is
 * read again from the start). A `ws` source emits every line of every message, sends `subscribe`
 * after each connect and reconnects `reconnectMs` after a drop. Bad lines are reported to
 * `onError` and skipped; the feed never throws.
 */
export function startReferenceFeed(spec: ReferenceFeedSpec, clock: Clock, onError: (msg: string) => void, socketFactory: SocketFactory = wsSocketFactory): ReferenceFeed {
  const prices$ = new Subject<PriceObserved>();
  const emitLine = (line: string): void => {
    if (line.trim() === '') return;
    const ev = parseReferenceLine(line, spec, clock.nowMs());
    if (typeof ev === 'string') onError(`reference feed ${spec.name}: ${ev}`);
    else prices$.next(ev);
  };
  const src = spec.source;
  const stopSource = 'file' in src ? followFile(src.file, src.pollMs, clock, emitLine, onError) : followSocket(src, clock, emitLine, onError, socketFactory);
  return {
    prices$,
    async stop() {
      await stopSource();
      prices$.complete();
    },
  };
}

/** Follows a growing file; returns its stop function. */
function followFile(path: string, pollMs: number, clock: Clock, emitLine: (line: string) => void, onError: (msg: string) => void): () => Promise<void> {
  let fh: FileHandle | null = null;
  let offset = 0;
  let partial = '';
  let first = true;
  let stopped = false;
  let cancel: (() => void) | undefined;
  let reading: Promise<void> = Promise.resolve();
  const readNew = async (): Promise<void> => {
    fh ??= await open(path, 'r');
    const size = (await fh.stat()).size;
    if (size < offset) {
      offset = 0; // truncated or replaced: read it again
      partial = '';
    }
    if (size === offset) return;
    const buf = Buffer.alloc(size - offset);
    const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
    offset += bytesRead;
    const lines = (partial + buf.subarray(0, bytesRead).toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    if (first) {
      // What was there before we started is history: only its newest line is the current price.
      first = false;
      const last = lines.filter((l) => l.trim() !== '').pop();
      if (last !== undefined) emitLine(last);
      return;
    }
    for (const l of lines) emitLine(l);
  };
  const tick = (): void => {
    if (stopped) return;
    reading = readNew()
      .catch((e: unknown) => onError(`reference file ${path}: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        if (!stopped) cancel = clock.setTimer(pollMs, tick);
      });
  };
  tick();
  return async () => {
    stopped = true;
    cancel?.();
    await reading;
    await fh?.close();
  };
}

/** Follows a WebSocket with reconnects; returns its stop function. */
function followSocket(
  src: { readonly ws: string; readonly subscribe?: string | undefined; readonly reconnectMs: number },
  clock: Clock,
  emitLine: (line: string) => void,
  onError: (msg: string) => void,
  factory: SocketFactory,
): () => Promise<void> {
  let socket: SocketLike | null = null;
  let stopped = false;
  let cancel: (() => void) | undefined;
  const connect = (): void => {
    if (stopped) return;
    let closed = false;
    const retry = (): void => {
      if (closed) return;
      closed = true;
      socket = null;
      if (!stopped) cancel = clock.setTimer(src.reconnectMs, connect);
    };
    socket = factory(src.ws, {}, {
      onOpen: () => {
        if (src.subscribe !== undefined) socket?.send(src.subscribe);
      },
      onMessage: (text) => {
        for (const line of text.split('\n')) emitLine(line);
      },
      onClose: () => retry(),
      onError: (err) => {
        onError(`reference socket ${src.ws}: ${err.message}`);
        socket?.terminate();
        retry();
      },
    });
  };
  connect();
  return async () => {
    stopped = true;
    cancel?.();
    socket?.close(1000, 'stopping');
  };
}
