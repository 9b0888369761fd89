/**
 * Frames a broken or hostile venue could send, injected through a fault proxy toward the client
 * (issue 35): a fill for an order nobody placed or for another account on the order socket, and a
 * crossed or absurd book on the market-data socket. Each helper builds the frame in the venue's
 * wire format (src/wire/types), injects it on the matching socket and returns its text.
 */
import { asClientOrderId } from '../../src/core/ids.ts';
import type { WireMdBookFrame } from '../../src/wire/types/md-ws.ts';
import type { WireOrderFillEvent } from '../../src/wire/types/order-ws.ts';
import type { FaultProxy } from './fault-proxy.ts';

/** Order-entry and market-data socket paths. */
export const ORDERS_WS = '/orders/ws';
export const MD_WS = '/md/ws';

/** Venue time of "now": epoch seconds and the nanosecond part. */
function nowTsTn(): { ts: number; tn: number } {
  const ms = Date.now();
  return { ts: Math.floor(ms / 1000), tn: (ms % 1000) * 1_000_000 };
}

let seq = 0;

/** What a forged fill says. */
export interface GhostFill {
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly qty: number;
  /** Decimal price on the instrument's tick grid, e.g. "1.1000". */
  readonly price: string;
  /** The account the frame names (ours: an unknown order; another one: a foreign fill). */
  readonly accountId: string;
  /** Venue order id and client id; default ones nobody placed. */
  readonly orderId?: string;
  readonly clientOrderId?: string;
}

/** Injects a final fill (`f`) of a whole order on the order socket; returns the frame. */
export function injectGhostFill(proxy: FaultProxy, g: GhostFill): string {
  const n = ++seq;
  const t = nowTsTn();
  const d = g.side === 'buy' ? 'B' : 'S';
  const frame: WireOrderFillEvent = {
    t: 'f',
    ...t,
    eid: `GHOST-E${n}`,
    o: {
      oid: g.orderId ?? `GHOST-O${n}`,
      aid: g.accountId,
      s: g.symbol,
      p: g.price,
      q: g.qty,
      xq: g.qty,
      rq: 0,
      o: 'FILLED',
      d,
      tif: 'GTC',
      po: true,
      // A u64 client id no CidFactory of ours produced (ours are clock ms << 20).
      cid: asClientOrderId(g.clientOrderId ?? `${900_000 + n}`),
      ...t,
    },
    xs: { tid: `GHOST-T${n}`, aid: g.accountId, s: g.symbol, q: g.qty, p: g.price, d, agg: false },
  };
  // A cid is a JSON integer on the wire (its digits are kept as a string in the wire type).
  const text = JSON.stringify(frame).replace(`"cid":"${frame.o.cid ?? ''}"`, `"cid":${frame.o.cid ?? ''}`);
  proxy.inject(text, ORDERS_WS);
  return text;
}

/** Injects a full L2 book snapshot with one level a side (prices as decimal strings); returns the frame. */
export function injectBook(proxy: FaultProxy, symbol: string, bid: string, ask: string, qty = 100): string {
  const frame: WireMdBookFrame = { t: '2', ...nowTsTn(), s: symbol, b: [{ p: bid, q: qty }], a: [{ p: ask, q: qty }], st: true };
  const text = JSON.stringify(frame);
  proxy.inject(text, MD_WS);
  return text;
}

/** A crossed book (a failover's glitch): the bid `crossTicks` ticks above the ask, around `mid`. */
export function injectCrossedBook(proxy: FaultProxy, symbol: string, mid: number, tick: number, decimals: number, crossTicks = 5): string {
  const bid = (mid + (crossTicks * tick) / 2).toFixed(decimals);
  const ask = (mid - (crossTicks * tick) / 2).toFixed(decimals);
  return injectBook(proxy, symbol, bid, ask);
}

/** An absurd book: a sane-looking spread around `factor` × the real mid (a fat finger, a bad feed). */
export function injectAbsurdBook(proxy: FaultProxy, symbol: string, mid: number, tick: number, decimals: number, factor = 10): string {
  const m = mid * factor;
  return injectBook(proxy, symbol, (m - tick).toFixed(decimals), (m + tick).toFixed(decimals));
}
