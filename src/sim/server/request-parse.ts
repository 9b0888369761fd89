import { DECIMAL_RE } from '../../core/decimal.ts';
import { isVenueOrderId } from '../../core/ids.ts';
import type { RepriceBehavior, SelfTradePrevention, Side, TimeInForce } from '../../domain/enums.ts';
import type { OrderRef } from '../orders/order-engine.ts';
import type { PlaceSpec, ReplaceSpec } from '../types.ts';
import { HttpError } from './http-kit.ts';

/** Field access on a JSON object body (400 when the body is not an object). */
export function asObject(v: unknown, what = 'request body'): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new HttpError(400, `${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

const bad = (msg: string): never => {
  throw new HttpError(400, msg);
};

const SIDES: Record<string, Side> = { B: 'buy', S: 'sell' };
const TIFS = new Set(['GTC', 'IOC', 'DAY']);
const REPRICE = new Set(['rej', 'bo', 'tbl']);
const STP: Record<string, SelfTradePrevention> = {
  CancelIncoming: 'CancelIncoming',
  CancelResting: 'CancelResting',
  CancelBoth: 'CancelBoth',
  xi: 'CancelIncoming',
  xr: 'CancelResting',
  xb: 'CancelBoth',
};
const TAG_RE = /^[A-Za-z0-9]{1,10}$/;
const U64_MAX = 18446744073709551615n;

/** Parses a u64 client order id given as a JSON integer or a digit string; 400 otherwise. */
export function parseCid(v: unknown, name = 'cid'): string {
  const s = typeof v === 'number' ? (Number.isSafeInteger(v) && v >= 0 ? String(v) : '') : typeof v === 'string' ? v : '';
  if (!/^(0|[1-9][0-9]{0,19})$/.test(s) || BigInt(s) > U64_MAX) return bad(`${name} must be an unsigned 64-bit integer`);
  return s;
}

function decimal(v: unknown, name: string): string {
  if (typeof v !== 'string' || !DECIMAL_RE.test(v)) return bad(`${name} must be a decimal string`);
  return v;
}

function integer(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) return bad(`${name} must be an integer`);
  return v;
}

function tif(v: unknown): TimeInForce {
  if (typeof v !== 'string' || !TIFS.has(v)) return bad('tif must be one of GTC, IOC, DAY');
  return v as TimeInForce;
}

function reprice(v: unknown): RepriceBehavior {
  if (typeof v !== 'string' || !REPRICE.has(v)) return bad('rb must be one of rej, bo, tbl');
  return v as RepriceBehavior;
}

function bool(v: unknown, name: string): boolean {
  if (typeof v !== 'boolean') return bad(`${name} must be a boolean`);
  return v;
}

/** Parses a place-order message (WS `p` or REST body). Missing or malformed fields → 400 naming the field. */
export function parsePlace(o: Record<string, unknown>): PlaceSpec {
  for (const k of ['s', 'd', 'q', 'p', 'tif', 'po']) if (o[k] === undefined || o[k] === null) bad(`${k} is required`);
  if (typeof o['s'] !== 'string' || o['s'] === '') bad('s must be a symbol string');
  const side = typeof o['d'] === 'string' ? SIDES[o['d']] : undefined;
  if (!side) bad('d must be B or S');
  const spec: {
    -readonly [K in keyof PlaceSpec]: PlaceSpec[K];
  } = {
    symbol: o['s'] as string,
    side: side!,
    qty: integer(o['q'], 'q'),
    price: decimal(o['p'], 'p'),
    tif: tif(o['tif']),
    postOnly: bool(o['po'], 'po'),
  };
  if (o['rb'] !== undefined && o['rb'] !== null) spec.reprice = reprice(o['rb']);
  if (o['st'] !== undefined && o['st'] !== null) {
    const st = typeof o['st'] === 'string' ? STP[o['st']] : undefined;
    if (!st) bad('st must be one of CancelIncoming, CancelResting, CancelBoth, xi, xr, xb');
    spec.stp = st!;
  }
  if (o['tag'] !== undefined && o['tag'] !== null) {
    if (typeof o['tag'] !== 'string' || !TAG_RE.test(o['tag'])) bad('tag must be at most 10 alphanumeric characters');
    spec.tag = o['tag'] as string;
  }
  if (o['cid'] !== undefined && o['cid'] !== null) spec.cid = parseCid(o['cid']);
  return spec;
}

/** Parses the changeable fields of a replace (p, q, tif, po, rb); all optional. */
export function parseReplace(o: Record<string, unknown>): ReplaceSpec {
  const spec: { -readonly [K in keyof ReplaceSpec]: ReplaceSpec[K] } = {};
  if (o['p'] !== undefined && o['p'] !== null) spec.price = decimal(o['p'], 'p');
  if (o['q'] !== undefined && o['q'] !== null) spec.qty = integer(o['q'], 'q');
  if (o['tif'] !== undefined && o['tif'] !== null) spec.tif = tif(o['tif']);
  if (o['po'] !== undefined && o['po'] !== null) spec.postOnly = bool(o['po'], 'po');
  if (o['rb'] !== undefined && o['rb'] !== null) spec.reprice = reprice(o['rb']);
  return spec;
}

/** Parses "oid or cid, exactly one" (cancel, replace, status). Invalid order id → 400 with a clear message. */
export function parseRef(o: Record<string, unknown>): OrderRef {
  const hasOid = o['oid'] !== undefined && o['oid'] !== null;
  const hasCid = o['cid'] !== undefined && o['cid'] !== null;
  if (hasOid === hasCid) return bad('exactly one of oid or cid is required');
  if (hasCid) return { cid: parseCid(o['cid']) };
  const oid = o['oid'];
  if (typeof oid !== 'string' || !isVenueOrderId(oid)) return bad(`invalid order id ${JSON.stringify(oid)}: expected O-<ULID> or L-<ULID>`);
  return { oid };
}
