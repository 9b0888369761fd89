import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runDaemon } from '../../../src/app/live/run-daemon.ts';
import type { SignalSource, StopSignal } from '../../../src/app/live/shutdown.ts';
import { parseConfig } from '../../../src/config/index.ts';
import { createLogger } from '../../../src/obs/logger.ts';
import type { StrategyDefinition } from '../../../src/strategy/contract.ts';

/*
 * runDaemon in-process against the embedded local venue (real sockets on 127.0.0.1): a stop signal
 * ends in exit 0, an uncaught error in a clean stop and exit 1, a start-up failure in exit 1.
 */

const idle: StrategyDefinition = { name: 'idle', description: 'never quotes', params: z.object({}), create: () => ({ quote: () => null }) };
const CONFIG = `venue: { mode: embedded-sim, sim: { synthetic_market: false } }
bot: { status_interval_ms: 0, strategies: [{ symbol: EURUSD-PERP, strategy: idle }] }
monitoring: { port: 0 }
rewards: { enabled: false }
`;

function harness(): {
  signals: SignalSource & { raise(s: StopSignal): void };
  proc: EventEmitter;
  log: ReturnType<typeof createLogger>;
  waitFor(msg: string): Promise<void>;
  messages: string[];
} {
  const emitter = new EventEmitter();
  const messages: string[] = [];
  const waiters: { msg: string; resolve: () => void }[] = [];
  const out = new Writable({
    write(chunk: Buffer, _e, cb) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const msg = (JSON.parse(line) as { msg: string }).msg;
        messages.push(msg);
        for (const w of [...waiters]) if (msg.startsWith(w.msg)) w.resolve();
      }
      cb();
    },
  });
  return {
    signals: {
      on: (s, fn) => emitter.on(s, fn),
      off: (s, fn) => emitter.off(s, fn),
      raise: (s) => emitter.emit(s),
    },
    proc: new EventEmitter(),
    log: createLogger({ destination: out, pretty: false, level: 'info' }),
    messages,
    waitFor: (msg) => (messages.some((m) => m.startsWith(msg)) ? Promise.resolve() : new Promise((resolve) => waiters.push({ msg, resolve }))),
  };
}

const lookup = (n: string): StrategyDefinition | undefined => (n === 'idle' ? idle : undefined);
const config = (text = CONFIG): ReturnType<typeof parseConfig> => parseConfig(text, 'test.yaml', { strategies: lookup });

describe('runDaemon', () => {
  it('SIGTERM stops cleanly with exit 0; a second signal would force', async () => {
    const h = harness();
    const forced: number[] = [];
    const code = runDaemon(config(), h.log, { signals: h.signals, processEvents: h.proc as never, strategies: lookup, forceExit: (c) => forced.push(c) });
    await h.waitFor('mmbot running');
    h.signals.raise('SIGTERM');
    expect(await code).toBe(0);
    expect(h.messages).toContain('stopped: no open orders left');
    expect(forced).toEqual([]);
  });

  it('an uncaught error stops cleanly and exits 1', async () => {
    const h = harness();
    const code = runDaemon(config(), h.log, { signals: h.signals, processEvents: h.proc as never, strategies: lookup, forceExit: () => {} });
    await h.waitFor('mmbot running');
    // runDaemon attaches its handlers once start-up has returned.
    while (h.proc.listenerCount('uncaughtException') === 0) await new Promise((r) => setImmediate(r));
    h.proc.emit('uncaughtException', new Error('boom'));
    expect(await code).toBe(1);
    expect(h.messages).toContain('fatal: boom; cancelling everything and stopping');
    expect(h.messages).toContain('stopped: no open orders left');
  });

  it('a kill-switch trigger with action stop stops the daemon cleanly with exit 3 (issue 23)', async () => {
    const h = harness();
    // No market data at all (synthetic_market false): the stale-data trigger trips after 300 ms.
    const text = `${CONFIG}risk: { kill_switch: { stale_market_data_ms: 300, triggers: { stale_market_data: { action: stop } } } }\n`;
    const code = await runDaemon(config(text), h.log, { signals: h.signals, processEvents: h.proc as never, strategies: lookup, forceExit: () => {} });
    expect(code, h.messages.join('\n')).toBe(3);
    expect(h.messages.filter((m) => m.startsWith('KILL SWITCH tripped'))).toEqual([
      expect.stringMatching(/^KILL SWITCH tripped \(stale-market-data\): no market data for \d+ ms > 300; all quotes pulled, stopping the daemon$/),
    ]);
    expect(h.messages).toContain('kill switch (stale-market-data) action stop: stopping the daemon');
    expect(h.messages).toContain('stopped: no open orders left');
  });

  it('a symbol the venue does not list fails start-up with exit 2, naming the path', async () => {
    const h = harness();
    const code = await runDaemon(config(CONFIG.replace('EURUSD-PERP', 'NOPE-PERP')), h.log, { signals: h.signals, processEvents: h.proc as never, strategies: lookup });
    expect(code, h.messages.join("\n")).toBe(2);
    expect(h.messages.find((m) => m.startsWith('start-up failed'))).toContain('test.yaml: bot.strategies[0].symbol: "NOPE-PERP" is not listed by the venue');
  });
});
