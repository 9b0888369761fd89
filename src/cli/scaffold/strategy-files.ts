/**
 * The files `mmbot new strategy <name>` writes: a project of its own that depends on mmbot, with a
 * strategy, a backtest config over the sample recording, and one test. Pure: name and dependency
 * spec in, file contents out; the command writes them.
 */

/** A file to write, relative to the new project's folder. */
export interface ScaffoldFile {
  readonly path: string;
  readonly contents: string;
}

/** The sample recording the scaffold copies, relative to the mmbot package root. */
export const SAMPLE_RECORDING = 'data/sample/eurusd-perp-local.jsonl.gz';

/** The strategy: the README's example, one level each side of the mid. */
export function strategySource(name: string): string {
  return `import { z, type StrategyDefinition } from 'mmbot';

const params = z.strictObject({
  // Every number bounded both ways: \`mmbot ctl set halfSpreadTicks=1e300\` is then refused, not obeyed.
  halfSpreadTicks: z.number().int().min(1).max(100_000).default(2).describe('distance of each quote from the mid, in ticks'),
  size: z.number().int().min(1).max(1_000_000_000).describe('contracts per quote'),
});

export const strategy: StrategyDefinition<typeof params> = {
  name: '${name}',
  description: 'one level each side of the mid',
  params,
  create: (p) => ({
    bookDepth: 1, // reads only the touch: deeper book changes do not call quote
    quote(ctx) {
      const bid = ctx.book?.bids[0]?.priceTicks;
      const ask = ctx.book?.asks[0]?.priceTicks;
      if (bid === undefined || ask === undefined) return null; // no change
      const mid = (bid + ask) / 2;
      return {
        symbol: ctx.symbol,
        bids: [{ priceTicks: Math.floor(mid - p.halfSpreadTicks), qty: p.size }],
        asks: [{ priceTicks: Math.ceil(mid + p.halfSpreadTicks), qty: p.size }],
      };
    },
  }),
};
export default strategy;
`;
}

function testSource(name: string): string {
  return `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildContext, makeInstrument, parseStrategyParams } from 'mmbot';
import { strategy } from '../src/${name}.ts';

const instrument = makeInstrument({ symbol: 'EURUSD-PERP', tickSize: '0.0001' });
const symbol = instrument.symbol;

test('quotes halfSpreadTicks either side of the mid', () => {
  const quoter = strategy.create(parseStrategyParams(strategy, { halfSpreadTicks: 2, size: 100 }));
  const book = { symbol, bids: [{ priceTicks: 11400, qty: 500 }], asks: [{ priceTicks: 11403, qty: 500 }], tsEvent: 0, tsRecv: 0 };
  // mid 11401.5: bid floor(11399.5) = 11399, ask ceil(11403.5) = 11404
  assert.deepEqual(quoter.quote(buildContext({ symbol, instrument, book })), {
    symbol,
    bids: [{ priceTicks: 11399, qty: 100 }],
    asks: [{ priceTicks: 11404, qty: 100 }],
  });
});

test('quotes nothing without a two-sided book', () => {
  const quoter = strategy.create(parseStrategyParams(strategy, { size: 100 }));
  assert.equal(quoter.quote(buildContext({ symbol, instrument, book: null })), null);
});
`;
}

function backtestConfig(name: string): string {
  return `# Backtest of ./src/${name}.ts on the sample recording: npm run backtest
# (the daemon's config format plus a backtest: section; \`npx mmbot config check backtest.yaml\`)
venue:
  mode: embedded-sim            # ignored by a backtest; \`npx mmbot run --config backtest.yaml\` paper-trades on the local venue

bot:
  strategies:
    - id: ${name}
      symbol: EURUSD-PERP
      strategy: ./src/${name}.ts
      params: { halfSpreadTicks: 1, size: 100 }
  fee_rates: { maker: 0, taker: 0.0002 }

risk:
  max_position: 2000
  max_order_qty: 500
  max_open_orders: 10

monitoring:
  enabled: false

backtest:
  data: [data/sample.jsonl.gz]  # relative to this file; --data overrides
  out_dir: backtests
`;
}

/** The dev tools a new project type-checks with, by the versions mmbot itself is checked with. */
export const DEV_DEPENDENCIES = ['typescript', '@types/node'] as const;

/**
 * Every file of the new project but the copied sample recording. `devDependencies` maps each of
 * DEV_DEPENDENCIES to its version spec (mmbot's own, so the project compiles as mmbot does).
 */
export function strategyProjectFiles(name: string, mmbotDependency: string, devDependencies: Readonly<Record<string, string>>): ScaffoldFile[] {
  const pkg = {
    name,
    private: true,
    type: 'module',
    scripts: {
      backtest: 'mmbot backtest --config backtest.yaml',
      test: `node --import mmbot/register --test test/${name}.test.ts`,
      typecheck: 'tsc -p tsconfig.json',
    },
    dependencies: { mmbot: mmbotDependency },
    devDependencies: { ...devDependencies },
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      allowImportingTsExtensions: true,
      noEmit: true,
      strict: true,
      skipLibCheck: true,
    },
    include: ['src', 'test'],
  };
  const readme = `# ${name}

A market-making strategy for mmbot.

\`\`\`sh
npm install          # mmbot and its dependencies
npm run typecheck    # the strategy and its test against mmbot's types
npm test             # the strategy's unit test
npm run backtest     # backtest it on the sample recording; the report lands in backtests/
\`\`\`

The strategy is \`src/${name}.ts\`; \`backtest.yaml\` runs it (\`--data my.jsonl.gz\` for other data).
`;
  return [
    { path: 'package.json', contents: `${JSON.stringify(pkg, null, 2)}\n` },
    { path: 'tsconfig.json', contents: `${JSON.stringify(tsconfig, null, 2)}\n` },
    { path: `src/${name}.ts`, contents: strategySource(name) },
    { path: `test/${name}.test.ts`, contents: testSource(name) },
    { path: 'backtest.yaml', contents: backtestConfig(name) },
    { path: '.gitignore', contents: 'node_modules/\nbacktests/\n' },
    { path: 'README.md', contents: readme },
  ];
}
