import { describe, expect, it } from 'vitest';
import { settle } from '../../src/backtest/settle.ts';

describe('settle (the replay loop waiting for engine continuations)', () => {
  it('resolves only after a long chain of continuations queued before it has finished', async () => {
    for (let round = 0; round < 600; round++) {
      let done = false;
      void (async () => {
        for (let k = 0; k < 500; k++) await null;
        await Promise.all([Promise.resolve(1), (async () => { await null; })()]);
        done = true;
      })();
      await settle();
      expect(done).toBe(true);
    }
  });

  it('still lets the event loop run now and then (signals, worker messages)', async () => {
    let immediates = 0;
    let stop = false;
    const spin = (): void => void setImmediate(() => { immediates++; if (!stop) spin(); });
    spin();
    for (let k = 0; k < 1024; k++) await settle();
    stop = true;
    expect(immediates).toBeGreaterThan(0);
  });
});
