/**
 * strategy.glft_quote_p50_us / p99_us: one `glft` evaluation with its online calibration — the
 * mid into the σ estimate, the public trades since the previous call into the λ(δ) = A·e^(−kδ)
 * estimate, the refit of σ, A, k and γ every second of engine time, the GLFT quotes, snapping,
 * post-only and the hard cap — on prebuilt contexts (a 1-tick market random-walking every 100 ms,
 * Poisson trades at 3/s, the position moving), after 10 minutes of market warm-up. Also the
 * same for avellaneda-stoikov, and glft with every overlay. Per-call percentiles, best of 3 rounds.
 */
import { asSymbol, Decimal } from '../../src/core/index.ts';
import { TickGrid, type Book, type Instrument, type TradePrinted } from '../../src/domain/index.ts';
import { Rng } from '../../src/sim/market/rng.ts';
import { buildContext, flatPosition, overlayConfigSchema, parseStrategyParams, withOverlays, type Strategy, type StrategyContext, type StrategyDefinition } from '../../src/strategy/index.ts';
import { strategy as avellanedaStoikov } from '../../strategies/avellaneda-stoikov/index.ts';
import { strategy as glft } from '../../strategies/glft/index.ts';
import { percentile, type Bench, type Metric } from './bench-kit.ts';

const SYM = asSymbol('EURUSD-PERP');
const INST = { symbol: SYM, grid: new TickGrid('0.0001'), multiplier: new Decimal(1), minOrderSize: 1, fundingSchedule: null } as unknown as Instrument;
const STEP_MS = 100;
const WARM = 6_000; // 10 minutes
const MEASURED = 20_000;
const ROUNDS = 3;

/** Contexts of a synthetic market, built up front so the timing covers the strategy only. */
function contexts(n: number, startMs: number, seed: number): StrategyContext[] {
  const rng = new Rng(seed);
  let mid = 10_000.5;
  let q = 0;
  let nextTrade = startMs;
  const out: StrategyContext[] = [];
  for (let i = 0; i < n; i++) {
    const t = startMs + i * STEP_MS;
    mid += rng.chance(0.3) ? (rng.chance(0.5) ? 1 : -1) : 0;
    const trades: TradePrinted[] = [];
    while (nextTrade <= t) {
      const buy = rng.chance(0.5);
      const d = 0.5 + Math.round(rng.exponential(2) * 2) / 2;
      trades.push({ type: 'trade', symbol: SYM, priceTicks: Math.round(buy ? mid + d : mid - d), qty: 1 + rng.int(0, 9), aggressor: buy ? 'buy' : 'sell', tsEvent: nextTrade, tsRecv: nextTrade });
      nextTrade += rng.exponential(1000 / 3);
    }
    if (rng.chance(0.05)) q = Math.max(-100, Math.min(100, q + (rng.chance(0.5) ? 10 : -10)));
    const bid = Math.floor(mid - 0.5);
    const book: Book = { symbol: SYM, bids: [{ priceTicks: bid, qty: 50 + rng.int(0, 50) }], asks: [{ priceTicks: bid + 1, qty: 50 + rng.int(0, 50) }], tsEvent: t, tsRecv: t };
    out.push(buildContext({ symbol: SYM, instrument: INST, nowMs: t, book, trades, position: flatPosition(q) }));
  }
  return out;
}

function measure(make: () => Strategy): Record<'p50' | 'p99', number> {
  const warm = contexts(WARM, 0, 1);
  const measured = contexts(MEASURED, WARM * STEP_MS, 2);
  let best = { p50: Infinity, p99: Infinity };
  for (let r = 0; r < ROUNDS; r++) {
    const s = make();
    for (const c of warm) s.quote(c);
    const samples = new Float64Array(MEASURED);
    for (let i = 0; i < MEASURED; i++) {
      const c = measured[i]!;
      const t0 = process.hrtime.bigint();
      s.quote(c);
      samples[i] = Number(process.hrtime.bigint() - t0) / 1000;
    }
    const arr = Array.from(samples);
    const p99 = percentile(arr, 99);
    if (p99 < best.p99) best = { p50: percentile(arr, 50), p99 };
  }
  return best;
}

const create = (def: StrategyDefinition) => () => def.create(parseStrategyParams(def, { size: 10, maxPosition: 100, levels: 3 }));

export const benches: Bench[] = [
  {
    name: 'strategy',
    async run(): Promise<Record<string, Metric>> {
      const g = measure(create(glft));
      const a = measure(create(avellanedaStoikov));
      const overlays = ['funding-carry', 'volatility', 'toxicity'].map((kind) => overlayConfigSchema.parse({ kind }));
      const o = measure(() => withOverlays(create(glft)(), overlays));
      return {
        'strategy.glft_quote_p50_us': { value: g.p50, unit: 'µs' },
        'strategy.glft_quote_p99_us': { value: g.p99, unit: 'µs', target: '≤ 5' },
        'strategy.avellaneda_stoikov_quote_p99_us': { value: a.p99, unit: 'µs' },
        'strategy.glft_with_overlays_quote_p99_us': { value: o.p99, unit: 'µs' },
      };
    },
  },
];
