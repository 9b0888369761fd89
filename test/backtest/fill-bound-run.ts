/**
 * Runs a backtest config on a recording and checks our fills against the market's prints at or
 * through our prices (src/backtest/fill-bound.ts). Used by fill-bound.test.ts on small real slices,
 * and by hand on whole files:
 *   node bin/run-ts.js test/backtest/fill-bound-run.ts <config.yaml> <recording.jsonl.gz>
 */
import { dirname, resolve } from 'node:path';
import { fillBound, type FillBoundCheck } from '../../src/backtest/fill-bound.ts';
import { executeRunSpec } from '../../src/backtest/run-spec.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { loadColumnar } from '../../src/record/columnar.ts';

/** The check for one config and recording, with the run's fill count. */
export async function checkFillBound(config: string, recording: string): Promise<FillBoundCheck & { readonly fills: number }> {
  const setup = await loadBacktestSetup(resolve(config));
  const col = await loadColumnar([resolve(recording)]);
  const run = await executeRunSpec(setup.spec, col, dirname(resolve(config)));
  return { ...fillBound(col, run.fills), fills: run.fills.length };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [config, recording] = process.argv.slice(2);
  if (!config || !recording) throw new Error('usage: fill-bound-run.ts <config.yaml> <recording.jsonl.gz>');
  const c = await checkFillBound(config, recording);
  const worst = [...c.rows].sort((a, b) => b.ours / Math.max(b.market, 1) - a.ours / Math.max(a.market, 1))[0];
  process.stdout.write(
    `${c.fills} fills, ${c.oursTotal} contracts as maker (${c.crossedTotal} by book crossings) at ${c.rows.length} price levels/sides\n` +
      `levels over the market's volume at or through the price: ${c.over.length} counting crossings, ${c.overFromPrints.length} without\n` +
      (worst ? `tightest: ${worst.side} ${worst.priceTicks}: ours ${worst.ours} (crossed ${worst.crossed}) vs market ${worst.market}\n` : '') +
      c.over.slice(0, 10).map((r) => `  over: ${r.side} ${r.priceTicks}: ours ${r.ours} (crossed ${r.crossed}) vs market ${r.market}\n`).join(''),
  );
}
