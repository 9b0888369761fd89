import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBot, until, type TestBot } from './bot-harness.ts';

/** /readyz follows the market-data socket: 503 with reasons while it is cut, 200 after recovery. */
const SYMBOL = 'AAPL-PERP';
let bot: TestBot | undefined;

beforeAll(async () => {
  bot = await startTestBot({ symbol: SYMBOL, venueConfig: { instruments: { only: [SYMBOL] } }, strategyParams: { levels: 1, halfSpreadTicks: 2, size: 1 }, viaProxy: true });
}, 30_000);
afterAll(async () => {
  await bot?.stop();
}, 20_000);

async function readyz(): Promise<{ status: number; body: { ready: boolean; reasons: string[] } }> {
  const r = await fetch(`${bot!.monitoring.url}/readyz`);
  return { status: r.status, body: (await r.json()) as { ready: boolean; reasons: string[] } };
}

describe('/readyz and the market-data socket', () => {
  it('goes 503 naming the market-data stream when its socket is cut, and back to 200 after recovery', async () => {
    const proxy = bot!.proxy!;
    let last = await readyz();
    await until(async () => (last = await readyz()).status === 200, 15_000, `ready before the cut (last ${JSON.stringify(last.body)})`);
    expect(last.body).toEqual({ ready: true, reasons: [] });
    expect((await fetch(`${bot!.monitoring.url}/healthz`)).status).toBe(200);

    // Cut only the market-data socket and refuse reconnects while it is down.
    proxy.refuseConnections(true, 'ws');
    proxy.dropConnections('/md/ws');
    await until(async () => (last = await readyz()).status === 503, 10_000, 'readyz 503 after the cut');
    expect(last.body.ready).toBe(false);
    expect(last.body.reasons).toContain('market-data stream disconnected');
    expect(last.body.reasons).not.toContain('orders stream disconnected');
    // The process is still alive.
    expect((await fetch(`${bot!.monitoring.url}/healthz`)).status).toBe(200);
    const metrics = await (await fetch(`${bot!.monitoring.url}/metrics`)).text();
    expect(metrics).toContain('mmbot_connection_up{stream="market-data"} 0');
    expect(metrics).toContain('mmbot_ready 0');

    proxy.refuseConnections(false, 'ws');
    await until(async () => (last = await readyz()).status === 200, 15_000, `readyz 200 after recovery (last ${JSON.stringify(last.body)})`);
    expect(last.body).toEqual({ ready: true, reasons: [] });
    const after = await (await fetch(`${bot!.monitoring.url}/metrics`)).text();
    expect(after).toMatch(/mmbot_connection_reconnects_total\{stream="market-data"\} [1-9]/);
    expect(after).toContain('mmbot_ready 1');
  });
});
