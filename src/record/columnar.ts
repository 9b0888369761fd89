import { MmError } from '../core/errors.ts';
import type { BookLevel } from '../domain/book.ts';
import type { Instrument } from '../domain/instrument.ts';
import { KIND, TRADE_CODE, type RecordedEvent, type RecordingHeader, type SessionEvent } from './format.ts';
import type { ColumnarRecording, SideEvent } from './columnar-types.ts';
import { existsSync } from 'node:fs';
import { columnarCacheFile, readColumnarCache, writeColumnarCache } from './columnar-cache.ts';
import { capacityFor, decodeFiles } from './bulk-load.ts';
import type { ScannedLine } from './line-scan.ts';

export type { ColumnarRecording, SideEvent } from './columnar-types.ts';

const NO_ORDERS: readonly number[] = [];

/** Builds a ColumnarRecording row by row (growable typed arrays). */
export class ColumnarBuilder {
  #n = 0;
  #cap: number;
  #kind: Uint8Array;
  #sym: Uint16Array;
  #tsE: Float64Array;
  #tsR: Float64Array;
  #a: Float64Array;
  #b: Float64Array;
  #c: Int32Array;
  #levels: Float64Array;
  #nl = 0;
  /** L3: per level, the start of its orders in #orderQty (length #nl + 1 used); null for L2 data. */
  #orderStart: Float64Array | null = null;
  #orderQty: Float64Array | null = null;
  /** L3 with ids: each order's id beside #orderQty; null when a file has none. */
  #orderId: Float64Array | null = null;
  #no = 0;
  /** False once a non-L3 header is added: order columns are only kept when every file is L3. */
  #allL3 = true;
  /** False once a header without order ids is added: ids are only kept when every file has them. */
  #allIds = true;
  readonly #objects: SideEvent[] = [];
  readonly #session: SessionEvent[] = [];
  readonly #symIndex = new Map<string, number>();
  readonly #instruments: Instrument[] = [];
  readonly #headers: RecordingHeader[] = [];
  #min: number[] = [];
  #max: number[] = [];

  /** `capacity` rows and `levelCapacity` book levels before the first growth (each growth copies). */
  constructor(capacity = 1 << 16, levelCapacity = capacity * 2) {
    this.#cap = capacity;
    this.#kind = new Uint8Array(capacity);
    this.#sym = new Uint16Array(capacity);
    this.#tsE = new Float64Array(capacity);
    this.#tsR = new Float64Array(capacity);
    this.#a = new Float64Array(capacity);
    this.#b = new Float64Array(capacity);
    this.#c = new Int32Array(capacity);
    this.#levels = new Float64Array(levelCapacity * 2);
  }

