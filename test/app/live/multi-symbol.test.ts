import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { runBacktest } from '../../../src/backtest/runner.ts';
import { defaultSettings } from '../../../src/backtest/settings.ts';
import { createEngine, DEFAULT_EXECUTION_CONFIG, DEFAULT_ORDER_MANAGER_CONFIG, DEFAULT_RISK_CONFIG } from '../../../src/engine/index.ts';
import { loadColumnar, readRecording } from '../../../src/record/index.ts';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runDaemon } from '../../../src/app/live/run-daemon.ts';
import type { SignalSource, StopSignal } from '../../../src/app/live/shutdown.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { asSymbol } from '../../../src/core/ids.ts';
import { createLogger } from '../../../src/obs/logger.ts';
import type { OwnFill, StrategyContext, StrategyDefinition, StrategyOutput } from '../../../src/strategy/contract.ts';

/*
 * A two-symbol strategy in the daemon against the embedded local venue over real sockets: it quotes
 * a ladder on each symbol (both rest at the venue), sends one marketable hedge on the second symbol
 * (an IOC that trades against the synthetic book as taker), and sees that fill in ctx.fills.
 */

const PERP = asSymbol('XAU-PERP');
const DEC = asSymbol('XAU-2026-DEC');

interface Probe {
  hedgeSent: boolean;
  fills: OwnFill[];
  views: Set<string>;
}
const probe: Probe = { hedgeSent: false, fills: [], views: new Set() };

const pair: StrategyDefinition = {
  name: 'pair',
  description: 'quotes two symbols and hedges once',
  params: z.object({}),
  create: () => ({
    quote(ctx: StrategyContext): StrategyOutput {
      probe.fills.push(...ctx.fills);
      const quotes = [];
      for (const s of ctx.symbols) {
        const v = ctx.view(s);
        const bid = v.book?.bids[0]?.priceTicks;
        const ask = v.book?.asks[0]?.priceTicks;
        if (bid === undefined || ask === undefined) continue;
        probe.views.add(s);
        quotes.push({ symbol: s, bids: [{ priceTicks: bid - 40, qty: 1 }], asks: [{ priceTicks: ask + 40, qty: 1 }] });
      }
      const decAsk = ctx.view(DEC).book?.asks[0]?.priceTicks;
      if (probe.hedgeSent || decAsk === undefined) return { quotes };
      probe.hedgeSent = true;
      return { quotes, hedges: [{ symbol: DEC, side: 'buy', qty: 1, limitTicks: decAsk + 5 }] };
    },
  }),
};

const CONFIG = `venue: { mode: embedded-sim, sim: { seed: 5 } }
bot: { status_interval_ms: 0, strategies: [{ symbols: [XAU-PERP, XAU-2026-DEC], strategy: pair }] }
monitoring: { enabled: false }
rewards: { enabled: false }
`;

