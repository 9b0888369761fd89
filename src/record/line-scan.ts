/**
 * A byte-level scanner for the two hot line shapes of a recording, book (`b`) and trade (`t`)
 * lines exactly as `encodeEvent` writes them, straight into reusable typed arrays: no string, no
 * `JSON.parse` object tree, no event object. It accepts a line only when the full decoder
 * (`JSON.parse` + `decodeEvent`) would give the same values and no error; anything else (another
 * event type, another key order, whitespace, escapes, exponents, a value the decoder would reject)
 * returns false, and the caller gives the line to the full decoder, which decodes it or throws its
 * usual error. So the scanner can only be faster, never different.
 */
import { repeatedPrice } from './repeated-price.ts';

/** Which level shape a file's books have: `[p,q]`, `[p,q,[orders]]` or `[p,q,[orders],[ids]]`. */
export type LevelShape = 2 | 3 | 4;

/** The values of one scanned line, overwritten by the next. */
export class ScannedLine {
  /** 1 book, 2 trade. */
  kind: 1 | 2 = 1;
  /** Index of the symbol in the file's header. */
  symbol = 0;
  // NaN, not 0: the fields start as doubles, so code compiled against them is not thrown away
  // when the first fractional time arrives.
  tsEvent = NaN;
  tsRecv = NaN;
  isSnapshot = false;
  bids = 0;
  asks = 0;
  /** Book levels: price ticks and qty pairs, bids then asks. */
  levels = new Float64Array(256);
  /** Shape 3/4: level j's orders are orders[orderStart[j] .. orderStart[j + 1]). */
  orderStart = new Int32Array(129);
  orders = new Float64Array(1024);
  /** Shape 4: each order's id beside `orders`. */
  orderIds = new Float64Array(1024);
  priceTicks = 0;
  qty = 0;
  /** Trades: ±TRADE_CODE (1 regular, 2 hidden, 3 cross), + taker buy. */
  code = 0;
}

/**
 * The header's symbols as their bytes in a line, in header order. A symbol JSON writes with escapes
 * (a quote, a backslash, a control character) or cannot encode gets null: its lines go to the full decoder.
 */
export function symbolBytes(symbols: readonly string[]): (Uint8Array | null)[] {
  return symbols.map((s) => {
    const bytes = Buffer.from(s, 'utf8');
    return /["\\\u0000-\u001f]/.test(s) || bytes.toString('utf8') !== s ? null : bytes; // the second: lone surrogates
  });
}

// Byte codes.
const QUOTE = 34;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const OPEN = 91;
const CLOSE = 93;
const BRACE_OPEN = 123;
const BRACE_CLOSE = 125;

/** Exact powers of ten: a decimal of at most 15 digits over one of them is rounded once, as JSON.parse rounds it. */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The scanner's cursor state: one instance per file, so a scan allocates nothing (the positions and
 * the last number live here rather than in returned objects).
 */
export class LineScanner {
  #buf: Buffer = Buffer.alloc(0);
  #pos = 0;
  #end = 0;
  /** The last number read. */
  #num = 0;
  readonly #symbols: readonly (Uint8Array | null)[];
  readonly #shape: LevelShape;
  readonly out = new ScannedLine();

  constructor(symbols: readonly (Uint8Array | null)[], shape: LevelShape) {
    this.#symbols = symbols;
    this.#shape = shape;
  }

