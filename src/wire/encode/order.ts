/** Hand-written encoders for the order object and fill detail (hot: the local venue emits these per event). */
import type { WireFillDetail, WireOrder } from '../types/order.ts';
import { num, quote, quoteEnum } from './json.ts';

/** Writes an order object in the venue's key order (`cid`, `tag`, `r`, `txt` only when set). */
export function writeOrder(o: WireOrder): string {
  let s = `{"oid":${quote(o.oid)}`;
  if (o.u !== undefined) s += `,"u":${quote(o.u)}`;
  s += `,"aid":${quote(o.aid)},"s":${quote(o.s)},"p":${quote(o.p)},"q":${num(o.q)},"xq":${num(o.xq)},"rq":${num(o.rq)}`;
  s += `,"o":${quoteEnum(o.o)},"d":${quoteEnum(o.d)},"tif":${quoteEnum(o.tif)}`;
  if (o.cid !== undefined) s += `,"cid":${o.cid}`;
  if (o.tag !== undefined) s += `,"tag":${quote(o.tag)}`;
  s += `,"po":${o.po ? 'true' : 'false'}`;
  if (o.rb !== undefined) s += `,"rb":${quoteEnum(o.rb)}`;
  if (o.r !== undefined) s += `,"r":${o.r === null ? 'null' : quoteEnum(o.r)}`;
  if (o.txt !== undefined) s += `,"txt":${quote(o.txt)}`;
  return `${s},"ts":${num(o.ts)},"tn":${num(o.tn)}}`;
}

/** Writes a fill detail (`xs`). */
export function writeFillDetail(x: WireFillDetail): string {
  return `{"tid":${quote(x.tid)},"aid":${quote(x.aid)},"s":${quote(x.s)},"q":${num(x.q)},"p":${quote(x.p)},"d":${quoteEnum(x.d)},"agg":${x.agg ? 'true' : 'false'}}`;
}

/** Encodes one order object as compact JSON. */
export const encodeOrder = (o: WireOrder): string => writeOrder(o);
