import { merge } from 'rxjs';
import { MarketDataWsClient, RestClient, type ApiCredentials, type HttpTransport, type SocketFactory } from '../client/index.ts';
import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';
import { instrumentCatalog } from '../domain/instrument.ts';
import { createRecordingWriter, startRecorder, type RecordingStats } from '../record/index.ts';
import { pollFundingSettlements } from './funding-poller.ts';
import { pollIndexPrices } from './index-poller.ts';

/**
 * The wall clock shifted so that it reads `startMs` now: the local venue can run as if it were
 * another day (e.g. a weekday just before a funding settlement) while time still flows normally.
 */
export class ShiftedClock implements Clock {
  readonly #base: Clock;
  readonly #offsetMs: number;

  constructor(base: Clock, startMs: number) {
    this.#base = base;
    this.#offsetMs = startMs - base.nowMs();
  }

  nowMs(): number {
    return this.#base.nowMs() + this.#offsetMs;
  }

  nowNs(): bigint {
    return this.#base.nowNs() + BigInt(Math.round(this.#offsetMs)) * 1_000_000n;
  }

  setTimer(delayMs: number, fn: () => void): () => void {
    return this.#base.setTimer(delayMs, fn);
  }
}

/** Parses `--start`: an ISO 8601 time (`2026-11-18T15:56:00Z`) or epoch ms. */
export function parseStart(value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms) || ms <= 0) throw new MmError('USAGE', `flag --start: expected an ISO 8601 time (e.g. 2026-11-18T15:56:00Z) or epoch ms, got "${value}"`);
  return ms;
}

/** Where and what to record. */
export interface RecordVenueOptions {
  readonly baseUrl: string;
  readonly wsUrl: string;
  /** Credentials for the token (the market-data socket requires one on this venue). */
  readonly credentials?: ApiCredentials;
  /** Clock stamping receive times (the venue's own clock for an in-process local venue). */
  readonly clock: Clock;
  readonly symbols: readonly string[];
  readonly out: string;
  /** Poll REST funding settlements this often (ms); 0 = never. */
  readonly fundingPollMs?: number;
  /** Poll the venue's index (underlying) prices into the recording this often (ms; default 5000, 0 = never). */
  readonly indexPollMs?: number;
  readonly source?: string;
  /** 3: subscribe LEVEL_3 and write an order-level recording (format version 4); default 2. */
  readonly level?: 2 | 3;
  /** REST transport (default: HTTP to `baseUrl`; an in-process one for a virtual-clock recording). */
  readonly transport?: HttpTransport;
  /** Market-data socket factory (default: a `ws` socket to `wsUrl`). */
  readonly socketFactory?: SocketFactory;
  /** Uniform [0, 1) source for retry and reconnect jitter (default Math.random). */
  readonly random?: () => number;
}

/** A running recording session. */
export interface RecordingSession {
  /** What was written so far (live counters). */
  readonly stats: Readonly<RecordingStats>;
  /** Stops the sockets and closes the file. */
  stop(): Promise<Readonly<RecordingStats>>;
  /** Stops the sockets and gives the file up: a failed run leaves nothing at `out`. */
  abort(): Promise<void>;
}

/**
 * Records books, trades, tickers (with funding estimates) and funding settlements of `symbols`
 * from a venue through the market-data WebSocket client, into a gzip JSONL recording. Reconnects
 * are handled by the client; each one is written as a gap marker.
 * @throws MmError when the venue does not list a symbol.
 */
export async function recordVenue(o: RecordVenueOptions): Promise<RecordingSession> {
  const io = { ...(o.transport ? { transport: o.transport } : {}), ...(o.random ? { random: o.random } : {}) };
  const rest = new RestClient({ baseUrl: o.baseUrl, clock: o.clock, ...(o.credentials ? { credentials: o.credentials } : {}), ...io });
  const catalog = await rest.loadInstruments();
  const instruments = o.symbols.map((s) => {
    const i = catalog.get(s);
    if (!i) throw new MmError('USAGE', `the venue does not list ${s} (it lists ${catalog.all().slice(0, 12).map((x) => x.symbol).join(', ')}...)`);
    return i;
  });
  const md = new MarketDataWsClient({
    wsUrl: o.wsUrl,
    clock: o.clock,
    ...(rest.tokens ? { tokens: rest.tokens } : {}),
    instruments: instrumentCatalog(instruments),
    ...(o.socketFactory ? { socketFactory: o.socketFactory } : {}),
    ...(o.random ? { random: o.random } : {}),
  });
  const poller = pollFundingSettlements(rest, o.symbols, {
    clock: o.clock,
    sinceMs: o.clock.nowMs(),
    pollMs: o.fundingPollMs ?? 30_000,
    onError: (symbol, e) => process.stderr.write(`record: funding poll for ${symbol} failed: ${e instanceof Error ? e.message : String(e)}\n`),
  });
  const index = pollIndexPrices(rest, instruments, {
    clock: o.clock,
    pollMs: o.indexPollMs ?? 5_000,
    onError: (symbol, e) => process.stderr.write(`record: index price poll for ${symbol} failed: ${e instanceof Error ? e.message : String(e)}\n`),
  });
  const level = o.level ?? 2;
  const sink = createRecordingWriter(o.out, { instruments, startedAtMs: o.clock.nowMs(), source: o.source ?? o.baseUrl, bookLevel: level });
  const recorder = startRecorder(sink, { market$: merge(md.market$, index.prices$), connection$: md.connection$, funding$: poller.funding$ }, o.clock);
  for (const s of o.symbols) md.subscribeBook(s, level, { trades: true, ticker: true });
  md.start();
  return {
    stats: sink.stats,
    async stop() {
      poller.stop();
      index.stop();
      await md.stop();
      const stats = await recorder.stop();
      await rest.close();
      return stats;
    },
    async abort() {
      poller.stop();
      index.stop();
      await md.stop();
      await recorder.abort();
      await rest.close();
    },
  };
}

