import { merge } from 'rxjs';
import { asyncScheduler } from 'rxjs';
import { LiveClock, VirtualClock, type Clock } from '../../src/core/clock.ts';
import type { Symbol } from '../../src/core/ids.ts';
import { connectVenue, type VenueConnection } from '../../src/client/index.ts';
import { DEFAULT_REWARD_SCORE_PARAMS, type RewardScoreParams } from '../../src/domain/reward-score.ts';
import {
  createEngine,
  DEFAULT_EXECUTION_CONFIG,
  DEFAULT_ORDER_MANAGER_CONFIG,
  DEFAULT_RISK_CONFIG,
  type Engine,
  type EngineInputs,
} from '../../src/engine/index.ts';
import { startVenue, type RunningVenue, type VenueConfigInput } from '../../src/sim/index.ts';
import { loadStrategy, parseStrategyParams } from '../../src/strategy/index.ts';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts';
import { startMonitoring, type Monitoring, type MonitoringConfig } from '../../src/app/monitoring.ts';

/**
 * The wall clock with timers that never fire before their due time. Node's setTimeout may run up
 * to ~1 ms early; the venue's 60× clock turns that into a 60 ms-early minute sample, after which
 * the venue's reward sampler re-arms for the same minute and scores it twice (reported to the
 * sim helper). Tests run the venue on this base clock so the reward comparison is exact.
 */
export class PunctualClock implements Clock {
  readonly #live = new LiveClock();
  nowMs(): number {
    return this.#live.nowMs();
  }
  nowNs(): bigint {
    return this.#live.nowNs();
  }
  setTimer(delayMs: number, fn: () => void): () => void {
    // ScaledClock reads nowMs (Date.now): due-ness is judged on the same reading.
    const dueMs = this.#live.nowMs() + Math.max(0, delayMs);
    let cancel = (): void => {};
    const check = (): void => {
      const leftMs = dueMs - this.#live.nowMs();
      if (leftMs > 0) cancel = this.#live.setTimer(Math.max(1, leftMs), check);
      else fn();
    };
    cancel = this.#live.setTimer(delayMs, check);
    return () => cancel();
  }
}

/** A bot (engine + clients + monitoring) trading against an in-process local venue over real sockets. */
export interface TestBot {
  readonly venue: RunningVenue;
  readonly conn: VenueConnection;
  readonly engine: Engine;
  readonly monitoring: Monitoring;
  readonly symbol: Symbol;
  readonly proxy: FaultProxy | null;
  /**
   * Stops venue time (only with `virtualVenue`): a test that compares two reads of time-dependent
   * venue state (reward statuses move on at epoch ends) freezes it first, else at 100× an epoch
   * end can fall between the reads when the machine is loaded.
   */
  freezeVenueClock(): void;
  stop(): Promise<void>;
}

/** Options of the harness. */
export interface TestBotOptions {
  readonly symbol: string;
  readonly venueConfig?: VenueConfigInput;
  readonly strategyParams?: Record<string, unknown>;
  /** Reward polling interval (ms, engine clock); rewards off when undefined. */
  readonly rewardPollMs?: number;
  /** The venue's reward model, when rewards are on. */
  readonly rewardParams?: RewardScoreParams;
  readonly rewardEpochMs?: number;
  /** Venue ms after each minute before the estimator samples it. */
  readonly rewardSampleLagMs?: number;
  /** Market-data staleness threshold of the client (ms). */
  readonly staleAfterMs?: number;
  /** Book level subscribed (default 2; 3 gives per-order queues for the reward estimator). */
  readonly bookLevel?: 2 | 3;
  /**
   * Run venue time on a VirtualClock advanced `speed`× faster than the wall clock, at most
   * `maxStepMs` venue ms per 1 ms tick: an event-loop stall pauses venue time instead of making
   * its timers (minute samples) late, so venue and bot see the same instants.
   */
  readonly virtualVenue?: { readonly speed: number; readonly maxStepMs?: number };
  /** Put a fault proxy between the bot and the venue (to cut sockets). */
  readonly viaProxy?: boolean;
}

/**
 * Starts the local venue on a free port, connects the clients, builds a fixed-spread engine and
 * starts monitoring on a free port. Until `mmbot run` wires monitoring, this is the composition
 * the daemon performs (src/app/live/daemon.ts), trimmed to what the tests need.
 */