  /** Scans `buf[start, end)` (one line, no newline) into `out`; false when the full decoder must take it. */
  scan(buf: Buffer, start: number, end: number): boolean {
    this.#buf = buf;
    this.#pos = start;
    this.#end = end;
    // {"t":"b" or {"t":"t"
    if (end - start < 16 || buf[start] !== BRACE_OPEN || buf[start + 1] !== QUOTE || buf[start + 2] !== 116 || buf[start + 3] !== QUOTE || buf[start + 4] !== COLON || buf[start + 5] !== QUOTE || buf[start + 7] !== QUOTE) return false;
    const t = buf[start + 6];
    if (t !== 98 && t !== 116) return false;
    this.#pos = start + 8;
    const out = this.out;
    if (!this.#key(115) || !this.#symbol() || !this.#key(101) || !this.#number()) return false;
    out.tsEvent = this.#num;
    if (!this.#key(114) || !this.#number()) return false;
    out.tsRecv = this.#num;
    out.kind = t === 98 ? 1 : 2;
    if (t === 98 ? !this.#book() : !this.#trade()) return false;
    return this.#pos === end;
  }

  /** `,"k":` for a one-letter key k. */
  #key(k: number): boolean {
    const b = this.#buf;
    const p = this.#pos;
    if (p + 5 > this.#end || b[p] !== COMMA || b[p + 1] !== QUOTE || b[p + 2] !== k || b[p + 3] !== QUOTE || b[p + 4] !== COLON) return false;
    this.#pos = p + 5;
    return true;
  }

  /** A quoted symbol equal to one of the header's (compared in place: no search for the closing quote). */
  #symbol(): boolean {
    const b = this.#buf;
    const p = this.#pos;
    if (b[p] !== QUOTE) return false;
    const syms = this.#symbols;
    for (let s = 0; s < syms.length; s++) {
      const sym = syms[s];
      if (sym === null || sym === undefined) continue;
      const len = sym.length;
      let k = 0;
      while (k < len && b[p + 1 + k] === sym[k]) k++;
      if (k === len && b[p + 1 + len] === QUOTE && p + 2 + len <= this.#end) {
        this.out.symbol = s;
        this.#pos = p + 2 + len;
        return true;
      }
    }
    return false;
  }

  /**
   * A JSON number without exponent into #num, rounded once to the nearest double as JSON.parse
   * rounds it. Up to 15 digits in all the digits are an exact integer and one division by an exact
   * power of ten rounds once. Longer decimals with a large integer part (epoch milliseconds with
   * 4 decimals, 17 digits) are rounded by hand to the double grid of their integer part
   * (`roundOnGrid`); anything else goes through Number(), which rounds the same text the same way.
   */
  #number(): boolean {
    const b = this.#buf;
    const start = this.#pos;
    let p = start;
    const neg = b[p] === MINUS;
    if (neg) p++;
    const first = p;
    let int = 0;
    let c = b[p]!;
    while (c >= ZERO && c <= NINE) {
      int = int * 10 + (c - ZERO);
      c = b[++p]!;
    }
    const intDigits = p - first;
    if (intDigits === 0 || (b[first] === ZERO && intDigits > 1)) return false;
    let frac = 0;
    let scale = 0;
    if (c === DOT) {
      const fracStart = ++p;
      c = b[p]!;
      while (c >= ZERO && c <= NINE) {
        frac = frac * 10 + (c - ZERO);
        c = b[++p]!;
      }
      scale = p - fracStart;
      if (scale === 0) return false;
    }
    if (c === 101 || c === 69 || p > this.#end) return false; // e/E: exponents are rare, left to the full decoder
    this.#pos = p;
    let v: number;
    if (intDigits + scale <= 15) v = scale === 0 ? int : (int * POW10[scale]! + frac) / POW10[scale]!;
    else if (intDigits <= 15 && scale <= 9 && int >= GRID_MIN) v = roundOnGrid(int, frac, scale);
    else if (scale === 0) return false; // an integer beyond 15 digits: the decoder's safe-integer checks decide
    else {
      v = Number(b.toString('latin1', start, p));
      if (!Number.isFinite(v)) return false;
      this.#num = v;
      return true;
    }
    this.#num = neg ? -v : v;
    return true;
  }

  /** An integer of at most 15 digits (always safe) into #num. */
  #int(): boolean {
    const b = this.#buf;
    let p = this.#pos;
    const neg = b[p] === MINUS;
    if (neg) p++;
    const first = p;
    let acc = 0;
    let c = b[p]!;
    while (c >= ZERO && c <= NINE) {
      acc = acc * 10 + (c - ZERO);
      c = b[++p]!;
    }
    const digits = p - first;
    if (digits === 0 || digits > 15 || (b[first] === ZERO && digits > 1) || c === DOT || c === 101 || c === 69 || p > this.#end) return false;
    this.#pos = p;
    this.#num = neg ? -acc : acc;
    return true;
  }

  /** `,"f":0|1,"b":[...],"a":[...]}` */
  #book(): boolean {
    const b = this.#buf;
    const out = this.out;
    if (!this.#key(102)) return false;
    const f = b[this.#pos];
    if (f !== ZERO && f !== 49) return false;
    out.isSnapshot = f === 49;
    this.#pos++;
    if (!this.#key(98)) return false;
    const bids = this.#side(0, 0);
    if (bids < 0 || !this.#key(97)) return false;
    const asks = this.#side(bids, this.#shape === 2 ? 0 : out.orderStart[bids]!);
    if (asks < 0 || b[this.#pos] !== BRACE_CLOSE) return false;
    this.#pos++;
    out.bids = bids;
    out.asks = asks;
    return true;
  }

  /** `[[p,q(,[orders](,[ids]))],...]` from level index `from`, orders from `orderFrom`; the level count, or -1. */
  #side(from: number, orderFrom: number): number {
    const b = this.#buf;
    const out = this.out;
    if (b[this.#pos] !== OPEN) return -1;
    this.#pos++;
    const shape = this.#shape;
    if (b[this.#pos] === CLOSE) {
      this.#pos++;
      if (shape !== 2) {
        if (from + 1 > out.orderStart.length) out.orderStart = growInt(out.orderStart, from + 1);
        out.orderStart[from] = orderFrom;
      }
      return 0;
    }
    let j = from;
    let o = orderFrom;
    for (;;) {
      if (b[this.#pos] !== OPEN) return -1;
      this.#pos++;
      if (!this.#int()) return -1;
      const price = this.#num;
      if (b[this.#pos] !== COMMA) return -1;
      this.#pos++;
      if (!this.#int() || this.#num < 0 || Object.is(this.#num, -0)) return -1;
      const qty = this.#num;
      if (2 * j + 2 > out.levels.length) out.levels = grow(out.levels, 2 * j + 2);
      out.levels[2 * j] = price;
      out.levels[2 * j + 1] = qty;
      if (shape !== 2) {
        if (j + 2 > out.orderStart.length) out.orderStart = growInt(out.orderStart, j + 2);
        out.orderStart[j] = o;
        const n = this.#orders(o, qty);
        if (n < 0) return -1;
        if (shape === 4 && !this.#ids(o, n)) return -1;
        o += n;
      }
      if (b[this.#pos] !== CLOSE) return -1;
      this.#pos++;
      j++;
      const c = b[this.#pos];
      this.#pos++;
      if (c === CLOSE) break;
      if (c !== COMMA) return -1;
    }
    if (shape !== 2) out.orderStart[j] = o;
    // A price listed twice: the full decoder names it.
    if (repeatedPrice(out.levels, from, j - from, 2) !== null) return -1;
    return j - from;
  }

  /** `,[q1,...]`: positive order sizes summing to `qty`, stored from `o`; their count, or -1. */
  #orders(o: number, qty: number): number {
    const b = this.#buf;
    const out = this.out;
    if (b[this.#pos] !== COMMA || b[this.#pos + 1] !== OPEN) return -1;
    this.#pos += 2;
    let n = 0;
    let sum = 0;
    if (b[this.#pos] === CLOSE) this.#pos++;
    else
      for (;;) {
        if (!this.#int() || this.#num <= 0) return -1;
        if (o + n + 1 > out.orders.length) {
          out.orders = grow(out.orders, o + n + 1);
          out.orderIds = grow(out.orderIds, out.orders.length);
        }
        out.orders[o + n++] = this.#num;
        sum += this.#num;
        const c = b[this.#pos++];
        if (c === CLOSE) break;
        if (c !== COMMA) return -1;
      }
    return sum === qty ? n : -1;
  }

  /** `,[id1,...]`: exactly `n` integer ids, stored from `o`. */
  #ids(o: number, n: number): boolean {
    const b = this.#buf;
    const ids = this.out.orderIds;
    if (b[this.#pos] !== COMMA || b[this.#pos + 1] !== OPEN) return false;
    this.#pos += 2;
    if (n === 0) return b[this.#pos++] === CLOSE;
    for (let k = 0; k < n; k++) {
      if (!this.#int()) return false;
      ids[o + k] = this.#num;
      if (b[this.#pos++] !== (k === n - 1 ? CLOSE : COMMA)) return false;
    }
    return true;
  }

  /** `,"p":int,"q":int>0,"d":"B"|"S"(,"c":"h"|"x")}` */
  #trade(): boolean {
    const b = this.#buf;
    const out = this.out;
    if (!this.#key(112) || !this.#int()) return false;
    out.priceTicks = this.#num;
    if (!this.#key(113) || !this.#int() || this.#num <= 0) return false;
    out.qty = this.#num;
    if (!this.#key(100)) return false;
    let p = this.#pos;
    const d = b[p + 1];
    if (b[p] !== QUOTE || (d !== 66 && d !== 83) || b[p + 2] !== QUOTE) return false;
    const sign = d === 66 ? 1 : -1;
    p += 3;
    if (b[p] === BRACE_CLOSE) {
      out.code = sign;
      this.#pos = p + 1;
      return true;
    }
    this.#pos = p;
    if (!this.#key(99)) return false;
    p = this.#pos;
    const c = b[p + 1];
    if (b[p] !== QUOTE || (c !== 104 && c !== 120) || b[p + 2] !== QUOTE || b[p + 3] !== BRACE_CLOSE) return false;
    out.code = sign * (c === 104 ? 2 : 3);
    this.#pos = p + 4;
    return true;
  }
}

/** 2^33: from here up an integer's double grid is 2^-19 or coarser, so frac × 2^s stays an exact integer. */
const GRID_MIN = 2 ** 33;
const TWO_32 = 2 ** 32;
const POW2 = Array.from({ length: 20 }, (_, s) => 2 ** s);
const INV_POW2 = POW2.map((p) => 1 / p);

/**
 * int + frac / 10^scale, rounded to the nearest double, ties to even, for 2^33 <= int < 10^15 and
 * scale <= 9. The doubles near int are the multiples of 2^-s (s = 52 - the exponent of int, 1..19)
 * and int is one of them, so the nearest double is int + round(frac × 2^s / 10^scale) / 2^s, every
 * step an exact integer operation below 2^53 (the quotient is corrected for the division's
 * rounding). A sum that reaches the next power of two is that power of two, on both grids.
 */
export function roundOnGrid(int: number, frac: number, scale: number): number {
  const s = Math.clz32(Math.floor(int / TWO_32)) - 11; // 52 - the exponent of int
  const num = frac * POW2[s]!;
  const den = POW10[scale]!;
  let q = Math.floor(num / den);
  let r = num - q * den;
  if (r < 0) {
    q--;
    r += den;
  } else if (r >= den) {
    q++;
    r -= den;
  }
  if (2 * r > den || (2 * r === den && (q & 1) === 1)) q++;
  return int + q * INV_POW2[s]!;
}

function grow(a: Float64Array, need: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

function growInt(a: Int32Array, need: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}
