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

/** How a make-before-break rollover treats the new connection and the old one. */
export interface RolloverOptions {
  /** URL and headers of the new connection (typically with a fresh token). */
  readonly prepare: () => Promise<{ readonly url: string; readonly headers: Readonly<Record<string, string>> }>;
  /** Sees each frame of the new connection until it returns true (e.g. on the login reply): the new connection then becomes current. */
  readonly accept: (text: string) => boolean;
  /** Frames still arriving on the old connection after the switch, until it is closed (late replies, events). */
  readonly onOldFrame: (text: string) => void;
  /** Give up (the old connection stays current) when the new one has not been accepted by then, ms. */
  readonly timeoutMs: number;
  /** The old connection is closed cleanly (code 1000) this long after the switch, so replies in flight on it arrive, ms. */
  readonly drainMs: number;
  /**
   * What was in flight on the old connection at the switch (called then). The old connection stays
   * open past `drainMs` until `settled()` (every reply arrived), at most `maxDrainMs`; requests
   * still unanswered then are `abandon()`ed as it closes, so they fail at once instead of at their
   * deadline.
   */
  readonly inFlightAtSwitch?: () => InFlight;
  /** The longest drain while replies are awaited, ms (default `drainMs`). */
  readonly maxDrainMs?: number;
}

/** Requests in flight on a connection being retired. */
export interface InFlight {
  settled(): boolean;
  abandon(): void;
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
  /** A rollover's new connection, until it is accepted or abandoned. */
  #candidate: SocketLike | undefined;
  /** The previous connection while it drains after a rollover: its generation and frame sink. */
  #draining: { readonly gen: number; readonly socket: SocketLike; readonly onFrame: (text: string) => void } | undefined;
  /** Successful opens. */
  opens = 0;
  /** Lost sessions and failed attempts. */
  downs = 0;
  /** Pings received and pongs received (both count as liveness). */
  pings = 0;
  pongs = 0;
  /** Pings we sent to probe a quiet peer. */
  probes = 0;
  /** Completed make-before-break rollovers, and attempts that failed (the old connection was kept). */
  rollovers = 0;
  rolloverFailures = 0;

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