export async function startTestBot(o: TestBotOptions): Promise<TestBot> {
  const clock: Clock = new LiveClock();
  let baseClock: Clock = new PunctualClock();
  let driver: NodeJS.Timeout | null = null;
  let frozen = false;
  const running = (): boolean => driver !== null && !frozen;
  if (o.virtualVenue) {
    const v = new VirtualClock(Date.now());
    const { speed, maxStepMs = 50 } = o.virtualVenue;
    let last = performance.now();
    let stepping = false;
    driver = setInterval(() => {
      if (stepping || !running()) return;
      const now = performance.now();
      const target = v.nowMs() + Math.min(maxStepMs, (now - last) * speed);
      last = now;
      stepping = true;
      void (async () => {
        // One venue instant at a time. The venue coalesces book changes into one frame per flush (a
        // microtask) stamped with the clock at the flush: a whole step advanced at once stamped
        // changes made just before a minute boundary after it, so the estimator's book as of the
        // minute missed what the venue's minute sample scored, and the tracker test failed at
        // random (whenever the makers' requotes fell in such a step).
        for (let t = v.nextTimerMs(); t !== undefined && t <= target && running(); t = v.nextTimerMs()) {
          v.advanceTo(Math.max(t, v.nowMs()));
          await Promise.resolve(); // the flush: this instant's book changes carry this instant
          // Requests read while we yield to I/O come after the timers of this instant (the minute
          // sample among them), so they must not share its timestamp: 1 µs later.
          if (running()) v.advanceTo(v.nowMs() + 0.001);
          await new Promise<void>((r) => setImmediate(r));
        }
        if (running()) v.advanceTo(Math.max(target, v.nowMs()));
        stepping = false;
      })();
    }, 1);
    baseClock = v;
  }
  const venue = await startVenue({ port: 0, config: o.venueConfig ?? {}, clock: baseClock });
  const closers: (() => Promise<void>)[] = [
    async () => {
      if (driver) clearInterval(driver);
      driver = null;
      await venue.stop();
    },
  ];
  try {
    const proxy = o.viaProxy ? await startFaultProxy(venue.baseUrl) : null;
    if (proxy) closers.unshift(() => proxy.close());
    const conn = await connectVenue({
      baseUrl: proxy ? proxy.baseUrl : venue.baseUrl,
      clock,
      credentials: { apiKey: venue.credentials.api_key, apiSecret: venue.credentials.api_secret },
      reconnect: { initialMs: 50, maxMs: 250, multiplier: 2, jitter: 0 },
      ...(o.staleAfterMs !== undefined ? { staleAfterMs: o.staleAfterMs } : {}),
    });
    closers.unshift(() => conn.close());
    const def = await loadStrategy('fixed-spread');
    const symbol = o.symbol as Symbol;
    const engine = createEngine({
      clock,
      scheduler: asyncScheduler,
      gateway: conn.gateway,
      accounts: conn.accounts,
      instruments: conn.instruments,
      strategies: [{ id: `fixed-spread:${symbol}`, symbol, strategy: def.create(parseStrategyParams(def, o.strategyParams ?? {})) }],
      risk: DEFAULT_RISK_CONFIG,
      execution: DEFAULT_EXECUTION_CONFIG,
      orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
    });
    closers.unshift(async () => void (await engine.stop({ timeoutMs: 2_000 })));
    const config: MonitoringConfig = {
      monitoring: { enabled: true, host: '127.0.0.1', port: 0 },
      rewards: { enabled: o.rewardPollMs !== undefined, poll_interval_ms: o.rewardPollMs ?? 60_000 },
      bot: { strategies: [{ symbol }] },
    };
    const silent = { info() {}, warn() {}, error() {} };
    const monitoring = await startMonitoring({
      config,
      engine,
      clients: { orders: conn.orders, md: conn.marketData, rest: conn.rest },
      log: silent,
      clock,
      instruments: conn.instruments,
      rewardModel: {
        params: o.rewardParams ?? DEFAULT_REWARD_SCORE_PARAMS,
        ...(o.rewardEpochMs !== undefined ? { epochMs: o.rewardEpochMs } : {}),
        venueClock: venue.venue.clock,
        ...(o.rewardSampleLagMs !== undefined ? { sampleLagMs: o.rewardSampleLagMs } : {}),
      },
    });
    closers.unshift(() => monitoring.stop());
    conn.marketData.subscribeBook(symbol, o.bookLevel ?? 2, { trades: true, ticker: true });
    const inputs: EngineInputs = {
      market$: conn.marketData.market$,
      orders$: conn.orders.events$,
      resync$: conn.orders.resync$,
      connection$: merge(conn.orders.connection$, conn.marketData.connection$),
      rewards$: monitoring.rewards$,
    };
    engine.start(inputs);
    return {
      venue,
      conn,
      engine,
      monitoring,
      symbol,
      proxy,
      freezeVenueClock() {
        if (!o.virtualVenue) throw new Error('freezeVenueClock needs the virtualVenue option');
        frozen = true;
      },
      async stop() {
        for (const c of closers) await c().catch(() => undefined);
      },
    };
  } catch (e) {
    for (const c of closers) await c().catch(() => undefined);
    throw e;
  }
}

/** Polls `cond` every 50 ms until true or `timeoutMs` (then throws `what`). */
export async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
