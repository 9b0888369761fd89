import { Decimal } from '../core/decimal.ts';
import { asSymbol } from '../core/ids.ts';
import type { BookLevel, BookSide } from '../domain/book.ts';
import { INSTRUMENT_STATES, type InstrumentState } from '../domain/enums.ts';
import type { BookUpdated, FundingSettled, PriceObserved, TickerUpdated, TradePrinted } from '../domain/events.ts';
import type { FundingEstimate } from '../domain/funding.ts';
import { repeatedPrice } from './repeated-price.ts';
import { ROUND_TRIP_OPS, type OwnExecution, type OwnOrders, type RecordedEvent, type RecordingGap, type RoundTrip, type RoundTripOp } from './format.ts';

// ---------------------------------------------------------------- encoding

const sideJson = (side: BookSide): string => {
  let s = '[';
  for (let i = 0; i < side.length; i++) {
    const l = side[i]!;
    const ids = l.orderIds === undefined ? '' : `,[${l.orderIds.join(',')}]`;
    s += l.orders === undefined ? `${i ? ',' : ''}[${l.priceTicks},${l.qty}]` : `${i ? ',' : ''}[${l.priceTicks},${l.qty},[${l.orders.join(',')}]${ids}]`;
  }
  return `${s}]`;
};

const dstr = (d: Decimal | null): string => (d === null ? 'null' : JSON.stringify(d.toFixed()));

/** Encodes one event as a recording line (no newline). Key order is fixed: output is byte-stable. */
export function encodeEvent(ev: RecordedEvent): string {
  switch (ev.type) {
    case 'book':
      return `{"t":"b","s":${JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"f":${ev.isSnapshot ? 1 : 0},"b":${sideJson(ev.bids)},"a":${sideJson(ev.asks)}}`;
    case 'trade':
      return `{"t":"t","s":${JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"p":${ev.priceTicks},"q":${ev.qty},"d":"${ev.aggressor === 'buy' ? 'B' : 'S'}"${ev.condition === undefined ? '' : `,"c":"${ev.condition === 'hidden' ? 'h' : 'x'}"`}}`;
    case 'ticker': {
      const f = ev.funding;
      const ef =
        f === null
          ? 'null'
          : `{"st":${JSON.stringify(f.status)},"rate":${dstr(f.rate)},"amt":${dstr(f.amount)},"bp":${dstr(f.benchmarkPrice)},"sp":${dstr(f.settlementPrice)},"why":${JSON.stringify(f.reason)},"ts":${f.computedMs}}`;
      return `{"t":"k","s":${JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"last":${ev.lastTicks},"lq":${ev.lastQty},"mark":${ev.markTicks},"bid":${ev.bestBidTicks},"ask":${ev.bestAskTicks},"bl":${ev.bandLowerTicks},"bu":${ev.bandUpperTicks},"lsp":${ev.lastSettlementTicks},"lst":${ev.lastSettlementMs},"st":${JSON.stringify(ev.state)},"v":${ev.volume},"oi":${ev.openInterest},"ef":${ef}}`;
    }
    case 'funding': {
      const x = ev.settlement;
      return `{"t":"f","s":${JSON.stringify(x.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"rate":${dstr(x.rate)},"amt":${dstr(x.amount)},"bp":${dstr(x.benchmarkPrice)},"sp":${dstr(x.settlementPrice)}}`;
    }
    case 'price':
      return `{"t":"p","s":${JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"src":${JSON.stringify(ev.source)},"p":${ev.priceTicks}}`;
    case 'own':
      return `{"t":"o","s":${JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"b":${sideJson(ev.bids)},"a":${sideJson(ev.asks)}}`;
    case 'round-trip':
      return `{"t":"q","s":${ev.symbol === null ? 'null' : JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"op":"${ev.op}","ms":${ev.ms},"ok":${ev.ok ? 1 : 0}}`;
    case 'execution': {
      const f = ev.fill;
      const fill = f === null ? '' : `,"fp":${f.priceTicks},"fq":${f.qty},"l":"${f.aggressor ? 'T' : 'M'}","tid":${JSON.stringify(f.tradeId)}`;
      return `{"t":"x","s":${JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"k":"${EXEC_CODE[ev.kind]}","oid":${JSON.stringify(ev.orderId)},"d":"${ev.side === 'buy' ? 'B' : 'S'}","p":${ev.priceTicks},"q":${ev.qty}${fill}}`;
    }
    case 'gap':
      return `{"t":"g","s":${ev.symbol === null ? 'null' : JSON.stringify(ev.symbol)},"e":${ev.tsEvent},"r":${ev.tsRecv},"why":${JSON.stringify(ev.reason)}}`;
  }
}