  /**
   * Make-before-break: opens a second connection (`o.prepare`, so a fresh token) while the current one
   * stays open and in use; once `o.accept` accepts a frame of the new connection (its login), the new
   * connection becomes current (sends and frames switch to it), and the old one drains for
   * `o.drainMs` (its late frames go to `o.onOldFrame`) before a clean close (1000). Resolves true
   * on the switch, false when the new connection failed or was not accepted in time (the old one is
   * untouched). Only while open, one at a time.
   */
  rollover(o: RolloverOptions): Promise<boolean> {
    if (this.#phase.value !== 'open' || this.#candidate) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let settled = false;
      let myGen = -1;
      let cand: SocketLike | undefined;
      const cancelTimeout = this.#o.clock.setTimer(o.timeoutMs, () => fail());
      const finish = (ok: boolean): void => {
        if (settled) return;
        settled = true;
        cancelTimeout();
        if (ok) this.rollovers++;
        else this.rolloverFailures++;
        resolve(ok);
      };
      const fail = (): void => {
        if (settled) return;
        if (this.#candidate === cand) this.#candidate = undefined;
        cand?.terminate();
        finish(false);
      };
      const promote = (): void => {
        if (this.#phase.value !== 'open') return fail();
        const old = this.#socket;
        const oldGen = this.#gen;
        this.#candidate = undefined;
        this.#cancelIdle?.();
        this.#cancelIdle = undefined;
        this.#gen++;
        myGen = this.#gen;
        this.#socket = cand;
        this.#openedMs = this.#lastFrameMs = this.#o.clock.nowMs();
        this.#armIdle(myGen);
        if (old) this.#drain(oldGen, old, o);
        finish(true);
      };
      o.prepare()
        .then(({ url, headers }) => {
          if (settled) return;
          if (this.#phase.value !== 'open') return fail();
          cand = this.#o.factory(url, headers, {
            onOpen: () => undefined,
            onMessage: (text) => {
              if (!settled) {
                if (o.accept(text)) promote();
                return;
              }
              if (myGen !== this.#gen || this.#phase.value === 'stopped') return;
              this.#lastFrameMs = this.#o.clock.nowMs();
              this.#o.onFrame(text);
            },
            onControl: (kind) => {
              if (myGen !== this.#gen || this.#phase.value === 'stopped') return;
              this.#lastFrameMs = this.#o.clock.nowMs();
              if (kind === 'pong') this.pongs++;
              else this.pings++;
            },
            onClose: (code, reason) => {
              if (!settled) return fail();
              if (this.#phase.value === 'stopped') {
                if (myGen === this.#gen) this.#finishStop();
                return;
              }
              if (myGen !== this.#gen) return;
              this.#teardown();
              this.#down({ reason: `closed (${code}${reason ? ` ${reason}` : ''})`, wasOpen: true });
            },
            onError: (err, httpStatus) => {
              if (!settled) return fail();
              if (myGen !== this.#gen || this.#phase.value === 'stopped') return;
              const s = this.#socket;
              this.#teardown();
              s?.terminate();
              this.#down({ reason: err.message, wasOpen: true, ...(httpStatus !== undefined ? { httpStatus } : {}) });
            },
          });
          this.#candidate = cand;
        })
        .catch(() => fail());
    });
  }

  /**
   * Lets the old connection's late frames through for `drainMs`, and on until the replies in flight
   * on it have arrived (at most `maxDrainMs`), then closes it cleanly.
   */
  #drain(gen: number, socket: SocketLike, o: RolloverOptions): void {
    this.#draining = { gen, socket, onFrame: o.onOldFrame };
    const inFlight = o.inFlightAtSwitch?.();
    const { clock } = this.#o;
    const untilMs = clock.nowMs() + Math.max(o.drainMs, o.maxDrainMs ?? o.drainMs);
    const close = (): void => {
      if (this.#draining?.socket === socket) this.#draining = undefined;
      if (inFlight && !inFlight.settled()) inFlight.abandon();
      try {
        socket.close(1000, 'session rollover');
      } catch {
        socket.terminate();
      }
    };
    const check = (): void => {
      if (this.#draining?.socket !== socket) return; // stopped meanwhile: closed already
      if (!inFlight || inFlight.settled() || clock.nowMs() >= untilMs) close();
      else clock.setTimer(Math.max(1, o.drainMs / 4), check);
    };
    clock.setTimer(o.drainMs, check);
  }

  /** Stops for good: closes the socket and cancels timers. Resolves once closed. */
  stop(): Promise<void> {
    if (this.#phase.value === 'stopped') return Promise.resolve();
    this.#candidate?.terminate();
    this.#candidate = undefined;
    if (this.#draining) {
      this.#draining.socket.close(1000, 'client stop');
      this.#draining = undefined;
    }
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
            if (gen !== this.#gen || this.#phase.value === 'stopped') {
              if (this.#draining?.gen === gen && this.#phase.value !== 'stopped') this.#draining.onFrame(text);
              return;
            }
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
    // A rollover in progress is moot once the current session is gone.
    const cand = this.#candidate;
    this.#candidate = undefined;
    cand?.terminate();
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
    let verdictDue = false;
    const check = (): void => {
      if (gen !== this.#gen) return;
      const silentMs = this.#o.clock.nowMs() - this.#lastFrameMs;
      if (silentMs >= idle) {
        if (!verdictDue) {
          // After an event-loop stall (GC, a starved CPU) due timers run before the sockets are
          // read: frames that arrived during the stall are still unread when this check first sees
          // the silence. Judge again one turn later, after the I/O phase, not on a stale reading
          // (a loaded CI box dropped healthy sessions this way).
          verdictDue = true;
          this.#cancelIdle = this.#o.clock.setTimer(1, check);
          return;
        }
        this.reconnect(`no frame, ping or pong for ${Math.round(silentMs)} ms`);
        return;
      }
      verdictDue = false;
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
