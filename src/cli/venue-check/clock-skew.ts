/**
 * The clock-skew reading of `mmbot venue check`: the venue's health timestamp against the midpoint
 * of our request's send and receive times (NTP's estimate with one sample). The venue's time is
 * somewhere in the round trip, so half of it bounds the error; a timestamp in whole seconds was
 * cut, not rounded, so the venue's real time lies up to 1 s after it.
 */

/** A skew estimate: venue minus ours, ms, and how far off the estimate may be. */
export interface ClockSkew {
  readonly skewMs: number;
  readonly uncertaintyMs: number;
  /** The venue's timestamp carried no fraction of a second. */
  readonly wholeSeconds: boolean;
}

/**
 * Estimates the skew from the venue's RFC 3339 time `venueTs` (fractions beyond ms ignored) read
 * by a request sent at `sentMs` and answered at `receivedMs` (our epoch ms).
 * @throws Error naming the timestamp when it is not a time.
 */
export function clockSkew(venueTs: string, sentMs: number, receivedMs: number): ClockSkew {
  const venueMs = Date.parse(venueTs.replace(/(\.\d{3})\d+/, '$1'));
  if (Number.isNaN(venueMs)) throw new Error(`the venue's health timestamp "${venueTs}" is not a time`);
  const wholeSeconds = !/T\d{2}:\d{2}:\d{2}\.\d/.test(venueTs);
  const halfTripMs = Math.ceil((receivedMs - sentMs) / 2);
  const middleMs = (sentMs + receivedMs) / 2;
  return wholeSeconds
    ? { skewMs: Math.round(venueMs + 500 - middleMs), uncertaintyMs: 500 + halfTripMs, wholeSeconds }
    : { skewMs: Math.round(venueMs - middleMs), uncertaintyMs: halfTripMs, wholeSeconds };
}