/** Execution kinds ↔ their 3-letter codes in `x` lines. */
const EXEC_CODE: Readonly<Record<OwnExecution['kind'], string>> = { accepted: 'acc', canceled: 'can', rejected: 'rej', replaced: 'rep', expired: 'exp', filled: 'fil' };
const EXEC_KIND: ReadonlyMap<string, OwnExecution['kind']> = new Map(Object.entries(EXEC_CODE).map(([k, c]) => [c, k as OwnExecution['kind']]));

// ---------------------------------------------------------------- decoding

/** Thrown inside decoding; the reader adds file and line. */
class FieldError extends Error {}

type Obj = Record<string, unknown>;

function num(o: Obj, k: string): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new FieldError(`${k}: expected a number, got ${JSON.stringify(v)}`);
  return v;
}
function int(o: Obj, k: string): number {
  const v = num(o, k);
  if (!Number.isSafeInteger(v)) throw new FieldError(`${k}: expected an integer, got ${v}`);
  return v;
}
function optInt(o: Obj, k: string): number | null {
  return o[k] === null || o[k] === undefined ? null : int(o, k);
}
function str(o: Obj, k: string): string {
  const v = o[k];
  if (typeof v !== 'string') throw new FieldError(`${k}: expected a string, got ${JSON.stringify(v)}`);
  return v;
}
function dec(o: Obj, k: string): Decimal {
  const s = str(o, k);
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(s)) throw new FieldError(`${k}: expected a decimal string, got ${JSON.stringify(s)}`);
  return new Decimal(s);
}
function optDec(o: Obj, k: string): Decimal | null {
  return o[k] === null || o[k] === undefined ? null : dec(o, k);
}
function side(o: Obj, k: string): BookLevel[] {
  const v = o[k];
  if (!Array.isArray(v)) throw new FieldError(`${k}: expected an array of [priceTicks, qty], got ${JSON.stringify(v)}`);
  const out: BookLevel[] = new Array<BookLevel>(v.length);
  for (let i = 0; i < v.length; i++) {
    const l: unknown = v[i];
    if (!Array.isArray(l) || l.length < 2 || l.length > 4 || !Number.isSafeInteger(l[0]) || !Number.isSafeInteger(l[1]) || (l[1] as number) < 0)
      throw new FieldError(`${k}[${i}]: expected [priceTicks, qty] (or [priceTicks, qty, [orders]], [priceTicks, qty, [orders], [ids]]) integers with qty >= 0, got ${JSON.stringify(l)}`);
    if (l.length === 2) out[i] = { priceTicks: l[0] as number, qty: l[1] as number };
    else {
      const orders = orderList(l[2], l[1] as number, `${k}[${i}]`);
      out[i] = l.length === 3 ? { priceTicks: l[0] as number, qty: l[1] as number, orders } : { priceTicks: l[0] as number, qty: l[1] as number, orders, orderIds: idList(l[3], orders.length, `${k}[${i}]`) };
    }
  }
  const twice = repeatedPrice(out.map((l) => l.priceTicks));
  if (twice !== null) throw new FieldError(`${k}[${twice[1]}]: price ${out[twice[1]]!.priceTicks} is listed twice in one book (${k}[${twice[0]}] too); a book gives each price once per side`);
  return out;
}


