/**
 * Contracts one side of a symbol may still add to its working orders (before the size and band
 * clips), so that no order takes |position| past `maxPosition`. `lingering` is that side's
 * exposure the next ladder will not replace (pending cancel, unknown outcome).
 *
 * ACTIVE: the distance from the position to the cap on that side. REDUCING: only the side that
 * shrinks |position|, by at most the position and at most `maxPosition`. The second bound matters
 * when the position is wrong: the room of a position taken from a fill the venue never made
 * (a ghost of 5,000 against a real −300) was the whole phantom, and selling it took the real
 * position far past the cap; capped, a reducing ladder never has more than `maxPosition` working
 * on its side, and a real position over the cap is still worked down as fills come in. Pure.
 */
export function positionRoom(side: 'buy' | 'sell', position: number, maxPosition: number, lingering: number, reducing: boolean): number {
  const toward = side === 'buy' ? -position : position; // how far this side moves the position toward flat
  const room = reducing ? Math.min(toward, maxPosition) : maxPosition + toward;
  return Math.max(0, room - lingering);
}
