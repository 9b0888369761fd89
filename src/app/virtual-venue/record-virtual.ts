import { performance } from 'node:perf_hooks';
import { VirtualClock } from '../../core/clock.ts';
import { MmError } from '../../core/errors.ts';
import { seededRandomU32 } from '../../core/ulid.ts';
import type { RecordingStats } from '../../record/index.ts';
import { buildVenue, parseVenueConfig, ScaledClock, type VenueConfig, type VenueConfigInput } from '../../sim/index.ts';
import { marketServicesOf } from '../../sim/market/index.ts';
import { recordVenue } from '../record-venue.ts';
import { InProcessMdLink } from './in-process-md-link.ts';
import { InProcessTransport } from './in-process-transport.ts';
import { ClientClock, runLockstep, settleWhile, type LockstepParts } from './lockstep.ts';

/** What to record from a local venue on a virtual clock. */
export interface VirtualRecordOptions {
  /** The venue config (preset, seed, takers, `clock_speed` already applied). */
  readonly config: VenueConfig | VenueConfigInput;
  readonly seed: number;
  /** Venue time at the start of the recording, epoch ms. */
  readonly startMs: number;
  /** Venue time recorded, ms. */
  readonly durationMs: number;
  readonly symbols: readonly string[];
  readonly out: string;
  /** The header's `source` (default "local-venue"). */
  readonly source?: string;
  readonly level?: 2 | 3;
  readonly fundingPollMs?: number;
  readonly indexPollMs?: number;
  /** Ends the recording early, at the venue time reached (the file is complete up to there). */
  readonly signal?: AbortSignal;
}

/** What was written and what the run cost. */
export interface VirtualRecordResult {
  readonly stats: Readonly<RecordingStats>;
  /** Clock timers fired. */
  readonly timers: number;
  /** Event-loop turns taken to let asynchronous client work finish. */
  readonly turns: number;
  /** Market-data frames the client received. */
  readonly frames: number;
  /** Wall time of the run, ms (a figure for the user, never written to the file). */
  readonly wallMs: number;
  /** Venue time recorded, ms (less than asked when stopped by the signal). */
  readonly venueMs: number;
}

/**
 * Records a local venue deterministically: the venue (synthetic flow, matching, market data,
 * funding) runs headless on a VirtualClock stepped as fast as the CPU allows, and `recordVenue`
 * records it through the very client stack of a socket recording (REST client, pollers,
 * market-data WebSocket client, recorder, writer) over in-process links instead of sockets.
 *
 * Why this seam rather than tapping the venue's publish path: the hub's encoded frames are exactly
 * what a `/md/ws` client receives (same coalescing, ticker throttle, snapshots and deltas), and the
 * client-side decoding, book keeping and normalisation are then the same code as every other
 * recording, so the two paths can only differ in timing, never in format or meaning. Time on the
 * link is zero: frames are received at the venue time they were sent. `clock_speed` keeps its
 * meaning (it shapes the flow's batching, the ticker throttle and heartbeats per wall second), the
 * wall being simulated by the virtual clock slowed `clock_speed` times.
 *
 * Same config, seed, start, duration, symbols and level ⇒ the same bytes.
 * @throws MmError when the venue does not list a symbol (USAGE).
 */
export async function recordVirtual(o: VirtualRecordOptions): Promise<VirtualRecordResult> {
  const t0 = performance.now();
  const config = parseVenueConfig(o.config);
  const clock = new VirtualClock(o.startMs);
  const ioClock = config.clock_speed === 1 ? clock : new ScaledClock(clock, 1 / config.clock_speed);
  const venue = await buildVenue({ config, clock, prescaled: true, ioClock, seed: o.seed });
  try {
    const services = marketServicesOf(venue.venue);
    if (!services) throw new MmError('INVARIANT_BROKEN', 'the local venue started without its market plugin (no market data to record)');
    const transport = new InProcessTransport(venue);
    const link = new InProcessMdLink(venue.venue, services.md);
    const parts: LockstepParts = {
      clock,
      client: new ClientClock(clock),
      pump: () => link.pump(),
      started: () => transport.started,
      inFlight: () => transport.inFlight,
    };
    const u32 = seededRandomU32(o.seed);
    const creds = venue.venue.credentials;
    const session = await settleWhile(
      parts,
      recordVenue({
        baseUrl: 'http://local-venue.invalid',
        wsUrl: 'ws://local-venue.invalid',
        credentials: { apiKey: creds.api_key, apiSecret: creds.api_secret },
        clock: parts.client,
        symbols: o.symbols,
        out: o.out,
        source: o.source ?? 'local-venue',
        level: o.level ?? 2,
        transport,
        socketFactory: link.factory,
        random: () => u32() / 4_294_967_296,
        ...(o.fundingPollMs !== undefined ? { fundingPollMs: o.fundingPollMs } : {}),
        ...(o.indexPollMs !== undefined ? { indexPollMs: o.indexPollMs } : {}),
      }),
    );
    let run: Awaited<ReturnType<typeof runLockstep>>;
    try {
      run = await runLockstep(parts, o.startMs + o.durationMs, o.signal);
    } catch (e) {
      // A failed run must not leave (or replace an earlier file with) a complete-looking recording.
      await settleWhile(parts, session.abort());
      throw e;
    }
    const stats = await settleWhile(parts, session.stop());
    return { stats, timers: run.timers, turns: run.turns, frames: link.framesToClient, wallMs: performance.now() - t0, venueMs: clock.nowMs() - o.startMs };
  } finally {
    await venue.stop();
  }
}
