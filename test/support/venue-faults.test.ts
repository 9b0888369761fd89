import { describe, expect, it } from 'vitest';
import { decodeMdWsFrame } from '../../src/wire/decode/md-ws.ts';
import { decodeOrderWsFrame } from '../../src/wire/decode/order-ws.ts';
import type { FaultProxy } from './fault-proxy.ts';
import { MD_WS, ORDERS_WS, injectAbsurdBook, injectCrossedBook, injectGhostFill } from './venue-faults.ts';

/*
 * The forged frames are valid venue wire (the client's own decoders accept them), so an e2e that
 * injects one tests the daemon's answer to the fault, not its decode-error path.
 */

function recorder(): { proxy: FaultProxy; sent: { text: string; path: string | undefined }[] } {
  const sent: { text: string; path: string | undefined }[] = [];
  const proxy = { inject: (text: string, path?: string) => sent.push({ text, path }) } as unknown as FaultProxy;
  return { proxy, sent };
}

describe('venue-faults frames', () => {
  it('a ghost fill is a final fill on the order socket, its cid a JSON integer', () => {
    const { proxy, sent } = recorder();
    const text = injectGhostFill(proxy, { symbol: 'EURUSD-PERP', side: 'buy', qty: 5000, price: '1.1000', accountId: 'ACC-1' });
    expect(sent).toEqual([{ text, path: ORDERS_WS }]);
    expect(text).toMatch(/"cid":\d+,/);
    const r = decodeOrderWsFrame(text);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.ok && r.value).toMatchObject({ t: 'f', o: { aid: 'ACC-1', s: 'EURUSD-PERP', q: 5000, rq: 0, o: 'FILLED', d: 'B' }, xs: { aid: 'ACC-1', q: 5000, p: '1.1000', d: 'B' } });
  });

  it('a crossed book has its bid above its ask; an absurd one sits at 10x the mid; both are L2 snapshots on the market-data socket', () => {
    const { proxy, sent } = recorder();
    const crossed = decodeMdWsFrame(injectCrossedBook(proxy, 'EURUSD-PERP', 1.1, 0.0001, 4));
    const absurd = decodeMdWsFrame(injectAbsurdBook(proxy, 'EURUSD-PERP', 1.1, 0.0001, 4));
    expect(sent.map((s) => s.path)).toEqual([MD_WS, MD_WS]);
    expect(crossed.ok && crossed.value).toMatchObject({ t: '2', st: true, s: 'EURUSD-PERP', b: [{ p: '1.1003', q: 100 }], a: [{ p: '1.0998', q: 100 }] });
    expect(absurd.ok && absurd.value).toMatchObject({ t: '2', st: true, b: [{ p: '10.9999' }], a: [{ p: '11.0001' }] });
  });
});
