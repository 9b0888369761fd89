import { MmError } from '../../core/errors.ts';

/**
 * Databento Binary Encoding (DBN) versions 1–3, from Databento's published specification (the dbn
 * crate's `Metadata` and record structs): an 8-byte prelude (`DBN`, version byte, u32 LE length of
 * the metadata that follows), the metadata, then records, each starting with a 16-byte
 * `RecordHeader` (`length` in 4-byte words, `rtype`, `publisher_id` u16, `instrument_id` u32,
 * `ts_event` u64 ns). All integers little-endian; prices i64 in units of 1e-9.
 */

/** Record types this importer reads (`rtype`). */
export const RTYPE = { mbp0: 0x00, mbp1: 0x01, mbp10: 0x0a, mbo: 0xa0 } as const;

/** `Schema` values of the metadata (0xFFFF = mixed). */
export const DBN_SCHEMA = { mbo: 0, mbp1: 1, mbp10: 2, tbbo: 3, trades: 4 } as const;

/** Record flags (`flags` byte). */
export const DBN_FLAG = { last: 1 << 7, tob: 1 << 6, snapshot: 1 << 5, mbp: 1 << 4, badTsRecv: 1 << 3, maybeBadBook: 1 << 2 } as const;

/** i64::MAX: the null price (an empty level). */
export const UNDEF_PRICE_HI = 0x7fffffff;

/** Offsets within a record (bytes from its start), by layout; the same in DBN 1, 2 and 3. */
export const MBO = { orderId: 16, price: 24, size: 32, flags: 36, channelId: 37, action: 38, side: 39, tsRecv: 40, tsInDelta: 48, sequence: 52, length: 56 } as const;
/** MBP-0 (trades), MBP-1 and MBP-10 share these; MBP-10 has 10 `BidAskPair`s from `levels`. */
export const MBP = { price: 16, size: 24, action: 28, side: 29, flags: 30, depth: 31, tsRecv: 32, tsInDelta: 40, sequence: 44, levels: 48, length0: 48, length10: 368 } as const;
/** One `BidAskPair` (32 bytes): bid_px i64, ask_px i64, bid_sz u32, ask_sz u32, bid_ct u32, ask_ct u32. */
export const PAIR = { bidPx: 0, askPx: 8, bidSz: 16, askSz: 20, bidCt: 24, askCt: 28, length: 32 } as const;

/** The DBN metadata a file starts with (the fields an importer needs). */
export interface DbnMetadata {
  readonly version: number;
  readonly dataset: string;
  /** DBN_SCHEMA value; null when mixed. */
  readonly schema: number | null;
  /** Query start and end, ns since the epoch (decimal strings: they exceed 2^53). */
  readonly startNs: string;
  readonly endNs: string | null;
  readonly stypeIn: number | null;
  readonly stypeOut: number;
  /** Records carry an extra 8-byte send timestamp (`ts_out`) after their body. */
  readonly tsOut: boolean;
  readonly symbols: readonly string[];
  /** raw_symbol → the mapped symbols (instrument ids as text when stype_out is instrument_id) per date interval. */
  readonly mappings: readonly { readonly rawSymbol: string; readonly intervals: readonly { readonly startDate: number; readonly endDate: number; readonly symbol: string }[] }[];
}

const PRELUDE_LEN = 8;
const DATASET_LEN = 16;
const V1_SYMBOL_LEN = 22;
const V1_RESERVED = 47;
const RESERVED = 53;
const HEADER_LEN = 16;
/** 2^32, for u64/i64 read as two u32 halves. */
const TWO32 = 4294967296;

/** True when `b` starts with the DBN prelude's magic. */
export function isDbn(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0x44 && b[1] === 0x42 && b[2] === 0x4e;
}

/**
 * Length of the prelude + metadata at the start of `b`, or null when `b` is too short to tell.
 * @throws MmError RECORDING_INVALID when `b` is not DBN or its version is not 1–3.
 */
export function metadataLength(b: Buffer, path: string): number | null {
  if (b.length < PRELUDE_LEN) return null;
  if (!isDbn(b)) throw new MmError('RECORDING_INVALID', `${path}: not a DBN file (no "DBN" prelude${b[0] === 0x28 && b[1] === 0xb5 ? '; it is zstd-compressed: name it .zst' : ''})`, { file: path });
  const version = b[3]!;
  if (version < 1 || version > 3) throw new MmError('RECORDING_INVALID', `${path}: DBN version ${version} is not supported (1–3)`, { file: path });
  return PRELUDE_LEN + b.readUInt32LE(4);
}

