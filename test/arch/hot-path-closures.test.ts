import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The sources run through tsx, whose esbuild transform keeps function names (`keepNames`): every
 * arrow or function expression held in a `const` or an object property inside a function is wrapped
 * in a `__name(fn, "name")` call, an `Object.defineProperty` on each creation. On a per-event or
 * per-order path that costs: three named callbacks per order request were ~10 % of a replayed AMZN
 * day (src/engine/README.md, "Hot-path cost rules"). This pins how many such inner named closures
 * each hot-path file has; a new one fails here (use an object method, a class, or hoist it).
 */
const ROOT = resolve(import.meta.dirname, '../..');
// The esbuild tsx itself loads (a dependency of tsx's), so the check sees exactly what runs.
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'))('esbuild') as typeof import('esbuild');

/** Hot-path files and the inner named closures each may keep, with where they run (never per event). */
const ALLOWED: Record<string, number> = {
  'src/engine/order-requests.ts': 7, // cancel-all (kill switch, stop), the status query and its answer: rare paths
  'src/engine/order-store.ts': 0,
  'src/engine/order-manager.ts': 4, // the diff's order accessors, built once in the constructor
  'src/engine/engine-core.ts': 14, // executor, accounting and unknown-fill callbacks, built once in the constructor
  'src/engine/accounting.ts': 3, // the fee poll's request: one per fill-poll interval, not per fill
  'src/engine/quote-diff.ts': 0,
  'src/engine/market-state.ts': 0,
  'src/engine/symbol-slot.ts': 0,
  'src/engine/strategy-group.ts': 0,
  'src/engine/settle-memo.ts': 0,
  'src/engine/kill-switch-inputs.ts': 0,
  'src/engine/position-ledger.ts': 0,
  'src/engine/md-watch.ts': 0,
  'src/engine/effective-state.ts': 0,
  'src/risk/md-sanity.ts': 0,
  'src/risk/quote-gate.ts': 0,
  'src/execution/executor.ts': 1, // config validation, at construction
  'src/backtest/local-feed.ts': 0,
  'src/backtest/feed-delivery.ts': 0,
  'src/backtest/exchange-market.ts': 0,
  'src/backtest/exchange-core.ts': 0,
  'src/backtest/l3-fifo.ts': 0,
  'src/backtest/dense-book.ts': 0,
  'src/backtest/retired-orders.ts': 0,
  'src/backtest/observer.ts': 0,
  'src/backtest/action-queue.ts': 0,
  'src/backtest/replay-ids.ts': 0,
  'src/backtest/replay-exchange.ts': 0,
  'src/core/clock.ts': 1, // LiveClock.setTimer's re-arm for delays past 2^31 ms (live only)
  'src/core/ulid.ts': 0,
};

/** Lines of the transformed file that name a closure inside a function (top-level names run once). */
function innerNamedClosures(file: string): string[] {
  const { code } = esbuild.transformSync(readFileSync(join(ROOT, file), 'utf8'), { loader: 'ts', keepNames: true, format: 'esm' });
  return code.split('\n').filter((l) => /^\s+.*__name\(/.test(l) && !/__name\(this, /.test(l));
}

describe('hot-path files create no named closures per call (tsx keepNames)', () => {
  for (const [file, allowed] of Object.entries(ALLOWED)) {
    it(file, () => {
      const found = innerNamedClosures(file);
      expect(found.length, `inner named closures in ${file}:\n${found.map((l) => l.trim().slice(0, 120)).join('\n')}`).toBe(allowed);
    });
  }
});
