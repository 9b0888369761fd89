/**
 * Writes small DBN files for tests, from Databento's published DBN specification (versions 1–3):
 * prelude, metadata and MBO / MBP-10 / trade (MBP-0) records, little-endian. Independent of the
 * decoder under test: offsets are spelled out here from the spec's structs.
 */

/** Schema ids of the metadata. */
export const SCHEMA = { mbo: 0, mbp10: 2, trades: 4 } as const;

export interface DbnMetaSpec {
  version: 1 | 2 | 3;
  schema: number;
  dataset?: string;
  /** ns since the epoch. */
  startNs?: bigint;
  tsOut?: boolean;
  symbols?: string[];
  /** raw symbol → instrument id (one interval each). */
  mappings?: { raw: string; id: number }[];
}

const cstr = (s: string, n: number): Buffer => {
  const b = Buffer.alloc(n);
  b.write(s, 'utf8');
  return b;
};
const u16 = (v: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return b;
};
const u32 = (v: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const u64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};

/** Prelude + metadata. */
export function dbnMetadata(m: DbnMetaSpec): Buffer {
  const symLen = m.version === 1 ? 22 : 71;
  const parts: Buffer[] = [
    cstr(m.dataset ?? 'XNAS.ITCH', 16),
    u16(m.schema),
    u64(m.startNs ?? 1_700_000_000_000_000_000n),
    u64(0xffffffffffffffffn), // end: undefined
    u64(0n), // limit
  ];
  if (m.version === 1) parts.push(u64(0n)); // record_count
  parts.push(Buffer.from([1 /* stype_in raw_symbol */, 0 /* stype_out instrument_id */, m.tsOut ? 1 : 0]));
  if (m.version >= 2) parts.push(u16(symLen));
  parts.push(Buffer.alloc(m.version === 1 ? 47 : 53)); // reserved
  parts.push(u32(0)); // schema_definition_length
  const symbols = m.symbols ?? (m.mappings ?? []).map((x) => x.raw);
  parts.push(u32(symbols.length), ...symbols.map((s) => cstr(s, symLen)));
  parts.push(u32(0), u32(0)); // partial, not_found
  const maps = m.mappings ?? [];
  parts.push(u32(maps.length));
  for (const x of maps) parts.push(cstr(x.raw, symLen), u32(1), u32(20240808), u32(20240809), cstr(String(x.id), symLen));
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from('DBN'), Buffer.from([m.version]), u32(body.length), body]);
}

function header(len: number, rtype: number, instrumentId: number, tsEventNs: bigint): Buffer {
  const b = Buffer.alloc(16);
  b[0] = len / 4;
  b[1] = rtype;
  b.writeUInt16LE(1, 2); // publisher_id
  b.writeUInt32LE(instrumentId, 4);
  b.writeBigUInt64LE(tsEventNs, 8);
  return b;
}

const F_LAST = 0x80;

export interface MboSpec {
  id?: number;
  tsEventNs: bigint;
  tsRecvNs?: bigint;
  orderId: bigint;
  /** Price in units of 1e-9 (null = UNDEF). */
  price: bigint | null;
  size: number;
  action: 'A' | 'C' | 'M' | 'R' | 'T' | 'F' | 'N';
  side: 'A' | 'B' | 'N';
  /** Default: F_LAST. */
  flags?: number;
}

/** One MboMsg (56 bytes). */
export function mbo(r: MboSpec): Buffer {
  const b = Buffer.alloc(56);
  header(56, 0xa0, r.id ?? 1, r.tsEventNs).copy(b, 0);
  b.writeBigUInt64LE(r.orderId, 16);
  b.writeBigInt64LE(r.price ?? 0x7fffffffffffffffn, 24);
  b.writeUInt32LE(r.size, 32);
  b[36] = r.flags ?? F_LAST;
  b[37] = 0;
  b[38] = r.action.charCodeAt(0);
  b[39] = r.side.charCodeAt(0);
  b.writeBigUInt64LE(r.tsRecvNs ?? r.tsEventNs + 1000n, 40);
  b.writeInt32LE(0, 48);
  b.writeUInt32LE(0, 52);
  return b;
}

export interface TradeSpec {
  id?: number;
  tsEventNs: bigint;
  tsRecvNs?: bigint;
  price: bigint;
  size: number;
  side: 'A' | 'B' | 'N';
}

