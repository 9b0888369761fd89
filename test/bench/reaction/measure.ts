/**
 * `npm run bench:reaction [-- <LOBSTER folder>...]`: how fast, and how often, a real order book
 * answers an order that improves the touch inside a spread of two ticks or more, measured on
 * LOBSTER message files (default: the AMZN and AAPL 2012-06-21 folders of ../shared/data beside
 * the repo). The figures are the defaults of `backtest.reaction` (src/backtest/README.md, "Competitor
 * reaction"). The repo's tests never read the data folder; only this script does.
 *
 * An improver is a submission (type 1) priced strictly better than its side's best and strictly
 * inside the spread just before it. It is answered when another submission on its side joins at its
 * price or better (and inside the spread) while it still rests; it leaves when it is deleted or
 * fully executed. Delays are in ms of exchange time.
 */
import { readdirSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { answeredWhileResting, lognormalFit, quantileSorted, type ReactionMeasure } from './reaction-stats.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

interface Improver {
  readonly id: number;
  readonly side: 1 | -1;
  readonly price: number;
  readonly t0: number;
  left: number;
  /** The spread in ticks after it joined (≥ 2: a competitor can step one tick ahead). */
  readonly room: number;
}

/** Reads a gzipped CSV line by line. */
async function* lines(path: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of rl) if (line) yield line;
}

/** Measures one LOBSTER folder (message + orderbook files of one day). */
async function measure(folder: string, horizonMs: number): Promise<ReactionMeasure & { readonly folder: string }> {
  const files = readdirSync(folder);
  const msg = join(folder, files.find((f) => f.includes('message'))!);
  const book = join(folder, files.find((f) => f.includes('orderbook'))!);
  const bookLines = lines(book);
  const tick = 100; // prices in 1e-4 USD, 1-cent tick
  let prevAsk = NaN;
  let prevBid = NaN;
  const active: Improver[] = [];
  let improvers = 0;
  let answered = 0;
  let answeredAhead = 0;
  let leftUnanswered = 0;
  let answeredWithRoom = 0;
  let improversWithRoom = 0;
  const delays: number[] = [];
  const sizes: number[] = [];
  const lifetimes: number[] = [];
  /** (time from joining, answered?) per improver: answered ones are events, the rest censored (Kaplan–Meier). */
  const outcomes: [number, boolean][] = [];
  for await (const m of lines(msg)) {
    const b = (await bookLines.next()).value as string;
    const f = m.split(',');
    const t = Number(f[0]) * 1000;
    const type = Number(f[1]);
    const id = Number(f[2]);
    const size = Number(f[3]);
    const price = Number(f[4]);
    const dir = Number(f[5]) as 1 | -1;
    // Expire improvers past the horizon (counted as not answered in time).
    for (let k = active.length - 1; k >= 0; k--) {
      const x = active[k]!;
      if (t - x.t0 > horizonMs) {
        lifetimes.push(horizonMs);
        outcomes.push([horizonMs, false]);
        active.splice(k, 1);
      }
    }
    if (type === 1) {
      for (let k = active.length - 1; k >= 0; k--) {
        const x = active[k]!;
        if (x.side !== dir || x.id === id) continue;
        const atOrBetter = dir === 1 ? price >= x.price : price <= x.price;
        const inside = dir === 1 ? price < prevAsk : price > prevBid;
        if (!atOrBetter || !inside) continue;
        answered++;
        if (price !== x.price) answeredAhead++;
        if (x.room >= 2) answeredWithRoom++;
        delays.push(t - x.t0);
        sizes.push(size);
        lifetimes.push(t - x.t0);
        outcomes.push([t - x.t0, true]);
        active.splice(k, 1);
      }
      const improves = dir === 1 ? price > prevBid && price < prevAsk : price < prevAsk && price > prevBid;
      if (improves && prevAsk - prevBid >= 2 * tick) {
        improvers++;
        const room = Math.round((dir === 1 ? prevAsk - price : price - prevBid) / tick);
        if (room >= 2) improversWithRoom++;
        active.push({ id, side: dir, price, t0: t, left: size, room });
      }
    } else if (type === 2 || type === 3 || type === 4) {
      const k = active.findIndex((x) => x.id === id);
      if (k >= 0) {
        const x = active[k]!;
        x.left -= size;
        if (type === 3 || x.left <= 0) {
          leftUnanswered++;
          lifetimes.push(t - x.t0);
          outcomes.push([t - x.t0, false]);
          active.splice(k, 1);
        }
      }
    }
    const row = b.split(',');
    prevAsk = Number(row[0]);
    prevBid = Number(row[2]);
  }
  delays.sort((a, c) => a - c);
  sizes.sort((a, c) => a - c);
  lifetimes.sort((a, c) => a - c);
  return {
    folder,
    horizonMs,
    improvers,
    answered,
    answeredShare: answered / improvers,
    answeredAheadShare: answered > 0 ? answeredAhead / answered : 0,
    leftUnansweredShare: leftUnanswered / improvers,
    answeredWithRoomShare: improversWithRoom > 0 ? answeredWithRoom / improversWithRoom : 0,
    delayMs: { p25: quantileSorted(delays, 0.25), p50: quantileSorted(delays, 0.5), p75: quantileSorted(delays, 0.75) },
    delayLognormal: lognormalFit(delays),
    sizeP50: quantileSorted(sizes, 0.5),
    answeredWhileRestingByMs: answeredWhileResting(outcomes, [10, 100, 1000, horizonMs]),
    lifetimeP50Ms: quantileSorted(lifetimes, 0.5),
  };
}

const args = process.argv.slice(2);
const dataDir = resolve(ROOT, '../shared/data');
const folders = args.length > 0 ? args.map((a) => resolve(a)) : ['amzn-2012-06-21-lobster-L5', 'aapl-2012-06-21-lobster-L1'].map((f) => join(dataDir, f));
for (const folder of folders) {
  const r = await measure(folder, 5_000);
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
