/**
 * Make-before-break rollover of the order-entry session before its token expires. The venue closes
 * an order socket when the token of its upgrade expires, and cancel-on-disconnect would then pull
 * every quote; instead, well before expiry, a second connection is opened with a fresh token and
 * logged in, requests switch to it, and the old connection drains briefly and is closed cleanly,
 * which hands its orders to the new connection (see src/sim/server/order-ws.ts for the reading of
 * the venue's cancel-on-disconnect this relies on).
 */
import type { Clock } from '../core/clock.ts';
import type { InFlight, ReconnectingSocket } from './reconnecting-socket.ts';
import type { BearerUpgrade } from './ws-bearer.ts';

/** Options of the session rollover. */
export interface SessionRolloverOptions {
  readonly clock: Clock;
  readonly socket: ReconnectingSocket;
  readonly bearer: BearerUpgrade;
  /** The upgrade URL of a new connection. */
  readonly url: () => string;
  /** True when a frame of the new connection is its login reply (the session is usable). */
  readonly isLogin: (text: string) => boolean;
  /** Frames of the old connection after the switch (late replies and events). */
  readonly onOldFrame: (text: string) => void;
  /** Called after each completed rollover. */
  readonly onRolled: () => void;
  /** Roll over once the connection's token has lived this fraction of its lifetime (default 0.75). */
  readonly atFraction?: number | undefined;
  /** Deadline for the new connection's login, ms. */
  readonly loginTimeoutMs: number;
  /** How long the old connection drains before its clean close, ms (default 1000). */
  readonly drainMs?: number | undefined;
  /** The requests in flight at the switch: the old connection drains on until they are answered (see RolloverOptions). */
  readonly inFlightAtSwitch?: () => InFlight;
}

/** Margin kept between the end of the longest drain and the old token's expiry, ms. */
const EXPIRY_MARGIN_MS = 2_000;

/** Retry delay after a failed rollover while the token still has time left, ms. */
const RETRY_MS = 2_000;

/**
 * Schedules and runs rollovers for one order client: `armFor(token)` after each login (the token
 * the connection was opened with), `cancel()` when the session is lost. Events seen on both
 * connections during the overlap are reported once (`firstSighting`).
 */
export class SessionRollover {
  readonly #o: SessionRolloverOptions;
  #cancelTimer: (() => void) | undefined;
  #connToken: string | undefined;
  #overlapUntilMs = -Infinity;
  readonly #seen = new Set<string>();
  #running = false;
  /** Completed rollovers and failed attempts. */
  rollovers = 0;
  failures = 0;

  constructor(o: SessionRolloverOptions) {
    this.#o = o;
  }

  /** After a login on a connection opened with `token`: schedules its rollover before the token expires. */
  armFor(token: string | undefined): void {
    this.cancel();
    this.#connToken = token;
    const v = this.#o.bearer.validity(token);
    if (!v) return;
    const fraction = Math.min(0.9, Math.max(0.1, this.#o.atFraction ?? 0.75));
    const atMs = v.obtainedMs + (v.expiresAtMs - v.obtainedMs) * fraction;
    this.#schedule(Math.max(0, atMs - this.#o.clock.nowMs()), v.expiresAtMs);
  }

  /** The session was lost or stopped: no rollover until the next login. */
  cancel(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }

  /**
   * False when an event with this key (its `eid`, else its text) was already delivered during a
   * rollover's overlap, when both connections carry the account's events.
   */
  firstSighting(key: string): boolean {
    if (this.#o.clock.nowMs() >= this.#overlapUntilMs) {
      if (this.#seen.size > 0) this.#seen.clear();
      return true;
    }
    if (this.#seen.has(key)) return false;
    this.#seen.add(key);
    return true;
  }

  #schedule(delayMs: number, expiresAtMs: number): void {
    this.#cancelTimer?.();
    this.#cancelTimer = this.#o.clock.setTimer(delayMs, () => {
      this.#cancelTimer = undefined;
      void this.#run(expiresAtMs);
    });
  }

  async #run(expiresAtMs: number): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    const drainMs = this.#o.drainMs ?? 1_000;
    // Both connections carry events from the moment the new one logs in until the old one closes.
    this.#overlapUntilMs = Infinity;
    let fresh: string | undefined;
    const ok = await this.#o.socket
      .rollover({
        prepare: async () => {
          const headers = await this.#o.bearer.freshHeaders(this.#connToken);
          fresh = this.#o.bearer.last;
          return { url: this.#o.url(), headers };
        },
        accept: (text) => this.#o.isLogin(text),
        onOldFrame: this.#o.onOldFrame,
        timeoutMs: this.#o.loginTimeoutMs,
        drainMs,
        // Replies in flight may take longer than drainMs on a loaded machine: wait for them while the
        // old token is valid (the venue would close that connection at expiry and cancel its orders).
        maxDrainMs: Math.max(drainMs, expiresAtMs - this.#o.clock.nowMs() - EXPIRY_MARGIN_MS),
        ...(this.#o.inFlightAtSwitch ? { inFlightAtSwitch: this.#o.inFlightAtSwitch } : {}),
      })
      .finally(() => {
        this.#running = false;
      });
    const now = this.#o.clock.nowMs();
    this.#overlapUntilMs = ok ? now + drainMs + 2_000 : now + 2_000;
    if (ok) {
      this.rollovers++;
      this.armFor(fresh);
      this.#o.onRolled();
      return;
    }
    this.failures++;
    // Keep trying while the old token has time left; past it the venue closes the socket and the
    // ordinary reconnect takes over.
    if (now + RETRY_MS < expiresAtMs && this.#o.socket.phase === 'open') this.#schedule(RETRY_MS, expiresAtMs);
  }
}