/** The common MBP head (48 bytes): price, size, action, side, flags, depth, ts_recv, ts_in_delta, sequence. */
function mbpHead(len: number, rtype: number, r: TradeSpec, action: string): Buffer {
  const b = Buffer.alloc(len);
  header(len, rtype, r.id ?? 1, r.tsEventNs).copy(b, 0);
  b.writeBigInt64LE(r.price, 16);
  b.writeUInt32LE(r.size, 24);
  b[28] = action.charCodeAt(0);
  b[29] = r.side.charCodeAt(0);
  b[30] = F_LAST;
  b[31] = 0;
  b.writeBigUInt64LE(r.tsRecvNs ?? r.tsEventNs + 1000n, 32);
  return b;
}

/** One TradeMsg (MBP-0, 48 bytes). */
export function trade(r: TradeSpec): Buffer {
  return mbpHead(48, 0x00, r, 'T');
}

/** One Mbp10Msg (368 bytes): `action` with price/size/side of the event, then up to 10 levels. */
export function mbp10(r: TradeSpec & { action: 'A' | 'C' | 'M' | 'T'; bids: [bigint, number][]; asks: [bigint, number][] }): Buffer {
  const b = mbpHead(368, 0x0a, r, r.action);
  for (let i = 0; i < 10; i++) {
    const at = 48 + i * 32;
    const bid = r.bids[i];
    const ask = r.asks[i];
    b.writeBigInt64LE(bid ? bid[0] : 0x7fffffffffffffffn, at);
    b.writeBigInt64LE(ask ? ask[0] : 0x7fffffffffffffffn, at + 8);
    b.writeUInt32LE(bid ? bid[1] : 0, at + 16);
    b.writeUInt32LE(ask ? ask[1] : 0, at + 20);
    b.writeUInt32LE(bid ? 1 : 0, at + 24);
    b.writeUInt32LE(ask ? 1 : 0, at + 28);
  }
  return b;
}

/** USD → DBN fixed-point price (1e-9). */
export const px = (usd: string): bigint => {
  const [w, f = ''] = usd.split('.');
  return BigInt(w!) * 1_000_000_000n + BigInt((f + '000000000').slice(0, 9));
};

/**
 * Writes a realistic-size MBO file (`n` records: adds, cancels, modifies and trades around a fixed
 * mid, 1 µs apart, seeded) to `path` chunk by chunk; returns the byte size.
 */
export async function writeMboSession(path: string, n: number, seed = 1): Promise<number> {
  const { createWriteStream } = await import('node:fs');
  const out = createWriteStream(path);
  let s = seed >>> 0;
  const rnd = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const live: { id: bigint; bid: boolean; price: bigint; size: number }[] = [];
  let nextId = 1n;
  let bytes = 0;
  const chunk: Buffer[] = [];
  const flush = async (): Promise<void> => {
    const b = Buffer.concat(chunk);
    chunk.length = 0;
    bytes += b.length;
    if (!out.write(b)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  chunk.push(dbnMetadata({ version: 3, schema: SCHEMA.mbo, mappings: [{ raw: 'BENCH', id: 1 }] }));
  const mid = 10_000n;
  const tick = 10_000_000n; // 0.01 in 1e-9
  for (let i = 0; i < n; i++) {
    const ts = 1_723_212_000_000_000_000n + BigInt(i) * 1000n;
    const r = rnd();
    // Adds balance cancels around 2,000 resting orders: a stationary book, as a real session's.
    if (live.length < 1000 || (live.length < 3000 && r < 0.45)) {
      const bid = rnd() < 0.5;
      const off = BigInt(1 + Math.floor(rnd() * 20));
      const o = { id: nextId++, bid, price: (bid ? mid - off : mid + off) * tick, size: 1 + Math.floor(rnd() * 100) };
      live.push(o);
      chunk.push(mbo({ tsEventNs: ts, orderId: o.id, price: o.price, size: o.size, action: 'A', side: bid ? 'B' : 'A' }));
    } else {
      const k = Math.floor(rnd() * live.length);
      const o = live[k]!;
      if (r < 0.9) {
        live[k] = live[live.length - 1]!;
        live.pop();
        chunk.push(mbo({ tsEventNs: ts, orderId: o.id, price: o.price, size: o.size, action: 'C', side: o.bid ? 'B' : 'A' }));
      } else if (r < 0.95) {
        o.size = Math.max(1, o.size - 1);
        chunk.push(mbo({ tsEventNs: ts, orderId: o.id, price: o.price, size: o.size, action: 'M', side: o.bid ? 'B' : 'A' }));
      } else {
        chunk.push(mbo({ tsEventNs: ts, orderId: 0n, price: o.price, size: 1, action: 'T', side: o.bid ? 'A' : 'B', flags: 0 }));
      }
    }
    if (chunk.length >= 4096) await flush();
  }
  await flush();
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
  return bytes;
}
