/**
 * Parity: the daemon (engine + clients) trades the local venue over real sockets with recording on;
 * the recording is then replayed in the backtester with the same config and compared with
 * `parityReport` (what `mmbot backtest --parity` prints). The backtest's fills, volume and spread
 * capture must be within the stated tolerance of the live run's.
 *
 * The recording holds the live bot's own working orders (`o` lines, subtracted from the recorded
 * levels so the replayed orders do not queue behind those "ghosts"), its order events (`x` lines: the
 * live fills are the ground truth) and its measured request round trips (`q` lines: the replay's
 * order latency is drawn from them, so machine load shows up in both). Before round trips were
 * recorded (latency modelled at 1 ms each way) the gap over 13 runs was 0–15% of fills (median 4%);
 * without subtracting own orders 0–32% (median 11%). `npm run parity:demo` is the 10-minute version.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import { loadColumnar } from '../../src/record/columnar.ts';
import { KIND } from '../../src/record/format.ts';
import { executeRunSpec } from '../../src/backtest/run-spec.ts';
import { parityReport, parityTable } from '../../src/backtest/parity.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { startDaemon } from '../../src/app/live/daemon.ts';
import { createLogger } from '../../src/obs/logger.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-parity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LIVE_MS = 10_000;
/** Stated tolerance: backtest fill count and volume within ±25% of live (see the gap report above). */
const TOLERANCE = 0.25;

const config = (recordingPath: string): string => `
venue:
  mode: embedded-sim
  sim:
    seed: 11
    clock_speed: 1
    synthetic_market: true
    knobs:
      ack_latency_ms: 0       # immediate acks, as when the gaps above were measured (the replay draws its latency from the recorded round trips either way)
      market:
        preset: calm          # few informed takers: live fills depend less on this loaded machine's timing
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
  path: ${recordingPath}
backtest:
  queue_model: { kind: risk-averse }
`;

/**
 * p99 event-loop lag (ms) past which the live leg is deemed starved: a quiet box reads 11–12 (the
 * monitor's 10 ms resolution plus scheduling), three busy loops on 2 cores 15–17, where the gap
 * went past the tolerance in 2 of 12 runs (28.8 and 30.0 %; 8–12 % typical).
 */
const STARVED_LAG_P99_MS = 14;

/** Runs the daemon live for LIVE_MS with recording on, then backtests the recording. */
async function liveAndReplay(attempt: number) {
  const file = join(dir, `parity-${attempt}.yaml`);
  writeFileSync(file, config(join(dir, `live-${attempt}.jsonl.gz`)));
  const setup = await loadBacktestSetup(file);
  const log = createLogger({ level: 'silent', pretty: false, destination: new Writable({ write: (_c, _e, cb) => cb() }) as never });
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const daemon = await startDaemon({ config: setup.config, log, clock: new LiveClock() });
  const live: { side: string; qty: number; price: number }[] = [];
  const sub = daemon.engine.events$.subscribe((e) => {
    if (e.type === 'fill') live.push({ side: e.side, qty: e.qty, price: e.priceTicks });
  });
  await new Promise((r) => setTimeout(r, LIVE_MS));
  await daemon.stop('parity test done');
  lag.disable();
  sub.unsubscribe();
  const lagP99Ms = lag.percentile(99) / 1e6;
  process.stderr.write(`attempt ${attempt}: event loop lag ms p50 ${(lag.percentile(50) / 1e6).toFixed(1)} p99 ${lagP99Ms.toFixed(1)} max ${(lag.max / 1e6).toFixed(1)}\n`);
  const col = await loadColumnar([setup.config.recording!.path]);
  const run = await executeRunSpec(setup.spec, col);
  return { setup, live, col, run, lagP99Ms };
}

