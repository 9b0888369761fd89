import { describe, expect, it } from 'vitest';
import { heartbeatEveryMs, heartbeatTimeoutS, orderWsUrl } from '../../src/client/order-ws-upgrade.ts';
import { replyCancelAccepted, replyOpenOrders, replyOrderId } from '../../src/client/order-ws-replies.ts';
import { fixtureCatalog } from '../support/fixture-catalog.ts';

describe('order WS upgrade', () => {
  it('builds the /orders/ws URL with the session options, clamping the heartbeat deadline', () => {
    const url = new URL(orderWsUrl('ws://h:1/', { accountId: 'A 1', clientHeartbeatTimeoutS: 500.7, cancelOnDisconnect: false }));
    expect(url.pathname).toBe('/orders/ws');
    expect(url.searchParams.get('cancel_on_disconnect')).toBe('false');
    expect(url.searchParams.get('account_id')).toBe('A 1');
    expect(url.searchParams.get('client_heartbeat_timeout')).toBe('300');
    expect(new URL(orderWsUrl('ws://h:1', { clientHeartbeatTimeoutS: 0 })).searchParams.has('client_heartbeat_timeout')).toBe(false);
    expect(heartbeatTimeoutS({})).toBe(30);
    expect(heartbeatEveryMs(30)).toBe(10_000);
  });
});

describe('order WS replies', () => {
  it('read the member the request needs and name the path when it is missing', () => {
    expect(replyOrderId({ oid: 'O-1' }, 'place')).toBe('O-1');
    expect(() => replyOrderId({}, 'replace')).toThrow(expect.objectContaining({ code: 'DECODE_FAILED', details: expect.objectContaining({ path: '$.res.oid', op: 'replace' }) }));
    expect(replyCancelAccepted({ cxl_rx: true })).toBe(true);
    expect(replyCancelAccepted({})).toBe(false);
    expect(replyOpenOrders({ orders: [] }, fixtureCatalog())).toEqual([]);
    expect(() => replyOpenOrders({}, fixtureCatalog())).toThrow(expect.objectContaining({ code: 'DECODE_FAILED', details: { path: '$.res.orders' } }));
  });
});