/**
 * Decodes the prelude and metadata (`b` holds at least `metadataLength` bytes).
 * @throws MmError RECORDING_INVALID naming the field that does not fit.
 */
export function decodeMetadata(b: Buffer, path: string): DbnMetadata {
  const version = b[3]!;
  const end = metadataLength(b, path)!;
  let pos = PRELUDE_LEN;
  const need = (n: number, what: string): void => {
    if (pos + n > end) throw new MmError('RECORDING_INVALID', `${path}: DBN metadata ends inside ${what} (byte ${pos} of ${end})`, { file: path });
  };
  const cstr = (n: number, what: string): string => {
    need(n, what);
    const s = b.toString('utf8', pos, pos + n);
    pos += n;
    const z = s.indexOf('\0');
    return z < 0 ? s : s.slice(0, z);
  };
  const u64 = (): string => {
    const v = b.readBigUInt64LE(pos);
    pos += 8;
    return v.toString();
  };
  const dataset = cstr(DATASET_LEN, 'dataset');
  need(2 + 24, 'the schema and query range');
  const rawSchema = b.readUInt16LE(pos);
  pos += 2;
  const startNs = u64();
  const endRaw = u64();
  pos += 8; // limit
  if (version === 1) pos += 8; // record_count, dropped in version 2
  need(3, 'stype_in/stype_out/ts_out');
  const stypeIn = b[pos]!;
  const stypeOut = b[pos + 1]!;
  const tsOut = b[pos + 2] !== 0;
  pos += 3;
  let symbolLen = V1_SYMBOL_LEN;
  if (version >= 2) {
    need(2, 'symbol_cstr_len');
    symbolLen = b.readUInt16LE(pos);
    pos += 2;
  }
  pos += version === 1 ? V1_RESERVED : RESERVED;
  need(4, 'schema_definition_length');
  const schemaDefLen = b.readUInt32LE(pos);
  pos += 4 + schemaDefLen;
  const list = (what: string): string[] => {
    need(4, what);
    const n = b.readUInt32LE(pos);
    pos += 4;
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(cstr(symbolLen, what));
    return out;
  };
  const symbols = list('symbols');
  list('partial');
  list('not_found');
  need(4, 'mappings');
  const nMap = b.readUInt32LE(pos);
  pos += 4;
  const mappings: DbnMetadata['mappings'][number][] = [];
  for (let i = 0; i < nMap; i++) {
    const rawSymbol = cstr(symbolLen, 'a mapping');
    need(4, 'a mapping');
    const nInt = b.readUInt32LE(pos);
    pos += 4;
    const intervals: { startDate: number; endDate: number; symbol: string }[] = [];
    for (let k = 0; k < nInt; k++) {
      need(8, 'a mapping interval');
      const startDate = b.readUInt32LE(pos);
      const endDate = b.readUInt32LE(pos + 4);
      pos += 8;
      intervals.push({ startDate, endDate, symbol: cstr(symbolLen, 'a mapping interval') });
    }
    mappings.push({ rawSymbol, intervals });
  }
  return {
    version,
    dataset,
    schema: rawSchema === 0xffff ? null : rawSchema,
    startNs,
    endNs: endRaw === '18446744073709551615' ? null : endRaw,
    stypeIn: stypeIn === 0xff ? null : stypeIn,
    stypeOut,
    tsOut,
    symbols,
    mappings,
  };
}

/**
 * A forward cursor over the records of a DBN byte stream, in constant memory: `advance()` moves to
 * the next complete record in the buffered bytes (false when more bytes are needed), `fill()` reads
 * the next chunk (false at the end of the stream). Fields are read in place (no object per record).
 */
export class DbnCursor {
  #buf: Buffer = Buffer.alloc(0);
  #next = 0;
  /** Start of the current record in `buf`. */
  off = 0;
  /** Byte length of the current record. */
  len = 0;
  /** 1-based index of the current record (for error messages). */
  index = 0;
  meta: DbnMetadata | null = null;
  readonly #chunks: AsyncIterator<Buffer>;

