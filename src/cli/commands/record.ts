import { resolve } from 'node:path';
import { merge } from 'rxjs';
import { MarketDataWsClient, RestClient, type ApiCredentials } from '../../client/index.ts';
import { LiveClock, type Clock } from '../../core/clock.ts';
import { MmError } from '../../core/errors.ts';
import { instrumentCatalog } from '../../domain/instrument.ts';
import { createRecordingWriter, startRecorder, type RecordingStats } from '../../record/index.ts';
import { flagInt, flagNumber, flagString, parseArgs } from '../args.ts';
import { pollFundingSettlements } from '../funding-poller.ts';
import { pollIndexPrices } from '../index-poller.ts';
import { openVenue } from '../live/venue-endpoint.ts';
import type { Command } from '../main.ts';
import { createLogger } from '../../obs/logger.ts';
import { loadBacktestSetup } from './backtest.ts';

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
}

/** A running recording session. */
export interface RecordingSession {
  /** What was written so far (live counters). */
  readonly stats: Readonly<RecordingStats>;
  /** Stops the sockets and closes the file. */
  stop(): Promise<Readonly<RecordingStats>>;
}

/**
 * Records books, trades, tickers (with funding estimates) and funding settlements of `symbols`
 * from a venue through the market-data WebSocket client, into a gzip JSONL recording. Reconnects
 * are handled by the client; each one is written as a gap marker.
 * @throws MmError when the venue does not list a symbol.
 */
export async function recordVenue(o: RecordVenueOptions): Promise<RecordingSession> {
  const rest = new RestClient({ baseUrl: o.baseUrl, clock: o.clock, ...(o.credentials ? { credentials: o.credentials } : {}) });
  const catalog = await rest.loadInstruments();
  const instruments = o.symbols.map((s) => {
    const i = catalog.get(s);
    if (!i) throw new MmError('USAGE', `the venue does not list ${s} (it lists ${catalog.all().slice(0, 12).map((x) => x.symbol).join(', ')}...)`);
    return i;
  });
  const md = new MarketDataWsClient({ wsUrl: o.wsUrl, clock: o.clock, ...(rest.tokens ? { tokens: rest.tokens } : {}), instruments: instrumentCatalog(instruments) });
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
  };
}

const usage = `usage: mmbot record [--symbols A,B] --out <file.jsonl.gz> [--duration <s>] [--level 2|3]
                   [--config <bot config>]
                   [--local [--preset <name>] [--clock-speed <x>] [--seed <n>] [--taker-rate <n>] [--venue-config <file>] [--start <time>]]
                   [--base-url <url> [--ws-url <url>] --api-key <key> --api-secret <secret>]

Records normalized market data (books as snapshot + deltas, trades, tickers with funding estimates,
funding settlements, gap markers on reconnect) with venue and receive times, for backtests.
  --config       a bot config: its venue section says where to record (embedded-sim starts the
                 local venue as mmbot run does; remote uses its URL and credentials); symbols
                 default to its strategies' symbols
  --local        start the local venue in-process (synthetic flow) and record it
  --preset       local venue synthetic market: calm | normal | toxic | trending | news (default
                 normal, or the venue config's market.preset)
  --clock-speed  local venue clock speed (e.g. 20: twenty venue seconds per wall second)
  --taker-rate   local venue synthetic takers per minute (venue default 12)
  --venue-config a venue YAML for the local venue
  --start        local venue clock start (ISO 8601 or epoch ms), e.g. a weekday shortly before a
                 funding settlement (EURUSD-PERP settles at 16:00 Europe/London, Monday to Friday)
  --base-url     a venue (or a local venue started elsewhere); credentials from the flags or
                 AX_API_KEY / AX_API_SECRET in the environment
  --duration     stop after this many seconds of venue time (default: until Ctrl-C)
  --level        2 (default): aggregated book levels; 3: order-level books (the venue's LEVEL_3
                 channel: each level's resting order sizes in queue order, format version 4),
                 which mmbot backtest replays as exact FIFO queues
  --funding-poll-ms  poll REST funding settlements this often (default 30000, 0 = never)
  --index-poll-ms    poll the venue's index prices into the recording (p lines) this often (default 5000, 0 = never)`;

