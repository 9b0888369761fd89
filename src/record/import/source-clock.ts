/** Which source timestamp drives the recording's clock. */
export type ClockMode = 'exchange' | 'local';

/** An event's venue time and our receive time, epoch ms. */
export interface Stamp {
  eventMs: number;
  recvMs: number;
}

/**
 * Turns a source's two timestamps (exchange, local; µs) into recording times. In `exchange` mode
 * (default) the venue time is the exchange's and the receive time is the venue time plus the
 * latency jitter the source saw: local − exchange in excess of the smallest difference seen so far
 * (the recorder's clock may be offset by seconds either way), plus a base latency: `feedLatencyMs`
 * when given, else the recorded one, that smallest difference, when it is not negative (a recorder
 * clock behind the exchange's, as in the shared BTCUSDT capture, says nothing about latency: base 0).
 * With a base of the recorded difference, receive time = local time whenever local ≥ exchange.
 * In `local` mode the source's clocks are trusted as they are. Receive times never go back (one
 * stream, received in order).
 */
export class SourceClock {
  #minDiffUs = Infinity;
  #lastRecvMs = -Infinity;
  readonly #stamp: Stamp = { eventMs: 0, recvMs: 0 };

  constructor(
    readonly mode: ClockMode,
    /** Base feed latency, ms; null = the recorded difference (see above). */
    readonly feedLatencyMs: number | null,
  ) {}

  /** Stamps one event; the returned object is reused by the next call. */
  stamp(exchangeUs: number, localUs: number): Stamp {
    let recvMs: number;
    if (this.mode === 'local') {
      recvMs = localUs / 1000 + (this.feedLatencyMs ?? 0);
    } else {
      const diff = localUs - exchangeUs;
      if (diff < this.#minDiffUs) this.#minDiffUs = diff;
      const baseMs = this.feedLatencyMs ?? Math.max(0, this.#minDiffUs) / 1000;
      recvMs = (exchangeUs + (diff - this.#minDiffUs)) / 1000 + baseMs;
    }
    if (recvMs < this.#lastRecvMs) recvMs = this.#lastRecvMs;
    this.#lastRecvMs = recvMs;
    this.#stamp.eventMs = exchangeUs / 1000;
    this.#stamp.recvMs = recvMs;
    return this.#stamp;
  }
}
