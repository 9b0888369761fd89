import type { Symbol } from '../core/ids.ts';
import { seededRandomU32 } from '../core/ulid.ts';
import type { BookLevel } from '../domain/book.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { RecordedEvent } from '../record/format.ts';

/** Knobs of the synthetic order-level day (the shape of a LOBSTER depth-5 stock day by default). */
export interface SyntheticL3DayOptions {
  readonly instrument: Instrument;
  readonly seed: number;
  readonly startMs: number;
  /** Market messages (order adds, cancels, executions) to generate. Default 156,000. */
  readonly messages?: number;
  /** Venue time they spread over. Default 6.5 h (09:30–16:00). */
  readonly durationMs?: number;
  /** Initial mid in ticks. */
  readonly midTicks: number;
  /** Levels a side the recording shows (LOBSTER L5: 5). */
  readonly depth?: number;
}

interface Level {
  readonly qty: number[];
  readonly ids: number[];
}

/**
 * A seeded order-level (L3, with order ids) market day, for the memory and throughput bench on
 * machines without the real AMZN day: order adds (round lots mostly, at or near the touch, some
 * inside the spread), cancels (whole or part, anywhere in a queue), executions against the front of
 * the touch (a print, then the book), and a few hidden executions (prints that change no book). The
 * book is kept deeper than it is shown; each message that changes the top `depth` levels a side
 * yields one delta with those levels' whole order lists and ids (a level leaving the top as removed),
 * like `mmbot import lobster`. ~156k messages give ~165k events over 6.5 h, as the AMZN day does.
 */