  /**
   * Registers the instruments of a recording; a symbol seen before must have the same tick size.
   * @throws MmError RECORDING_INVALID when two recordings disagree on a symbol's tick size.
   */
  addHeader(header: RecordingHeader, instruments: readonly Instrument[]): void {
    this.#headers.push(header);
    if (header.order_ids !== true) {
      this.#allIds = false;
      this.#orderId = null;
    }
    if (header.book_level !== 3) {
      this.#allL3 = false;
      this.#orderStart = null;
      this.#orderQty = null;
    } else if (this.#allL3 && this.#orderStart === null) {
      this.#orderStart = new Float64Array(Math.max(1024, this.#levels.length / 2 + 1));
      this.#orderQty = new Float64Array(4096);
      if (this.#allIds) this.#orderId = new Float64Array(4096);
      this.#no = 0;
      if (this.#nl > 0) this.#allL3 = false; // rows before this header had no orders
    }
    for (const i of instruments) {
      const known = this.#symIndex.get(i.symbol);
      if (known !== undefined) {
        const prev = this.#instruments[known]!;
        if (!prev.grid.tickSize.eq(i.grid.tickSize))
          throw new MmError('RECORDING_INVALID', `recordings disagree on ${i.symbol}'s tick size (${prev.grid.tickSize.toFixed()} vs ${i.grid.tickSize.toFixed()})`);
        continue;
      }
      this.#symIndex.set(i.symbol, this.#instruments.length);
      this.#instruments.push(i);
      this.#min.push(Infinity);
      this.#max.push(-Infinity);
    }
  }

  /** Appends one event (its symbol must have been registered). */
  push(ev: RecordedEvent): void {
    if (ev.type === 'round-trip' || ev.type === 'execution') {
      this.#session.push(ev);
      return;
    }
    if (this.#n === this.#cap) this.#grow();
    const i = this.#n++;
    this.#tsE[i] = ev.tsEvent;
    this.#tsR[i] = ev.tsRecv;
    const symbol = ev.type === 'funding' ? ev.settlement.symbol : ev.symbol;
    const s = symbol === null ? 0xffff : this.#symIndex.get(symbol);
    if (s === undefined) throw new MmError('INVARIANT_BROKEN', `symbol ${symbol} was not registered`);
    this.#sym[i] = s;
    switch (ev.type) {
      case 'book': {
        this.#kind[i] = ev.isSnapshot ? KIND.bookSnapshot : KIND.bookDelta;
        this.#levelRows(i, s, ev.bids, ev.asks);
        return;
      }
      case 'own': {
        this.#kind[i] = KIND.own;
        this.#levelRows(i, s, ev.bids, ev.asks);
        return;
      }
      case 'trade':
        this.#kind[i] = KIND.trade;
        this.#a[i] = ev.priceTicks;
        this.#b[i] = ev.qty;
        this.#c[i] = (ev.aggressor === 'buy' ? 1 : -1) * (ev.condition === undefined ? TRADE_CODE.regular : TRADE_CODE[ev.condition]);
        this.#seen(s, ev.priceTicks);
        return;
      default:
        this.#kind[i] = ev.type === 'ticker' ? KIND.ticker : ev.type === 'funding' ? KIND.funding : ev.type === 'price' ? KIND.price : KIND.gap;
        this.#a[i] = this.#objects.length;
        this.#objects.push(ev);
    }
  }

  /** The column index of a registered symbol. */
  symbolIndex(symbol: string): number {
    const s = this.#symIndex.get(symbol);
    if (s === undefined) throw new MmError('INVARIANT_BROKEN', `symbol ${symbol} was not registered`);
    return s;
  }

  /**
   * Appends a book or trade line the byte scanner decoded (`line-scan.ts`), column `s` being its
   * symbol's index: the same row `push` makes of the decoded event, without the event object.
   */
  pushScanned(l: ScannedLine, s: number): void {
    if (l.kind === 2) this.#pushScannedTrade(l, s);
    else this.#pushScannedBook(l, s);
  }

  // Two functions, not one with a branch: each stays small and sees one kind of line, so the
  // compiler does not optimize one path and throw the code away when the other first comes.
  #pushScannedTrade(l: ScannedLine, s: number): void {
    if (this.#n === this.#cap) this.#grow();
    const i = this.#n++;
    this.#tsE[i] = l.tsEvent;
    this.#tsR[i] = l.tsRecv;
    this.#sym[i] = s;
    this.#kind[i] = KIND.trade;
    this.#a[i] = l.priceTicks;
    this.#b[i] = l.qty;
    this.#c[i] = l.code;
    this.#seen(s, l.priceTicks);
  }

  #pushScannedBook(l: ScannedLine, s: number): void {
    if (this.#n === this.#cap) this.#grow();
    const i = this.#n++;
    this.#tsE[i] = l.tsEvent;
    this.#tsR[i] = l.tsRecv;
    this.#sym[i] = s;
    this.#kind[i] = l.isSnapshot ? KIND.bookSnapshot : KIND.bookDelta;
    const n = l.bids + l.asks;
    let nl = this.#nl;
    if ((nl + n) * 2 > this.#levels.length) this.#growLevels((nl + n) * 2);
    this.#a[i] = nl;
    this.#b[i] = l.bids;
    this.#c[i] = l.asks;
    const l3 = this.#allL3 && this.#orderStart !== null;
    const src = l.levels;
    const levels = this.#levels;
    let lo = this.#min[s]!;
    let hi = this.#max[s]!;
    for (let j = 0; j < n; j++) {
      const price = src[2 * j]!;
      levels[nl * 2] = price;
      levels[nl * 2 + 1] = src[2 * j + 1]!;
      if (l3) {
        this.#nl = nl;
        this.#orderRange(l.orders, l.orderIds, l.orderStart[j]!, l.orderStart[j + 1]!);
      }
      nl++;
      if (price < lo) lo = price;
      if (price > hi) hi = price;
    }
    this.#nl = nl;
    this.#min[s] = lo;
    this.#max[s] = hi;
  }

  /**
   * Freezes the columns, trimmed to length: copies, or with `{ views: true }` views of the builder's
   * arrays (no copy: the untouched room past the end costs address space, not memory; the builder
   * must not be used after).
   */
  build(opts: { readonly views?: boolean } = {}): ColumnarRecording {
    const n = this.#n;
    const cut = <T extends Uint8Array | Uint16Array | Float64Array | Int32Array>(a: T, len: number): T => (opts.views === true ? a.subarray(0, len) : a.slice(0, len)) as T;
    return {
      headers: this.#headers,
      instruments: this.#instruments,
      length: n,
      kind: cut(this.#kind, n),
      sym: cut(this.#sym, n),
      tsEvent: cut(this.#tsE, n),
      tsRecv: cut(this.#tsR, n),
      a: cut(this.#a, n),
      b: cut(this.#b, n),
      c: cut(this.#c, n),
      levels: cut(this.#levels, this.#nl * 2),
      objects: this.#objects,
      session: this.#session,
      ...(this.#allL3 && this.#orderStart && this.#orderQty ? { orderStart: cut(this.#orderStart, this.#nl + 1), orderQty: cut(this.#orderQty, this.#no) } : {}),
      ...(this.#allL3 && this.#allIds && this.#orderStart && this.#orderId ? { orderId: cut(this.#orderId, this.#no) } : {}),
      minTick: Float64Array.from(this.#min),
      maxTick: Float64Array.from(this.#max),
    };
  }

  /** Stores bids then asks of row `i` in the level pool. */
  #levelRows(i: number, s: number, bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    const need = (this.#nl + bids.length + asks.length) * 2;
    if (need > this.#levels.length) this.#growLevels(need);
    this.#a[i] = this.#nl;
    this.#b[i] = bids.length;
    this.#c[i] = asks.length;
    const l3 = this.#allL3 && this.#orderStart !== null;
    for (const side of [bids, asks])
      for (const l of side) {
        this.#levels[this.#nl * 2] = l.priceTicks;
        this.#levels[this.#nl * 2 + 1] = l.qty;
        if (l3) this.#orderRange(l.orders ?? NO_ORDERS, l.orderIds, 0, l.orders?.length ?? 0);
        this.#nl++;
        this.#seen(s, l.priceTicks);
      }
  }

  /**
   * Stores level #nl's orders, `orders[from, to)` (none for own-order rows), and their ids when
   * kept, and closes its range.
   */
  #orderRange(orders: ArrayLike<number>, ids: ArrayLike<number> | undefined, from: number, to: number): void {
    let start = this.#orderStart!;
    if (start.length < this.#nl + 2) {
      const next = new Float64Array(Math.max(this.#nl + 2, start.length * 2));
      next.set(start);
      this.#orderStart = start = next;
    }
    const n = to - from;
    let qty = this.#orderQty!;
    if (qty.length < this.#no + n) {
      const next = new Float64Array(Math.max(this.#no + n, qty.length * 2));
      next.set(qty);
      this.#orderQty = qty = next;
      if (this.#orderId) {
        const nextIds = new Float64Array(next.length);
        nextIds.set(this.#orderId);
        this.#orderId = nextIds;
      }
    }
    const idCol = this.#orderId;
    start[this.#nl] = this.#no;
    if (idCol) for (let k = 0; k < n; k++) idCol[this.#no + k] = ids![from + k]!;
    for (let k = 0; k < n; k++) qty[this.#no++] = orders[from + k]!;
    start[this.#nl + 1] = this.#no;
  }

  #seen(s: number, p: number): void {
    if (p < this.#min[s]!) this.#min[s] = p;
    if (p > this.#max[s]!) this.#max[s] = p;
  }

  #grow(): void {
    const cap = this.#cap * 2;
    const g = <T extends Uint8Array | Uint16Array | Float64Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(cap);
      next.set(old);
      return next;
    };
    this.#kind = g(this.#kind, (n) => new Uint8Array(n));
    this.#sym = g(this.#sym, (n) => new Uint16Array(n));
    this.#tsE = g(this.#tsE, (n) => new Float64Array(n));
    this.#tsR = g(this.#tsR, (n) => new Float64Array(n));
    this.#a = g(this.#a, (n) => new Float64Array(n));
    this.#b = g(this.#b, (n) => new Float64Array(n));
    this.#c = g(this.#c, (n) => new Int32Array(n));
    this.#cap = cap;
  }

  #growLevels(need: number): void {
    const next = new Float64Array(Math.max(need, this.#levels.length * 2));
    next.set(this.#levels);
    this.#levels = next;
  }
}

/** Builds a columnar recording from in-memory events (tests, generators). */
export function toColumnar(header: RecordingHeader, instruments: readonly Instrument[], events: Iterable<RecordedEvent>): ColumnarRecording {
  const b = new ColumnarBuilder();
  b.addHeader(header, instruments);
  for (const ev of events) b.push(ev);
  return b.build();
}

/**
 * Reads one or more recording files into one columnar recording. With `cacheDir`, a binary sidecar
 * keyed by the files' paths, sizes and modification times is reused (and written on a miss). Several files are concatenated in
 * the order given, which must be chronological (receive times may not go back across files); a gap
 * marker separates them.
 * @throws MmError FILE_NOT_FOUND or RECORDING_INVALID naming the file and line.
 */
export async function loadColumnar(paths: readonly string[], opts: { readonly cacheDir?: string } = {}): Promise<ColumnarRecording> {
  if (paths.length === 0) throw new MmError('USAGE', 'no recording given');
  let cacheFile: string | null = null;
  if (opts.cacheDir !== undefined) {
    for (const p of paths) if (!existsSync(p)) throw new MmError('FILE_NOT_FOUND', `recording ${p} does not exist`, { file: p });
    cacheFile = columnarCacheFile(opts.cacheDir, paths);
    const cached = readColumnarCache(cacheFile);
    if (cached) return cached;
  }
  const col = await decodeAll(paths);
  if (cacheFile) {
    try {
      writeColumnarCache(cacheFile, col);
    } catch {
      // A cache that cannot be written only costs the next run a decode.
    }
  }
  return col;
}

async function decodeAll(paths: readonly string[]): Promise<ColumnarRecording> {
  const { rows, levels } = capacityFor(paths);
  const b = new ColumnarBuilder(rows, levels);
  await decodeFiles(paths, b);
  return b.build({ views: true });
}