function logSink(): { log: ReturnType<typeof createLogger>; lines: Record<string, unknown>[]; waitFor(pred: (l: Record<string, unknown>) => boolean, ms: number, what: string): Promise<Record<string, unknown>> } {
  const lines: Record<string, unknown>[] = [];
  const waiters: { pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  const out = new Writable({
    write(chunk: Buffer, _e, cb) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) {
        const l = JSON.parse(text) as Record<string, unknown>;
        lines.push(l);
        for (const w of [...waiters]) if (w.pred(l)) w.resolve(l);
      }
      cb();
    },
  });
  return {
    log: createLogger({ destination: out, pretty: false, level: 'info' }),
    lines,
    waitFor: (pred, ms, what) =>
      new Promise((resolve, reject) => {
        const seen = lines.find(pred);
        if (seen) return resolve(seen);
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; log: ${lines.map((l) => String(l['msg'])).join(' | ')}`)), ms);
        waiters.push({ pred, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      }),
  };
}

describe('a multi-symbol strategy in the daemon (local venue, real sockets)', () => {
  it('quotes both symbols, hedges as taker on the second, sees the fill, and stops clean', async () => {
    const sink = logSink();
    const emitter = new EventEmitter();
    const signals: SignalSource & { raise(s: StopSignal): void } = { on: (s, fn) => emitter.on(s, fn), off: (s, fn) => emitter.off(s, fn), raise: (s) => emitter.emit(s) };
    const lookup = (n: string): StrategyDefinition | undefined => (n === 'pair' ? pair : undefined);
    const config = parseConfig(CONFIG, 'pair.yaml', { strategies: lookup });
    const code = runDaemon(config, sink.log, { signals, processEvents: new EventEmitter() as never, strategies: lookup, forceExit: () => {} });
    try {
      const hedge = await sink.waitFor((l) => String(l['msg']).startsWith('hedge buy 1 XAU-2026-DEC'), 20_000, 'the hedge');
      expect(hedge).toMatchObject({ type: 'hedge', sent: true, symbol: DEC });
      const fill = await sink.waitFor((l) => String(l['msg']).startsWith('fill buy 1 XAU-2026-DEC'), 10_000, 'the hedge fill');
      expect(fill).toMatchObject({ liquidity: 'taker', clientOrderId: hedge['clientOrderId'], position: 1 });
      const until = Date.now() + 10_000;
      while (!(probe.fills.length > 0 && probe.views.size === 2) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect([...probe.views].sort()).toEqual([DEC, PERP]);
      expect(probe.fills[0]).toMatchObject({ symbol: DEC, side: 'buy', qty: 1, liquidity: 'taker', clientOrderId: hedge['clientOrderId'] });
    } finally {
      signals.raise('SIGTERM');
    }
    expect(await code).toBe(0);
    expect(sink.lines.map((l) => l['msg'])).toContain('stopped: no open orders left');
    const final = sink.lines.find((l) => String(l['msg']).startsWith('final positions')) as { positions: Record<string, number> } | undefined;
    expect(final?.positions).toMatchObject({ [DEC]: 1 });
  }, 40_000);
});

describe('index and reference prices in the daemon, its recording, and a backtest of it', () => {
  it('a strategy sees the venue index and a WebSocket reference feed live; both are recorded and replayed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mmbot-prices-'));
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    const port = (wss.address() as { port: number }).port;
    let n = 0;
    const pump = setInterval(() => {
      n++;
      for (const c of wss.clients) c.send(JSON.stringify({ ts: Date.now(), price: (4012 + n / 10).toFixed(1) }));
    }, 20);
    const live: { index: number | null; ref: number | null }[] = [];
    const watcher: StrategyDefinition = {
      name: 'watcher',
      description: 'records outside prices',
      params: z.object({}),
      create: () => ({ quote: (ctx) => (live.push({ index: ctx.indexTicks, ref: ctx.references.get('ext')?.priceTicks ?? null }), null) }),
    };
    const lookup = (x: string): StrategyDefinition | undefined => (x === 'watcher' ? watcher : undefined);
    const recording = join(dir, 'rec.jsonl.gz');
    const text = `venue: { mode: embedded-sim, sim: { seed: 9 } }
bot: { status_interval_ms: 0, index_poll_ms: 100, strategies: [{ symbol: XAU-PERP, strategy: watcher }] }
reference_feeds: [{ name: ext, symbol: XAU-PERP, source: { ws: "ws://127.0.0.1:${port}", reconnect_ms: 50 } }]
recording: { path: ${recording} }
monitoring: { enabled: false }
rewards: { enabled: false }
`;
    const sink = logSink();
    const emitter = new EventEmitter();
    const signals: SignalSource & { raise(s: StopSignal): void } = { on: (s, fn) => emitter.on(s, fn), off: (s, fn) => emitter.off(s, fn), raise: (s) => emitter.emit(s) };
    const code = runDaemon(parseConfig(text, 'prices.yaml', { strategies: lookup }), sink.log, { signals, processEvents: new EventEmitter() as never, strategies: lookup, forceExit: () => {} });
    try {
      const until = Date.now() + 15_000;
      while (!live.some((x) => x.index !== null && x.ref !== null) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const both = live.find((x) => x.index !== null && x.ref !== null);
      expect(both, sink.lines.map((l) => String(l['msg'])).join(' | ')).toBeDefined();
      expect(both!.index!).toBeGreaterThan(35_000); // XAU ≈ 4012.5 in 0.1 ticks
      expect(both!.ref!).toBeGreaterThan(40_120);
    } finally {
      signals.raise('SIGTERM');
      clearInterval(pump);
    }
    expect(await code).toBe(0);
    await new Promise<void>((r) => wss.close(() => r()));

    const rec = await readRecording(recording);
    const sources = new Set(rec.events.flatMap((e) => (e.type === 'price' ? [e.source] : [])));
    expect([...sources].sort()).toEqual(['ext', 'index']);
    const replayed: { index: number | null; ref: number | null }[] = [];
    const col = await loadColumnar([recording]);
    await runBacktest({
      data: col,
      strategies: [{ id: 'w', symbol: PERP, strategy: { quote: (ctx) => (replayed.push({ index: ctx.indexTicks, ref: ctx.references.get('ext')?.priceTicks ?? null }), null) } }],
      risk: DEFAULT_RISK_CONFIG,
      execution: DEFAULT_EXECUTION_CONFIG,
      orderManager: DEFAULT_ORDER_MANAGER_CONFIG,
      settings: defaultSettings({}),
      createEngine,
    });
    const lastRef = rec.events.filter((e) => e.type === 'price' && e.source === 'ext').at(-1)!;
    expect(replayed.some((x) => x.index !== null)).toBe(true);
    expect(replayed.at(-1)!.ref).toBe(lastRef.type === 'price' ? lastRef.priceTicks : NaN);
    rmSync(dir, { recursive: true, force: true });
  }, 40_000);
});