export function* syntheticL3Day(o: SyntheticL3DayOptions): Generator<RecordedEvent, void, undefined> {
  const rand = seededRandomU32(o.seed);
  const u = (): number => rand() / 4294967296;
  const depth = o.depth ?? 5;
  const messages = o.messages ?? 156_000;
  const gapMs = (o.durationMs ?? 23_400_000) / messages;
  const sym = o.instrument.symbol as Symbol;
  const sides = [new Map<number, Level>(), new Map<number, Level>()]; // 0 bids, 1 asks
  let nextId = 1;
  const size = (): number => (u() < 0.6 ? 100 : 1 + Math.floor(u() * 500));
  const add = (side: number, p: number, q: number): void => {
    const m = sides[side]!;
    let l = m.get(p);
    if (!l) m.set(p, (l = { qty: [], ids: [] }));
    l.qty.push(q);
    l.ids.push(nextId++);
  };
  const best = (side: number): number => {
    let b = side === 0 ? -Infinity : Infinity;
    for (const p of sides[side]!.keys()) b = side === 0 ? Math.max(b, p) : Math.min(b, p);
    return b;
  };
  for (let k = 0; k < 12; k++)
    for (let n = 0; n < 3; n++) {
      add(0, o.midTicks - 1 - k, size());
      add(1, o.midTicks + 1 + k, size());
    }
  /** The top `depth` levels a side as shown, best first. */
  const shown = (side: number): BookLevel[] =>
    [...sides[side]!]
      .sort(([a], [b]) => (side === 0 ? b - a : a - b))
      .slice(0, depth)
      .map(([p, l]) => ({ priceTicks: p, qty: l.qty.reduce((a, b) => a + b, 0), orders: [...l.qty], orderIds: [...l.ids] }));
  const key = (l: BookLevel): string => `${l.priceTicks}:${l.orders!.join(',')}:${l.orderIds!.join(',')}`;
  let last: [Map<number, string>, Map<number, string>] = [new Map(), new Map()];
  /** The shown levels that changed since the last frame (removed ones as qty 0), per side. */
  const changes = (): [BookLevel[], BookLevel[]] => {
    const out: [BookLevel[], BookLevel[]] = [[], []];
    const now: [Map<number, string>, Map<number, string>] = [new Map(), new Map()];
    for (const side of [0, 1]) {
      for (const l of shown(side)) {
        now[side]!.set(l.priceTicks, key(l));
        if (last[side]!.get(l.priceTicks) !== key(l)) out[side]!.push(l);
      }
      for (const p of last[side]!.keys()) if (!now[side]!.has(p)) out[side]!.push({ priceTicks: p, qty: 0, orders: [], orderIds: [] });
    }
    last = now;
    return out;
  };
  let t = o.startMs;
  let lastRecv = -Infinity;
  // Receive time = venue time (an exchange's own file: no feed latency), never going back.
  const recv = (): number => (lastRecv = Math.max(lastRecv, t));
  const first = changes();
  yield { type: 'book', symbol: sym, level: 3, isSnapshot: true, bids: first[0], asks: first[1], tsEvent: t, tsRecv: recv() };
  for (let n = 0; n < messages; n++) {
    t += Math.round(-Math.log(1 - u()) * gapMs * 1000) / 1000;
    const r = u();
    const side = u() < 0.5 ? 0 : 1;
    const bb = best(0);
    const ba = best(1);
    if (r < 0.42) {
      // An add: at the touch or up to 4 ticks behind it, sometimes one tick inside a wide spread.
      const inside = ba - bb > 1 && u() < 0.15;
      const p = side === 0 ? (inside ? bb + 1 : bb - Math.floor(u() * u() * 5)) : inside ? ba - 1 : ba + Math.floor(u() * u() * 5);
      add(side, p, size());
    } else if (r < 0.9) {
      // A cancel (a fifth of them partial) of any order near the touch, each as likely (so long
      // queues lose more orders and queue lengths stay like a stock's).
      const m = sides[side]!;
      const levels = [...m.keys()].sort((a, b) => (side === 0 ? b - a : a - b)).slice(0, depth + 2);
      let i = Math.floor(u() * levels.reduce((a, p) => a + m.get(p)!.qty.length, 0));
      let p = levels[0]!;
      for (const q of levels) {
        const len = m.get(q)!.qty.length;
        if (i < len) {
          p = q;
          break;
        }
        i -= len;
      }
      const l = m.get(p)!;
      if (u() < 0.2 && l.qty[i]! > 1) l.qty[i] = Math.ceil(l.qty[i]! / 2);
      else {
        l.qty.splice(i, 1);
        l.ids.splice(i, 1);
        if (l.qty.length === 0) m.delete(p);
      }
    } else if (r < 0.985) {
      // An execution: a taker on `side` trades the front of the opposite touch.
      const opp = 1 - side;
      const p = best(opp);
      const l = sides[opp]!.get(p)!;
      const q = Math.min(l.qty[0]!, u() < 0.7 ? l.qty[0]! : 1 + Math.floor(u() * l.qty[0]!));
      yield { type: 'trade', symbol: sym, priceTicks: p, qty: q, aggressor: side === 0 ? 'buy' : 'sell', tsEvent: t, tsRecv: recv() };
      if (q === l.qty[0]) {
        l.qty.shift();
        l.ids.shift();
        if (l.qty.length === 0) sides[opp]!.delete(p);
      } else l.qty[0] = l.qty[0]! - q;
    } else {
      // A hidden execution: a print at the touch that no displayed order made.
      yield { type: 'trade', symbol: sym, priceTicks: side === 0 ? ba : bb, qty: 1 + Math.floor(u() * 200), aggressor: side === 0 ? 'buy' : 'sell', condition: 'hidden', tsEvent: t, tsRecv: recv() };
      continue;
    }
    // Keep both sides deeper than shown (refill a thin side behind its last level) but bounded (the
    // levels left far behind a moving market are dropped: nobody sees or trades them).
    for (const s of [0, 1]) {
      const m = sides[s]!;
      while (m.size < depth + 3) {
        const ps = [...m.keys()];
        add(s, s === 0 ? Math.min(...ps) - 1 : Math.max(...ps) + 1, size());
      }
      if (m.size > 3 * depth) for (const p of [...m.keys()].sort((a, b) => (s === 0 ? b - a : a - b)).slice(3 * depth)) m.delete(p);
    }
    const [b, a] = changes();
    if (b.length + a.length > 0) yield { type: 'book', symbol: sym, level: 3, isSnapshot: false, bids: b, asks: a, tsEvent: t, tsRecv: recv() };
  }
}
