/** Encoders for the order-entry WebSocket: events (`t` first), replies and client requests. */
import type { WireLoginReply, WireOrderWsEvent, WireOrderWsReply, WireOrderWsRequest } from '../types/order-ws.ts';
import { num, quote, quoteEnum, writeJson } from './json.ts';
import { writeFillDetail, writeOrder } from './order.ts';

const REQUEST_FIRST = ['rid', 't'] as const;
const REPLY_FIRST = ['rid'] as const;

/** Encodes an order-WS event as compact JSON with `t` first (what the real venue sends). */
export function encodeOrderWsEvent(e: WireOrderWsEvent): string {
  const head = `{"t":"${e.t}","ts":${num(e.ts)},"tn":${num(e.tn)}`;
  switch (e.t) {
    case 'h':
      return `${head}}`;
    case 'n':
    case 'x':
    case 'd':
      return `${head},"eid":${quote(e.eid)},"o":${writeOrder(e.o)}}`;
    case 'p':
    case 'f':
      return `${head},"eid":${quote(e.eid)},"o":${writeOrder(e.o)},"xs":${writeFillDetail(e.xs)}}`;
    case 'c': {
      let s = `${head},"eid":${quote(e.eid)},"o":${writeOrder(e.o)}`;
      if (e.xr !== undefined) s += `,"xr":${quote(e.xr)}`;
      if (e.txt !== undefined) s += `,"txt":${quote(e.txt)}`;
      return `${s}}`;
    }
    case 'j': {
      let s = `${head},"eid":${quote(e.eid)},"o":${writeOrder(e.o)}`;
      if (e.r !== undefined) s += `,"r":${e.r === null ? 'null' : quoteEnum(e.r)}`;
      if (e.txt !== undefined) s += `,"txt":${quote(e.txt)}`;
      return `${s}}`;
    }
    case 'r': {
      let s = `${head},"eid":${quote(e.eid)},"ro":${writeOrder(e.ro)}`;
      if (e.noid !== undefined) s += `,"noid":${quote(e.noid)}`;
      if (e.no !== undefined) s += `,"no":${writeOrder(e.no)}`;
      return `${s}}`;
    }
    case 'e': {
      let s = head;
      if (e.oid !== undefined) s += `,"oid":${quote(e.oid)}`;
      if (e.cid !== undefined) s += `,"cid":${e.cid}`;
      s += `,"r":${quote(e.r)}`;
      if (e.txt !== undefined) s += `,"txt":${quote(e.txt)}`;
      if (e.o !== undefined) s += `,"o":${e.o === null ? 'null' : writeOrder(e.o)}`;
      return `${s}}`;
    }
  }
}

/** Encodes a reply `{"rid":n,"res":{...}}` or `{"rid":n,"err":{"code":..,"msg":..}}`. */
export function encodeOrderWsReply(r: WireOrderWsReply | WireLoginReply): string {
  if (r.res !== undefined && r.res !== null && 'li' in r.res) {
    const login = r.res;
    const orders = login.o === null ? 'null' : `[${login.o.map(writeOrder).join(',')}]`;
    return `{"rid":${num(r.rid)},"res":{"li":${quote(login.li)},"o":${orders},"cod":${login.cod ? 'true' : 'false'}}}`;
  }
  if (r.res !== undefined && r.res !== null && 'orders' in r.res) {
    return `{"rid":${num(r.rid)},"res":{"orders":[${r.res.orders.map(writeOrder).join(',')}]}}`;
  }
  return writeJson(r, REPLY_FIRST);
}

/** Encodes a client request `{"rid":n,"t":"p",...}` (cid as a bare integer). */
export function encodeOrderWsRequest(req: WireOrderWsRequest): string {
  return writeJson(req, REQUEST_FIRST);
}