describe('parity: live run on the local venue vs. backtest of its recording', () => {
  it(`backtest fills are within ±${TOLERANCE * 100}% of the live run's (count and volume)`, async () => {
    // The live leg is the reference only if the machine kept up with it: when its event loop was
    // starved (p99 lag past STARVED_LAG_P99_MS; a full CI run on a loaded 2-core box) the live bot
    // reacts late and collects fills the recording cannot explain, and the gap measured the box,
    // not the backtest. Then, and only if the gap is out of tolerance, the live leg runs once more;
    // the second attempt is asserted whatever its lag.
    let attempt = await liveAndReplay(1);
    const countGapOf = (a: typeof attempt): number => Math.abs(a.run.fills.length - a.live.length) / Math.max(1, a.live.length);
    if (countGapOf(attempt) > TOLERANCE && attempt.lagP99Ms > STARVED_LAG_P99_MS) {
      process.stderr.write(`attempt 1 starved (p99 lag ${attempt.lagP99Ms.toFixed(1)} ms) with a fill-count gap of ${countGapOf(attempt).toFixed(3)}: running the live leg again\n`);
      attempt = await liveAndReplay(2);
    }
    const { setup, live, col, run } = attempt;
    let ownRows = 0;
    for (let i = 0; i < col.length; i++) if (col.kind[i] === KIND.own) ownRows++;
    const parity = parityReport(run, TOLERANCE);
    process.stderr.write(`${parityTable(parity)}\n`);
    // The same recording replayed as if the bot's own orders had not been recorded (the old gap).
    const kept = await executeRunSpec({ ...setup.spec, settings: { ...setup.spec.settings, ownOrders: 'keep' } }, col);
    const bt = run.fills;
    const vol = (fs: readonly { qty: number }[]): number => fs.reduce((a, f) => a + f.qty, 0);
    const rel = (a: number, b: number): number => (b === 0 ? (a === 0 ? 0 : 1) : Math.abs(a - b) / b);
    const gap = {
      liveFills: live.length,
      backtestFills: bt.length,
      liveVolume: vol(live),
      backtestVolume: vol(bt),
      liveBuyVolume: vol(live.filter((f) => f.side === 'buy')),
      backtestBuyVolume: vol(bt.filter((f) => f.side === 'buy')),
      recordedEvents: col.length,
      ownOrderRows: ownRows,
      countGap: Number(rel(bt.length, live.length).toFixed(3)),
      volumeGap: Number(rel(vol(bt), vol(live)).toFixed(3)),
      // Without subtracting the bot's own orders from the recorded queue:
      keptFills: kept.fills.length,
      keptVolumeGap: Number(rel(vol(kept.fills), vol(live)).toFixed(3)),
    };
    process.stderr.write(`parity gap: ${JSON.stringify(gap)}\n`);
    expect(gap.recordedEvents).toBeGreaterThan(50);
    expect(gap.ownOrderRows).toBeGreaterThan(10);
    expect(gap.liveFills).toBeGreaterThan(5);
    expect(gap.countGap).toBeLessThanOrEqual(TOLERANCE);
    expect(gap.volumeGap).toBeLessThanOrEqual(TOLERANCE);
    // The recording holds the live run's ground truth: every fill the engine saw, and the round trips.
    expect(parity.live.fills).toBe(live.length);
    expect(parity.live.volume).toBe(vol(live));
    expect(run.latency.source).toBe('recorded');
    expect(parity.live_round_trips['place']!.count).toBeGreaterThan(5);
    // The daemon wrote the account's whoami rates into the header (bot.fee_rates overrides them here).
    expect(col.headers[0]!.fees).toEqual({ 'EURUSD-PERP': { maker: '0', taker: '0.0002' } });
    expect(run.fees['EURUSD-PERP']).toEqual({ maker: 0, taker: 0.0002, source: 'config' });
    // The parity table: fills and spread capture per contract within the tolerance.
    const row = (f: string) => parity.rows.find((r) => r.figure === f)!;
    expect(Math.abs(row('fills').divergence!)).toBeLessThanOrEqual(TOLERANCE);
    expect(Math.abs(row('spread_capture_per_contract_usd').divergence!)).toBeLessThanOrEqual(TOLERANCE); // the edge per fill; the total also carries the fill gap
    expect(parity.within_tolerance).toBe(true);
  }, 80_000);
});