/** An L3 level's order sizes: positive integers summing to the level's qty. */
function orderList(v: unknown, qty: number, at: string): number[] {
  if (!Array.isArray(v)) throw new FieldError(`${at}[2]: expected the level's order sizes [q1, q2, ...], got ${JSON.stringify(v)}`);
  let sum = 0;
  for (let j = 0; j < v.length; j++) {
    const q: unknown = v[j];
    if (!Number.isSafeInteger(q) || (q as number) <= 0) throw new FieldError(`${at}[2][${j}]: expected a positive integer order size, got ${JSON.stringify(q)}`);
    sum += q as number;
  }
  if (sum !== qty) throw new FieldError(`${at}: order sizes add up to ${sum}, not the level's qty ${qty}`);
  return v as number[];
}

/** An L3 level's order ids: one safe integer per order. */
function idList(v: unknown, n: number, at: string): number[] {
  if (!Array.isArray(v) || v.length !== n) throw new FieldError(`${at}[3]: expected ${n} order ids (one per order), got ${JSON.stringify(v)}`);
  for (let j = 0; j < n; j++) if (!Number.isSafeInteger(v[j])) throw new FieldError(`${at}[3][${j}]: expected an integer order id, got ${JSON.stringify(v[j])}`);
  return v as number[];
}

function decodeFunding(v: unknown, symbol: string): FundingEstimate | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object') throw new FieldError(`ef: expected an object or null, got ${JSON.stringify(v)}`);
  const o = v as Obj;
  return {
    symbol: asSymbol(symbol),
    status: str(o, 'st'),
    rate: optDec(o, 'rate'),
    amount: optDec(o, 'amt'),
    benchmarkPrice: optDec(o, 'bp'),
    settlementPrice: optDec(o, 'sp'),
    reason: typeof o['why'] === 'string' ? o['why'] : null,
    computedMs: num(o, 'ts'),
  };
}

/**
 * Decodes one parsed event line. Errors are thrown as messages naming the field; the reader wraps
 * them into RECORDING_INVALID with the file and line.
 * @throws Error naming the bad field.
 */
