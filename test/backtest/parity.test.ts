/**
 * Parity: the daemon (engine + clients) trades the local venue over real sockets with recording on;
 * the recording is then replayed in the backtester with the same config. The backtest's fills must
 * be within the stated tolerance of the live run's. The gap has known causes: the recorded book
 * contains the live bot's own orders (the replayed orders queue behind those ghosts), latency is
 * modelled rather than measured, and live quotes react to fills the replay may not reproduce.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import { loadColumnar } from '../../src/record/columnar.ts';
import { executeRunSpec } from '../../src/backtest/run-spec.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { startDaemon } from '../../src/cli/live/daemon.ts';
import { createLogger } from '../../src/obs/logger.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-parity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LIVE_MS = 10_000;
/** Stated tolerance: backtest fill count and volume within ±35% of live (see the gap report). */
const TOLERANCE = 0.35;

const config = `
venue:
  mode: embedded-sim
  sim:
    seed: 11
    clock_speed: 1
    synthetic_market: true
    knobs:
      market:
        step_ms: 100
        defaults:
          takers: { rate_per_min: 600 }
bot:
  strategies:
    - id: eurusd
      symbol: EURUSD-PERP
      strategy: fixed-spread
      params: { levels: 1, halfSpreadTicks: 2, size: 100, maxPosition: 2000 }
  fee_rates: { maker: 0, taker: 0.0002 }
risk:
  max_position: 3000
  max_order_qty: 500
order_manager:
  min_order_lifetime_ms: 250
monitoring: { enabled: false }
logging: { level: silent }
recording:
  path: ${join(dir, 'live.jsonl.gz')}
backtest:
  queue_model: { kind: risk-averse }
  order_latency: { entry: 1, response: 1 }
  fees: { maker: 0, taker: 0.0002 }
`;

describe('parity: live run on the local venue vs. backtest of its recording', () => {
  it(`backtest fills are within ±${TOLERANCE * 100}% of the live run's (count and volume)`, async () => {
    const file = join(dir, 'parity.yaml');
    writeFileSync(file, config);
    const setup = await loadBacktestSetup(file);
    const log = createLogger({ level: 'silent', pretty: false, destination: new Writable({ write: (_c, _e, cb) => cb() }) as never });
    const daemon = await startDaemon({ config: setup.config, log, clock: new LiveClock() });
    const live: { side: string; qty: number; price: number }[] = [];
    const sub = daemon.engine.events$.subscribe((e) => {
      if (e.type === 'fill') live.push({ side: e.side, qty: e.qty, price: e.priceTicks });
    });
    await new Promise((r) => setTimeout(r, LIVE_MS));
    await daemon.stop('parity test done');
    sub.unsubscribe();

    const col = await loadColumnar([setup.config.recording!.path]);
    const run = await executeRunSpec(setup.spec, col);
    const bt = run.fills;
    const vol = (fs: readonly { qty: number }[]): number => fs.reduce((a, f) => a + f.qty, 0);
    const gap = {
      liveFills: live.length,
      backtestFills: bt.length,
      liveVolume: vol(live),
      backtestVolume: vol(bt),
      liveBuyVolume: vol(live.filter((f) => f.side === 'buy')),
      backtestBuyVolume: vol(bt.filter((f) => f.side === 'buy')),
      recordedEvents: col.length,
    };
    const rel = (a: number, b: number): number => (b === 0 ? (a === 0 ? 0 : 1) : Math.abs(a - b) / b);
    process.stderr.write(`parity gap: ${JSON.stringify({ ...gap, countGap: rel(gap.backtestFills, gap.liveFills).toFixed(3), volumeGap: rel(gap.backtestVolume, gap.liveVolume).toFixed(3) })}\n`);
    expect(gap.recordedEvents).toBeGreaterThan(50);
    expect(gap.liveFills).toBeGreaterThan(5);
    expect(rel(gap.backtestFills, gap.liveFills)).toBeLessThanOrEqual(TOLERANCE);
    expect(rel(gap.backtestVolume, gap.liveVolume)).toBeLessThanOrEqual(TOLERANCE);
  }, 40_000);
});
