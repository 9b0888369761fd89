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
 * (the recorder's clock may be offset by seconds either way, so the raw difference means nothing),
 * plus a fixed `feedLatencyMs`. In `local` mode the source's clocks are trusted as they are. Receive
 * times never go back (one stream, received in order).
 */
export class SourceClock {
  #minDiffUs = Infinity;
  #lastRecvMs = -Infinity;
  readonly #stamp: Stamp = { eventMs: 0, recvMs: 0 };

  constructor(
    readonly mode: ClockMode,
    readonly feedLatencyMs: number,
  ) {}

  /** Stamps one event; the returned object is reused by the next call. */
  stamp(exchangeUs: number, localUs: number): Stamp {
    let recvMs: number;
    if (this.mode === 'local') {
      recvMs = localUs / 1000 + this.feedLatencyMs;
    } else {
      const diff = localUs - exchangeUs;
      if (diff < this.#minDiffUs) this.#minDiffUs = diff;
      recvMs = (exchangeUs + (diff - this.#minDiffUs)) / 1000 + this.feedLatencyMs;
    }
    if (recvMs < this.#lastRecvMs) recvMs = this.#lastRecvMs;
    this.#lastRecvMs = recvMs;
    this.#stamp.eventMs = exchangeUs / 1000;
    this.#stamp.recvMs = recvMs;
    return this.#stamp;
  }
}
