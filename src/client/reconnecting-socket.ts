import { BehaviorSubject, type Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { backoffDelayMs, type BackoffPolicy } from './backoff.ts';
import type { SocketFactory, SocketLike } from './socket.ts';

/** A session open at least this long resets the reconnect backoff, ms. */
const STABLE_SESSION_MS = 1_000;

/** Where a reconnecting socket is in its life. */
export type SocketPhase = 'idle' | 'connecting' | 'open' | 'backoff' | 'stopped';

/** Why a connection ended (passed to `onDown`). */
export interface DownInfo {
  readonly reason: string;
  /** True when the transport had opened (a session was lost), false for a failed attempt. */
  readonly wasOpen: boolean;
  /** HTTP status of a refused upgrade (401, 403...), when that is why. */
  readonly httpStatus?: number;
}

/** Options of a reconnecting socket. */
export interface ReconnectingSocketOptions {
  readonly name: string;
  readonly clock: Clock;
  readonly factory: SocketFactory;
  /** Builds the URL and upgrade headers of each attempt (a fresh token each time). */
  readonly prepare: () => Promise<{ readonly url: string; readonly headers: Readonly<Record<string, string>> }>;
  readonly backoff: BackoffPolicy;
  readonly random: () => number;
  /** Deadline for the upgrade to complete, ms. */
  readonly connectTimeoutMs: number;
  /**
   * Nothing at all from the peer (data frame, ping or pong) for this long → the session is presumed
   * dead and replaced (0 = off). After half of it in silence we ping, so a quiet but healthy peer
   * answers with a pong and is kept.
   */
  readonly idleTimeoutMs: number;
  readonly onOpen: () => void;
  readonly onFrame: (text: string) => void;
  readonly onDown: (info: DownInfo) => void;
}

/**
 * One logical connection that survives socket losses: connects, reconnects with jittered
 * exponential backoff on the injected clock, and declares a silent socket dead after
 * `idleTimeoutMs`. Each attempt gets a generation number so late callbacks from an old socket are
 * ignored.
 */
export class ReconnectingSocket {
  readonly #o: ReconnectingSocketOptions;
  readonly #phase = new BehaviorSubject<SocketPhase>('idle');
  #socket: SocketLike | undefined;
  #gen = 0;
  #attempt = 0;
  #cancelTimer: (() => void) | undefined;
  #cancelIdle: (() => void) | undefined;
  #lastFrameMs = 0;
  #openedMs = 0;
  #stopWaiters: (() => void)[] = [];
  /** Successful opens. */
  opens = 0;
  /** Lost sessions and failed attempts. */
  downs = 0;
  /** Pings received and pongs received (both count as liveness). */
  pings = 0;
  pongs = 0;
  /** Pings we sent to probe a quiet peer. */
  probes = 0;

  constructor(opts: ReconnectingSocketOptions) {
    this.#o = opts;
  }

  /** Phase changes (current phase replayed on subscribe). */
  get phase$(): Observable<SocketPhase> {
    return this.#phase.asObservable();
  }

  /** The current phase. */
  get phase(): SocketPhase {
    return this.#phase.value;
  }

  /** Starts connecting (no-op unless idle). */
  start(): void {
    if (this.#phase.value !== 'idle') return;
    this.#connect();
  }

  /** Sends a text frame; false when no socket is open (nothing was sent). */
  send(text: string): boolean {
    if (this.#phase.value !== 'open' || !this.#socket) return false;
    this.#socket.send(text);
    return true;
  }

  /** Drops the current session and reconnects after backoff (e.g. heartbeat or protocol failure). */
  reconnect(reason: string): void {
    if (this.#phase.value === 'stopped') return;
    const s = this.#socket;
    const wasOpen = this.#phase.value === 'open';
    this.#teardown();
    s?.terminate();
    this.#down({ reason, wasOpen });
  }

  /** Stops for good: closes the socket and cancels timers. Resolves once closed. */
  stop(): Promise<void> {
    if (this.#phase.value === 'stopped') return Promise.resolve();
    const s = this.#socket;
    const wasOpen = this.#phase.value === 'open';
    this.#cancelTimers();
    this.#phase.next('stopped');
    if (!s) this.#gen++;
    if (wasOpen) this.#o.onDown({ reason: 'stopped', wasOpen: true });
    if (!s) {
      this.#phase.complete();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.#stopWaiters.push(resolve);
      const gen = this.#gen;
      // The close handshake is polite; do not wait on a venue that stopped answering.
      const cancel = this.#o.clock.setTimer(500, () => {
        if (gen === this.#gen) s.terminate();
        this.#finishStop();
      });
      this.#stopWaiters.push(cancel);
      try {
        s.close(1000, 'client stop');
      } catch {
        s.terminate();
      }
    });
  }

  #finishStop(): void {
    const waiters = this.#stopWaiters;
    this.#stopWaiters = [];
    for (const w of waiters) w();
    if (!this.#phase.closed) this.#phase.complete();
  }

  #connect(): void {
    const gen = ++this.#gen;
    this.#phase.next('connecting');
    const timeout = this.#o.clock.setTimer(this.#o.connectTimeoutMs, () => {
      if (gen !== this.#gen || this.#phase.value !== 'connecting') return;
      const s = this.#socket;
      this.#teardown();
      s?.terminate();
      this.#down({ reason: `connect timeout after ${this.#o.connectTimeoutMs} ms`, wasOpen: false });
    });
    this.#cancelTimer = timeout;
    this.#o
      .prepare()
      .then(({ url, headers }) => {
        if (gen !== this.#gen || this.#phase.value === 'stopped') return;
        this.#socket = this.#o.factory(url, headers, {
          onOpen: () => {
            if (gen !== this.#gen || this.#phase.value === 'stopped') return;
            this.#cancelTimer?.();
            this.#cancelTimer = undefined;
            this.#openedMs = this.#o.clock.nowMs();
            this.opens++;
            this.#lastFrameMs = this.#o.clock.nowMs();
            this.#phase.next('open');
            this.#armIdle(gen);
            this.#o.onOpen();
          },
          onMessage: (text) => {
            if (gen !== this.#gen || this.#phase.value === 'stopped') return;
            this.#lastFrameMs = this.#o.clock.nowMs();
            this.#o.onFrame(text);
          },
          onControl: (kind) => {
            if (gen !== this.#gen || this.#phase.value === 'stopped') return;
            this.#lastFrameMs = this.#o.clock.nowMs();
            if (kind === 'pong') this.pongs++;
            else this.pings++;
          },
          onClose: (code, reason) => {
            if (this.#phase.value === 'stopped') {
              if (gen === this.#gen) this.#finishStop();
              return;
            }
            if (gen !== this.#gen) return;
            const wasOpen = this.#phase.value === 'open';
            this.#teardown();
            this.#down({ reason: `closed (${code}${reason ? ` ${reason}` : ''})`, wasOpen });
          },
          onError: (err, httpStatus) => {
            if (gen !== this.#gen || this.#phase.value === 'stopped') return;
            const wasOpen = this.#phase.value === 'open';
            const s = this.#socket;
            this.#teardown();
            s?.terminate();
            this.#down({ reason: err.message, wasOpen, ...(httpStatus !== undefined ? { httpStatus } : {}) });
          },
        });
      })
      .catch((err: unknown) => {
        if (gen !== this.#gen) return;
        this.#teardown();
        this.#down({ reason: `cannot prepare connection: ${err instanceof Error ? err.message : String(err)}`, wasOpen: false });
      });
  }

  /** Invalidates the current generation and cancels its timers. */
  #teardown(): void {
    this.#gen++;
    this.#socket = undefined;
    this.#cancelTimers();
  }

  #cancelTimers(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#cancelIdle?.();
    this.#cancelIdle = undefined;
  }

  #down(info: DownInfo): void {
    this.downs++;
    // Only a session that lived a while resets the backoff: a venue that accepts and at once drops
    // (bad token after the upgrade, overload) must not be hammered at the initial delay.
    if (info.wasOpen && this.#o.clock.nowMs() - this.#openedMs >= STABLE_SESSION_MS) this.#attempt = 0;
    this.#o.onDown(info);
    if (this.#phase.value === 'stopped') return;
    const delay = backoffDelayMs(this.#o.backoff, this.#attempt++, this.#o.random);
    this.#phase.next('backoff');
    this.#cancelTimer = this.#o.clock.setTimer(delay, () => {
      this.#cancelTimer = undefined;
      if (this.#phase.value === 'backoff') this.#connect();
    });
  }

  #armIdle(gen: number): void {
    const idle = this.#o.idleTimeoutMs;
    if (!(idle > 0)) return;
    // A periodic check rather than a timer re-armed per frame keeps the hot path free of timer churn.
    const check = (): void => {
      if (gen !== this.#gen) return;
      const silentMs = this.#o.clock.nowMs() - this.#lastFrameMs;
      if (silentMs >= idle) {
        this.reconnect(`no frame, ping or pong for ${Math.round(silentMs)} ms`);
        return;
      }
      if (silentMs >= idle / 2 && this.#socket?.ping) {
        // Quiet is not dead: ask the peer for a pong before giving up on it.
        this.#socket.ping();
        this.probes++;
      }
      this.#cancelIdle = this.#o.clock.setTimer(Math.max(1, Math.min(idle / 4, idle - silentMs)), check);
    };
    this.#cancelIdle = this.#o.clock.setTimer(Math.max(1, idle / 4), check);
  }
}