  constructor(
    chunks: AsyncIterable<Buffer>,
    readonly path: string,
  ) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** The buffer the current record lives in (valid until the next `fill`). */
  get buf(): Buffer {
    return this.#buf;
  }

  /**
   * Reads the metadata.
   * @throws MmError RECORDING_INVALID when the stream is not DBN 1–3.
   */
  async open(): Promise<DbnMetadata> {
    for (;;) {
      const len = metadataLength(this.#buf, this.path);
      if (len !== null && this.#buf.length >= len) {
        this.meta = decodeMetadata(this.#buf, this.path);
        this.#next = len;
        return this.meta;
      }
      if (!(await this.fill())) throw new MmError('RECORDING_INVALID', `${this.path}: ends inside the DBN metadata`, { file: this.path });
    }
  }

  /** Moves to the next record if it is fully buffered. */
  advance(): boolean {
    const b = this.#buf;
    const at = this.#next;
    if (at + HEADER_LEN > b.length) return false;
    const len = b[at]! * 4;
    if (len < HEADER_LEN) throw new MmError('RECORDING_INVALID', `${this.path}: record ${this.index + 1} has length ${len} bytes, shorter than its header`, { file: this.path, record: this.index + 1 });
    if (at + len > b.length) return false;
    this.off = at;
    this.len = len;
    this.#next = at + len;
    this.index++;
    return true;
  }

  /**
   * Appends the next chunk to the unread bytes. Returns false at the end of the stream.
   * @throws MmError RECORDING_INVALID when the stream ends inside a record.
   */
  async fill(): Promise<boolean> {
    const r = await this.#chunks.next();
    const rest = this.#buf.subarray(this.#next);
    if (r.done) {
      if (rest.length > 0 && this.meta !== null) throw new MmError('RECORDING_INVALID', `${this.path}: ends inside record ${this.index + 1} (${rest.length} trailing bytes)`, { file: this.path, record: this.index + 1 });
      return false;
    }
    this.#buf = rest.length === 0 ? r.value : Buffer.concat([rest, r.value]);
    this.#next = 0;
    this.off = 0;
    return true;
  }

  /** The current record's `rtype`. */
  rtype(): number {
    return this.#buf[this.off + 1]!;
  }

  instrumentId(): number {
    return this.#buf.readUInt32LE(this.off + 4);
  }

  u8(at: number): number {
    return this.#buf[this.off + at]!;
  }

  u32(at: number): number {
    return this.#buf.readUInt32LE(this.off + at);
  }

  /** An i64 price field, units of 1e-9 (exact below 2^53, i.e. |price| < 9,007,199); null = UNDEF_PRICE. */
  price(at: number): number | null {
    const b = this.#buf;
    const lo = b.readUInt32LE(this.off + at);
    const hi = b.readInt32LE(this.off + at + 4);
    if (hi === UNDEF_PRICE_HI && lo === 0xffffffff) return null;
    return hi * TWO32 + lo;
  }

  /** A u64 field as a JavaScript number when exact (order ids below 2^53), else its decimal text. */
  id(at: number): number | string {
    const b = this.#buf;
    const lo = b.readUInt32LE(this.off + at);
    const hi = b.readUInt32LE(this.off + at + 4);
    return hi < 0x200000 ? hi * TWO32 + lo : b.readBigUInt64LE(this.off + at).toString();
  }

  /** A u64 ns timestamp field as epoch ms (the closest double: ~0.25 µs resolution at today's epoch). */
  ms(at: number): number {
    const b = this.#buf;
    return nsToMs(b.readUInt32LE(this.off + at + 4), b.readUInt32LE(this.off + at));
  }

  /** ts_event of the header, epoch ms. */
  tsEventMs(): number {
    return this.ms(8);
  }
}

/**
 * A u64 ns count (high and low u32 halves) → ms, exactly up to the final rounding: hi × 2^32 ns =
 * hi × 4294 ms + hi × 967296 ns, both exact in a double.
 */
export function nsToMs(hi: number, lo: number): number {
  const rest = hi * 967296 + lo;
  const whole = Math.floor(rest / 1e6);
  return hi * 4294 + whole + (rest - whole * 1e6) / 1e6;
}
