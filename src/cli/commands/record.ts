import { resolve } from 'node:path';
import { LiveClock } from '../../core/clock.ts';
import { MmError } from '../../core/errors.ts';
import type { ParsedArgs } from '../args.ts';
import { flagInt, flagNumber, flagString, parseArgs } from '../args.ts';
import { openVenue } from '../../app/live/venue-endpoint.ts';
import type { Command } from '../main.ts';
import { createLogger } from '../../obs/logger.ts';
import { parseStart, recordVenue, ShiftedClock, type RecordingSession, type RecordVenueOptions } from '../../app/record-venue.ts';
import { onStopSignal } from '../stop-signal.ts';
import { loadBacktestSetup } from './backtest.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

export { parseStart, recordVenue, ShiftedClock, type RecordingSession, type RecordVenueOptions } from '../../app/record-venue.ts';

/** Where a virtual-clock recording starts when --start is not given: a fixed Monday noon UTC, so a seed alone fixes the file. */
export const DEFAULT_VIRTUAL_START = '2026-11-16T12:00:00Z';

const usage = `usage: mmbot record [--symbols A,B] --out <file.jsonl.gz> [--duration <s>] [--level 2|3]
                   [--config <bot config>]
                   [--local [--preset <name>] [--seed <n>] [--clock-speed <x>] [--taker-rate <n>] [--venue-config <file>] [--start <time>] [--wall-clock]]
                   [--base-url <url> [--ws-url <url>] --api-key <key> --api-secret <secret>]

Records normalized market data (books as snapshot + deltas, trades, tickers with funding estimates,
funding settlements, index prices, gap markers on reconnect) with venue and receive times, for backtests.
  --config       a bot config: its venue section says where to record (embedded-sim starts the
                 local venue as mmbot run does, on the wall clock; remote uses its URL and
                 credentials); symbols default to its strategies' symbols
  --local        record the local venue's synthetic market. By default the venue runs in-process on
                 a virtual clock, as fast as the CPU allows, and is recorded through the same client
                 code as over sockets with zero network delay: the same preset, seed, start,
                 duration, clock speed, taker rate, symbols and level give a byte-identical file, so
                 "preset X, seed Y" is a shareable dataset (needs --duration)
  --wall-clock   with --local: run the venue on the (scaled) wall clock behind real sockets and
                 record it as a remote venue is recorded (until --duration or Ctrl-C); timing and a
                 few percent of events then differ from run to run
  --preset       local venue synthetic market: calm | normal | toxic | trending | news (default
                 normal, or the venue config's market.preset)
  --seed         local venue random seed (default 1)
  --clock-speed  local venue seconds per wall second (default 1). On the virtual clock it still
                 shapes the market as at that speed (flow batching, ticker throttle, heartbeats per
                 wall second) but not how long the run takes
  --taker-rate   local venue synthetic takers per minute (venue default 12)
  --venue-config a venue YAML for the local venue
  --start        local venue clock start (ISO 8601 or epoch ms), e.g. a weekday shortly before a
                 funding settlement (EURUSD-PERP settles at 16:00 Europe/London, Monday to Friday);
                 default ${DEFAULT_VIRTUAL_START} on the virtual clock, now with --wall-clock
  --base-url     a venue (or a local venue started elsewhere); credentials from the flags or
                 AX_API_KEY / AX_API_SECRET in the environment
  --duration     stop after this many seconds of venue time (default: until Ctrl-C; required on the
                 virtual clock, where Ctrl-C ends the file early at the venue time reached)
  --level        2 (default): aggregated book levels; 3: order-level books (the venue's LEVEL_3
                 channel: each level's resting order sizes in queue order, format version 4),
                 which mmbot backtest replays as exact FIFO queues
  --funding-poll-ms  poll REST funding settlements this often (default 30000, 0 = never)
  --index-poll-ms    poll the venue's index prices into the recording (p lines) this often (default 5000, 0 = never)`;

/** The local venue's config from the --local flags: preset, seed, clock speed and taker rate applied. */
async function localVenueConfig(p: ParsedArgs): Promise<{ config: Record<string, unknown>; seed: number; speed: number; preset: string }> {
  const { loadVenueConfig, parseVenueConfig } = await import('../../sim/index.ts');
  const { withPreset } = await import('./sim.ts');
  const speed = flagNumber(p, 'clock-speed') ?? 1;
  if (!(speed > 0)) throw new MmError('USAGE', `--clock-speed must be a positive number (venue seconds per wall second), got "${flagString(p, 'clock-speed')}"`);
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
  const preset = typeof baseMarket['preset'] === 'string' ? baseMarket['preset'] : 'normal';
  return { config: { ...base, clock_speed: speed, seed, ...market }, seed, speed, preset };
}