/** `mmbot record`. */
export const command: Command = {
  summary: 'record market data (books, trades, tickers, funding) to a gzip JSONL file for backtests',
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['symbols', 'out', 'duration', 'base-url', 'ws-url', 'api-key', 'api-secret', 'clock-speed', 'seed', 'funding-poll-ms', 'index-poll-ms', 'taker-rate', 'venue-config', 'config', 'start', 'preset', 'level'], boolean: ['local'] });
    if (flagString(p, 'preset') !== undefined && !p.flags.has('local')) throw new MmError('USAGE', 'flag --preset picks the local venue\'s synthetic market: it needs --local');
    if (flagString(p, 'start') !== undefined && !p.flags.has('local')) throw new MmError('USAGE', 'flag --start sets the local venue\'s clock: it needs --local');
    let symbols = (flagString(p, 'symbols') ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    const configFile = flagString(p, 'config');
    const setup = configFile ? await loadBacktestSetup(configFile) : null;
    if (symbols.length === 0 && setup) symbols = [...new Set(setup.config.bot.strategies.flatMap((s) => s.symbols))];
    if (symbols.length === 0) throw new MmError('USAGE', '--symbols is required (comma-separated), or --config with strategies');
    const outFlag = flagString(p, 'out');
    if (!outFlag) throw new MmError('USAGE', '--out is required');
    const out = resolve(outFlag);
    const durationS = flagNumber(p, 'duration');
    const fundingPollMs = flagInt(p, 'funding-poll-ms', 0, 86_400_000);
    const indexPollMs = flagInt(p, 'index-poll-ms', 0, 86_400_000);
    const levelFlag = flagInt(p, 'level', 2, 3);
    const level = levelFlag === 3 ? 3 : 2;
    let stopVenue: (() => Promise<void>) | undefined;
    let opts: RecordVenueOptions;
    if (setup) {
      // The venue of a bot config: embedded-sim starts the local venue like the daemon does.
      const endpoint = await openVenue(setup.config, createLogger({ level: 'warn', pretty: false }));
      stopVenue = () => endpoint.close();
      opts = {
        baseUrl: endpoint.baseUrl,
        wsUrl: endpoint.wsUrl,
        credentials: endpoint.credentials,
        clock: endpoint.embedded ? endpoint.embedded.venue.clock : new LiveClock(),
        symbols,
        out,
        source: endpoint.embedded ? 'local-venue' : endpoint.baseUrl,
        level,
        ...(fundingPollMs !== undefined ? { fundingPollMs } : {}), ...(indexPollMs !== undefined ? { indexPollMs } : {}),
      };
    } else if (p.flags.has('local')) {
      const { startVenue, loadVenueConfig, parseVenueConfig } = await import('../../sim/index.ts');
      const { withPreset } = await import('./sim.ts');
      const speed = flagNumber(p, 'clock-speed') ?? 1;
      const seed = flagInt(p, 'seed', 0, 2 ** 31) ?? 1;
      const takerRate = flagNumber(p, 'taker-rate');
      const venueFile = flagString(p, 'venue-config');
      const loaded = withPreset(venueFile ? loadVenueConfig(venueFile) : parseVenueConfig({}), flagString(p, 'preset'), venueFile ?? '--preset');
      const base = loaded as unknown as Record<string, unknown>;
      const baseMarket = (base['market'] ?? {}) as Record<string, unknown>;
      const baseDefaults = (baseMarket['defaults'] ?? {}) as Record<string, unknown>;
      const market =
        takerRate !== undefined
          ? { market: { ...baseMarket, defaults: { ...baseDefaults, takers: { ...(baseDefaults['takers'] as object | undefined), rate_per_min: takerRate } } } }
          : {};
      const start = flagString(p, 'start');
      const clock = start !== undefined ? new ShiftedClock(new LiveClock(), parseStart(start)) : undefined;
      const v = await startVenue({ seed, config: { ...base, clock_speed: speed, seed, ...market } as never, ...(clock ? { clock } : {}) });
      stopVenue = () => v.stop();
      opts = { baseUrl: v.baseUrl, wsUrl: v.wsUrl, credentials: { apiKey: v.credentials.api_key, apiSecret: v.credentials.api_secret }, clock: v.venue.clock, symbols, out, source: 'local-venue', level, ...(fundingPollMs !== undefined ? { fundingPollMs } : {}), ...(indexPollMs !== undefined ? { indexPollMs } : {}) };
    } else {
      const baseUrl = flagString(p, 'base-url');
      if (!baseUrl) throw new MmError('USAGE', 'pass --config, --local or --base-url');
      const apiKey = flagString(p, 'api-key') ?? process.env['AX_API_KEY'];
      const apiSecret = flagString(p, 'api-secret') ?? process.env['AX_API_SECRET'];
      opts = {
        baseUrl,
        wsUrl: flagString(p, 'ws-url') ?? baseUrl.replace(/^http/, 'ws'),
        ...(apiKey && apiSecret ? { credentials: { apiKey, apiSecret } } : {}),
        clock: new LiveClock(),
        symbols,
        out,
        level,
        ...(fundingPollMs !== undefined ? { fundingPollMs } : {}), ...(indexPollMs !== undefined ? { indexPollMs } : {}),
      };
    }
    // Clock timers are unref'd and a socket that cannot connect holds nothing: keep the process
    // alive until the duration ends or a signal arrives, so the gzip trailer is always written.
    const keepAlive = setInterval(() => undefined, 1 << 30);
    let session: RecordingSession;
    try {
      session = await recordVenue(opts);
    } catch (e) {
      clearInterval(keepAlive);
      await stopVenue?.();
      throw e;
    }
    process.stderr.write(`recording ${symbols.join(', ')}${level === 3 ? ' (order-level books)' : ''} from ${opts.baseUrl} to ${out}${durationS !== undefined ? ` for ${durationS} s` : ' (Ctrl-C to stop)'}\n`);
    await new Promise<void>((done) => {
      const finish = (): void => {
        process.off('SIGINT', finish);
        process.off('SIGTERM', finish);
        clearInterval(keepAlive);
        done();
      };
      process.on('SIGINT', finish);
      process.on('SIGTERM', finish);
      if (durationS !== undefined) opts.clock.setTimer(durationS * 1000, finish);
    });
    const stats = await session.stop();
    await stopVenue?.();
    process.stderr.write(`wrote ${stats.events} events (${stats.books} books, ${stats.snapshots} snapshots, ${stats.trades} trades, ${stats.tickers} tickers, ${stats.fundings} funding, ${stats.gaps} gaps) to ${out}\n`);
    return 0;
  },
};
