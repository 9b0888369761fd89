import { describe, expect, it } from 'vitest';
import { parseAssignments } from '../../../src/cli/commands/ctl.ts';
import { formatStatusTable, type StatusState } from '../../../src/app/control/status-table.ts';
import { planReload } from '../../../src/app/control/reload.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { builtinLookup } from '../../../src/app/live/strategies.ts';

const state: StatusState = {
  running: true,
  killSwitch: { tripped: false, reason: null, detail: null },
  connections: { orders: true, 'market-data': false },
  strategies: [{ id: 'eurusd', strategy: 'fixed-spread', paused: true, operatorReason: 'paused by operator', error: null, params: {} }],
  symbols: [
    {
      symbol: 'EURUSD-PERP',
      strategyId: 'eurusd',
      bestBid: '1.1401',
      bestAsk: '1.1403',
      quotes: { bids: [{ price: '1.1401', qty: 100 }], asks: [] },
      working: [{}, {}],
      position: { qty: -200, avgPrice: '1.1402' },
      pnl: { total: '1.25', fees: '0.00', funding: '0.00' },
      tradingState: 'HALTED',
      tradingReason: 'paused by operator',
    },
  ],
  pnl: { total: '1.25', fees: '-0.10', funding: '0.00', rewards: '0.00' },
  counters: { fills: 3 },
  execution: { budgets: [{ name: 'user-orders', available: 19.5, ratePerSec: 8, configuredPerSec: 8 }] },
};

describe('mmbot status table', () => {
  it('one row per strategy symbol with state, touch, best quotes, orders, position and PnL', () => {
    const text = formatStatusTable(state, 'http://127.0.0.1:9464');
    const lines = text.split('\n');
    expect(lines[0]).toBe('mmbot at http://127.0.0.1:9464: running; kill switch armed; orders up, market-data DOWN');
    expect(lines[1]).toMatch(/^STRATEGY\s+SYMBOL\s+STATE\s+BOOK\s+QUOTES/);
    expect(lines[2]).toMatch(/^eurusd\s+EURUSD-PERP\s+halted \(paused by operator\)\s+1\.1401 \/ 1\.1403\s+100@1\.1401 \/ -\s+2\s+-200@1\.1402\s+1\.25$/);
    expect(text).toContain('total pnl 1.25 USD (fees -0.10, funding 0.00, rewards 0.00); 3 fills');
    expect(text).toContain('rate budget: user-orders 19 left, 8.0/8.0 per s');
  });

  it('ctl set values parse as JSON when they can', () => {
    expect(parseAssignments(['a=2', 'b=0.5', 'c=true', 'd=mid', 'e="x"'])).toEqual({ a: 2, b: 0.5, c: true, d: 'mid', e: 'x' });
    expect(() => parseAssignments(['nope'])).toThrow(/expected <name>=<value>/);
  });
});

describe('planReload', () => {
  const yaml = (half: number, extra = ''): string => `venue: { mode: embedded-sim }
bot: { strategies: [{ id: s, symbol: EURUSD-PERP, strategy: fixed-spread, params: { halfSpreadTicks: ${half} } }] }
${extra}`;
  it('strategy params and risk apply live; venue, symbols or other sections need a restart', async () => {
    const strategies = await builtinLookup();
    const load = (t: string) => parseConfig(t, 'bot.yaml', { strategies });
    const cur = load(yaml(1));
    expect(planReload(cur, load(yaml(2, 'risk: { max_order_qty: 7 }')))).toMatchObject({ ok: true, params: [{ id: 's', params: expect.objectContaining({ halfSpreadTicks: 2 }) }], risk: true });
    expect(planReload(cur, load(yaml(1)))).toEqual({ ok: true, params: [], risk: false });
    const moved = planReload(cur, load(yaml(1).replace('EURUSD-PERP', 'XAU-PERP')));
    expect(moved.ok).toBe(false);
    expect(!moved.ok && moved.needsRestart).toEqual(expect.arrayContaining(['bot.strategies.0.symbol']));
    const venue = planReload(cur, load(yaml(1, 'monitoring: { port: 9999 }')));
    expect(!venue.ok && venue.needsRestart).toEqual(['monitoring.port']);
  });
});