export function decodeEvent(value: unknown, symbols: ReadonlySet<string>): RecordedEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FieldError('expected a JSON object');
  const o = value as Obj;
  const t = o['t'];
  const tsEvent = num(o, 'e');
  const tsRecv = num(o, 'r');
  if (t === 'q') {
    const s = o['s'];
    if (s !== null && (typeof s !== 'string' || !symbols.has(s))) throw new FieldError(`s: unknown symbol ${JSON.stringify(s)}`);
    const op = str(o, 'op');
    if (!(ROUND_TRIP_OPS as readonly string[]).includes(op)) throw new FieldError(`op: expected one of ${ROUND_TRIP_OPS.join(', ')}, got ${JSON.stringify(op)}`);
    const ms = num(o, 'ms');
    if (ms < 0) throw new FieldError(`ms: expected a round trip >= 0, got ${ms}`);
    const rt: RoundTrip = { type: 'round-trip', symbol: s === null ? null : asSymbol(s), op: op as RoundTripOp, ms, ok: o['ok'] === 1, tsEvent, tsRecv };
    return rt;
  }
  if (t === 'g') {
    const s = o['s'];
    if (s !== null && (typeof s !== 'string' || !symbols.has(s))) throw new FieldError(`s: unknown symbol ${JSON.stringify(s)}`);
    const gap: RecordingGap = { type: 'gap', symbol: s === null ? null : asSymbol(s), tsEvent, tsRecv, reason: typeof o['why'] === 'string' ? o['why'] : '' };
    return gap;
  }
  const symbolStr = str(o, 's');
  if (!symbols.has(symbolStr)) throw new FieldError(`s: symbol ${JSON.stringify(symbolStr)} is not in the header`);
  const symbol = asSymbol(symbolStr);
  switch (t) {
    case 'b': {
      const f = o['f'];
      if (f !== 0 && f !== 1) throw new FieldError(`f: expected 0 or 1, got ${JSON.stringify(f)}`);
      const bids = side(o, 'b');
      const asks = side(o, 'a');
      const l3 = bids.some((l) => l.orders !== undefined) || asks.some((l) => l.orders !== undefined);
      const ev: BookUpdated = { type: 'book', symbol, level: l3 ? 3 : 2, isSnapshot: f === 1, bids, asks, tsEvent, tsRecv };
      return ev;
    }
    case 't': {
      const d = o['d'];
      if (d !== 'B' && d !== 'S') throw new FieldError(`d: expected "B" or "S", got ${JSON.stringify(d)}`);
      const q = int(o, 'q');
      if (q <= 0) throw new FieldError(`q: expected a positive quantity, got ${q}`);
      const c = o['c'];
      if (c !== undefined && c !== 'h' && c !== 'x') throw new FieldError(`c: expected "h" (hidden) or "x" (cross) or absent, got ${JSON.stringify(c)}`);
      const base = { type: 'trade', symbol, priceTicks: int(o, 'p'), qty: q, aggressor: d === 'B' ? 'buy' : 'sell', tsEvent, tsRecv } as const;
      const ev: TradePrinted = c === undefined ? base : { ...base, condition: c === 'h' ? 'hidden' : 'cross' };
      return ev;
    }
    case 'k': {
      const st = str(o, 'st');
      const state: InstrumentState = (INSTRUMENT_STATES as readonly string[]).includes(st) ? (st as InstrumentState) : 'UNKNOWN';
      const ev: TickerUpdated = {
        type: 'ticker',
        symbol,
        lastTicks: optInt(o, 'last'),
        lastQty: o['lq'] === undefined ? 0 : int(o, 'lq'),
        markTicks: optInt(o, 'mark'),
        bestBidTicks: optInt(o, 'bid'),
        bestAskTicks: optInt(o, 'ask'),
        bandLowerTicks: optInt(o, 'bl'),
        bandUpperTicks: optInt(o, 'bu'),
        lastSettlementTicks: optInt(o, 'lsp'),
        lastSettlementMs: o['lst'] === null || o['lst'] === undefined ? null : num(o, 'lst'),
        state,
        volume: o['v'] === undefined ? 0 : num(o, 'v'),
        openInterest: o['oi'] === undefined ? 0 : num(o, 'oi'),
        funding: decodeFunding(o['ef'], symbolStr),
        tsEvent,
        tsRecv,
      };
      return ev;
    }
    case 'f': {
      const ev: FundingSettled = {
        type: 'funding',
        settlement: { symbol, rate: dec(o, 'rate'), amount: dec(o, 'amt'), benchmarkPrice: dec(o, 'bp'), settlementPrice: dec(o, 'sp'), tsEvent },
        tsEvent,
        tsRecv,
      };
      return ev;
    }
    case 'p': {
      const ev: PriceObserved = { type: 'price', symbol, source: str(o, 'src'), priceTicks: num(o, 'p'), tsEvent, tsRecv };
      return ev;
    }
    case 'o': {
      const ev: OwnOrders = { type: 'own', symbol, bids: side(o, 'b'), asks: side(o, 'a'), tsEvent, tsRecv };
      return ev;
    }
    case 'x': {
      const kind = EXEC_KIND.get(str(o, 'k'));
      if (kind === undefined) throw new FieldError(`k: expected one of ${[...EXEC_KIND.keys()].join(', ')}, got ${JSON.stringify(o['k'])}`);
      const d = o['d'];
      if (d !== 'B' && d !== 'S') throw new FieldError(`d: expected "B" or "S", got ${JSON.stringify(d)}`);
      let fill: OwnExecution['fill'] = null;
      if (kind === 'filled') {
        const l = o['l'];
        if (l !== 'M' && l !== 'T') throw new FieldError(`l: expected "M" or "T", got ${JSON.stringify(l)}`);
        const fq = int(o, 'fq');
        if (fq <= 0) throw new FieldError(`fq: expected a positive fill quantity, got ${fq}`);
        fill = { priceTicks: int(o, 'fp'), qty: fq, aggressor: l === 'T', tradeId: str(o, 'tid') };
      }
      const ev: OwnExecution = { type: 'execution', symbol, kind, orderId: str(o, 'oid'), side: d === 'B' ? 'buy' : 'sell', priceTicks: int(o, 'p'), qty: int(o, 'q'), fill, tsEvent, tsRecv };
      return ev;
    }
    default:
      throw new FieldError(`t: unknown event type ${JSON.stringify(t)} (expected b, t, k, f, o, q, x, p or g)`);
  }
}
