/**
 * The config the control-API tests run a daemon with: the embedded venue, one two-level
 * fixed-spread quoter on EURUSD-PERP, and the control token read from the env var `tokenEnv`
 * (each test file its own, as files run in parallel).
 */
export const controlledDaemonConfig = (o: { tokenEnv: string; halfSpreadTicks?: number; seed?: number }): string => `venue:
  mode: embedded-sim
  sim: { seed: ${o.seed ?? 7}, synthetic_market: true }
bot:
  status_interval_ms: 0
  strategies:
    - id: eurusd
      symbol: EURUSD-PERP
      strategy: fixed-spread
      params: { levels: 2, halfSpreadTicks: ${o.halfSpreadTicks ?? 1}, spacingTicks: 1, size: 100, maxPosition: 1000 }
risk: { max_position: 2000, max_order_qty: 500, max_open_orders: 10 }
monitoring:
  port: 0
  control: { token: "\${${o.tokenEnv}}" }
rewards: { enabled: false }
`;