/** `mmbot record --local` on the virtual clock: runs to the end, prints what was written and how fast. */
async function recordLocalVirtual(p: ParsedArgs, symbols: readonly string[], out: string, durationS: number | undefined, level: 2 | 3, polls: { fundingPollMs?: number; indexPollMs?: number }): Promise<number> {
  if (durationS === undefined || !(durationS > 0)) {
    throw new MmError('USAGE', '--local records a fixed span of venue time on a virtual clock: pass --duration <seconds> (> 0), or --wall-clock to record until Ctrl-C');
  }
  const { config, seed, speed, preset } = await localVenueConfig(p);
  const startMs = parseStart(flagString(p, 'start') ?? DEFAULT_VIRTUAL_START);
  const { recordVirtual } = await import('../../app/virtual-venue/record-virtual.ts');
  process.stderr.write(`recording ${symbols.join(', ')}${level === 3 ? ' (order-level books)' : ''} from the local venue (preset ${preset}, seed ${seed}, ${speed}×, virtual clock) to ${out} for ${durationS} venue s\n`);
  // Ctrl-C ends the recording at the venue time reached, with a complete file.
  const stop = new AbortController();
  const offSignal = onStopSignal(() => stop.abort());
  const r = await recordVirtual({
    signal: stop.signal,
    config,
    seed,
    startMs,
    durationMs: durationS * 1000,
    symbols,
    out,
    level,
    source: `local-venue preset=${preset} seed=${seed} clock_speed=${speed} virtual-clock`,
    ...polls,
  }).finally(offSignal);
  const s = r.stats;
  const rate = r.venueMs / 60_000 / (r.wallMs / 1000);
  if (stop.signal.aborted) process.stderr.write(`stopped at ${(r.venueMs / 1000).toFixed(0)} of ${durationS} venue s\n`);
  process.stderr.write(`wrote ${s.events} events (${s.books} books, ${s.snapshots} snapshots, ${s.trades} trades, ${s.tickers} tickers, ${s.fundings} funding, ${s.gaps} gaps) to ${out} in ${(r.wallMs / 1000).toFixed(1)} s (${rate.toFixed(1)} venue minutes per second)\n`);
  return 0;
}

/** `mmbot record`. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.record,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['symbols', 'out', 'duration', 'base-url', 'ws-url', 'api-key', 'api-secret', 'clock-speed', 'seed', 'funding-poll-ms', 'index-poll-ms', 'taker-rate', 'venue-config', 'config', 'start', 'preset', 'level'], boolean: ['local', 'wall-clock'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const local = p.flags.has('local');
    for (const f of ['preset', 'start', 'seed', 'clock-speed', 'taker-rate', 'venue-config']) {
      if (flagString(p, f) !== undefined && !local) throw new MmError('USAGE', `flag --${f} sets up the local venue: it needs --local`);
    }
    if (p.flags.has('wall-clock') && !local) throw new MmError('USAGE', 'flag --wall-clock picks how the local venue runs: it needs --local');
    const configFile = flagString(p, 'config');
    if (local && (configFile !== undefined || flagString(p, 'base-url') !== undefined)) throw new MmError('USAGE', 'pass one of --local, --config and --base-url');
    let symbols = (flagString(p, 'symbols') ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    const setup = configFile ? await loadBacktestSetup(configFile) : null;
    if (symbols.length === 0 && setup) symbols = [...new Set(setup.config.bot.strategies.flatMap((s) => s.symbols))];
    if (symbols.length === 0) throw new MmError('USAGE', '--symbols is required (comma-separated), or --config with strategies');
    const outFlag = flagString(p, 'out');
    if (!outFlag) throw new MmError('USAGE', '--out is required');
    const out = resolve(outFlag);
    const durationS = flagNumber(p, 'duration');
    const fundingPollMs = flagInt(p, 'funding-poll-ms', 0, 86_400_000);
    const indexPollMs = flagInt(p, 'index-poll-ms', 0, 86_400_000);
    const polls = { ...(fundingPollMs !== undefined ? { fundingPollMs } : {}), ...(indexPollMs !== undefined ? { indexPollMs } : {}) };
    const levelFlag = flagInt(p, 'level', 2, 3);
    const level = levelFlag === 3 ? 3 : 2;
    if (local && !p.flags.has('wall-clock')) return recordLocalVirtual(p, symbols, out, durationS, level, polls);
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
        ...polls,
      };
    } else if (local) {
      const { startVenue } = await import('../../sim/index.ts');
      const { config, seed, speed, preset } = await localVenueConfig(p);
      const start = flagString(p, 'start');
      const clock = start !== undefined ? new ShiftedClock(new LiveClock(), parseStart(start)) : undefined;
      const v = await startVenue({ seed, config: config as never, ...(clock ? { clock } : {}) });
      stopVenue = () => v.stop();
      const source = `local-venue preset=${preset} seed=${seed} clock_speed=${speed} wall-clock`;
      opts = { baseUrl: v.baseUrl, wsUrl: v.wsUrl, credentials: { apiKey: v.credentials.api_key, apiSecret: v.credentials.api_secret }, clock: v.venue.clock, symbols, out, source, level, ...polls };
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
        ...polls,
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
