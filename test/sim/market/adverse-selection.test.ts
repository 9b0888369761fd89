import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { MmError } from '../../../src/core/errors.ts';
import { parseVenueConfig } from '../../../src/sim/config/venue-config.ts';
import { FlowDriver } from '../../../src/sim/market/flow-driver.ts';
import { resolveFlow } from '../../../src/sim/market/flow-params.ts';
import { parseMarketConfig } from '../../../src/sim/market/market-config.ts';
import { runPresetReport } from '../../../src/sim/market/preset-report.ts';
import { Venue } from '../../../src/sim/venue.ts';

const T0 = Date.parse('2026-09-24T10:00:00Z');

/** An in-process venue with synthetic flow on `symbols` (no sockets), on a virtual clock. */
function flowVenue(symbols: string[], market: Record<string, unknown>, seed = 1) {
  const clock = new VirtualClock(T0);
  const config = parseVenueConfig({ seed, rate_limit: { enabled: false }, instruments: { only: symbols }, market: { ...market, symbols } });
  const venue = new Venue({ config, clock });
  const flow = new FlowDriver(venue, parseMarketConfig(config).market, seed, () => undefined);
  return { clock, venue, flow };
}

const corr = (a: readonly number[], b: readonly number[]): number => {
  const ma = a.reduce((s, x) => s + x, 0) / a.length;
  const mb = b.reduce((s, x) => s + x, 0) / b.length;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
};
const diffs = (xs: readonly number[]): number[] => xs.slice(1).map((x, i) => Math.log(x / xs[i]!));

/** Quiet exogenous path: no jumps, trends or regimes (tests switch on what they look at). */
const still = { jumps_per_day: 0, trends_per_day: 0, volatile_vol_mult: 1, basis_noise_bps: 0 };

describe('informed takers', () => {
  /** Mean of taker side × mid move over the next 5 s (from the second before the trade), ticks, over 20 minutes of flow. */
  function predictiveness(informedShare: number): number {
    const { clock, venue, flow } = flowVenue(['EURUSD-PERP'], {
      defaults: { underlying: { ...still, vol_scale: 6 }, takers: { informed_share: informedShare, informed_horizon_ms: 5_000, fair_skew: 0, rate_per_min: 60 }, impact: { permanent_bps: 0, temporary_bps: 0 } },
    });
    const book = venue.books.get('EURUSD-PERP')!;
    const mid = (): number => (book.bestBid()! + book.bestAsk()!) / 2;
    const takerSides: { atMs: number; sign: number }[] = [];
    const taker = venue.accounts.accounts;
    venue.onTrade((t) => {
      if (taker.get(t.takerAccountId)?.name.startsWith('taker-')) takerSides.push({ atMs: clock.nowMs(), sign: t.takerSide === 'buy' ? 1 : -1 });
    });
    const mids = new Map<number, number>();
    flow.start();
    mids.set(0, mid());
    for (let s = 1; s <= 20 * 60; s++) {
      clock.advanceTo(T0 + s * 1000);
      mids.set(s, mid());
    }
    flow.close();
    let sum = 0;
    let n = 0;
    for (const t of takerSides) {
      // The mid at the last whole second before the trade, and 5 s after that.
      const s0 = Math.floor((t.atMs - T0) / 1000);
      const before = mids.get(s0);
      const later = mids.get(s0 + 5);
      if (before === undefined || later === undefined) continue;
      sum += t.sign * (later - before);
      n++;
    }
    expect(n).toBeGreaterThan(800);
    return sum / n;
  }

  it('their trades predict the next 5 s of the mid, more so for a larger informed share', () => {
    const none = predictiveness(0);
    const some = predictiveness(0.3);
    const most = predictiveness(0.9);
    expect(Math.abs(none)).toBeLessThan(0.3);
    expect(some).toBeGreaterThan(none + 0.2);
    expect(most).toBeGreaterThan(some + 0.3);
  });
});

describe('price impact', () => {
  it('taker flow moves the underlying permanently (and not at all without impact)', () => {
    for (const permanent of [0, 2]) {
      const { clock, venue, flow } = flowVenue(['EURUSD-PERP'], {
        defaults: { underlying: { ...still, daily_vol_pct: 0 }, takers: { informed_share: 0, fair_skew: 0 }, impact: { permanent_bps: permanent, temporary_bps: 0 } },
      });
      const start = flow.underlying('EURUSD-PERP')!;
      const flows: number[] = [];
      const moves: number[] = [];
      let net = 0;
      venue.onTrade((t) => {
        if (venue.accounts.accounts.get(t.takerAccountId)?.name.startsWith('taker-')) net += t.takerSide === 'buy' ? t.qty : -t.qty;
      });
      flow.start();
      let prev = start;
      for (let m = 1; m <= 20; m++) {
        net = 0;
        clock.advanceTo(T0 + m * 60_000);
        const now = flow.underlying('EURUSD-PERP')!;
        flows.push(net);
        moves.push(Math.log(now / prev));
        prev = now;
      }
      flow.close();
      if (permanent === 0) expect(flow.underlying('EURUSD-PERP')).toBe(start);
      else expect(corr(flows, moves)).toBeGreaterThan(0.8);
    }
  });

  it('temporary impact shifts the makers quotes after taker trades, then decays', () => {
    const { clock, venue, flow } = flowVenue(['EURUSD-PERP'], {
      defaults: { underlying: { ...still, daily_vol_pct: 0 }, takers: { informed_share: 0, fair_skew: 0, rate_per_min: 60 }, impact: { permanent_bps: 0, temporary_bps: 3, temporary_half_life_ms: 2_000 } },
    });
    const book = venue.books.get('EURUSD-PERP')!;
    const fair = (): number => flow.flows.get('EURUSD-PERP')!.fairTicks(clock.nowMs());
    let recent = 0;
    venue.onTrade((t) => {
      if (venue.accounts.accounts.get(t.takerAccountId)?.name.startsWith('taker-')) recent += t.takerSide === 'buy' ? 1 : -1;
    });
    const flowSigns: number[] = [];
    const shifts: number[] = [];
    flow.start();
    for (let s = 1; s <= 15 * 60; s++) {
      recent = 0;
      clock.advanceTo(T0 + s * 1000);
      flowSigns.push(recent);
      shifts.push((book.bestBid()! + book.bestAsk()!) / 2 - fair());
    }
    flow.close();
    expect(corr(flowSigns, shifts)).toBeGreaterThan(0.3);
    // Decays: long after the last trade the book is back around fair.
    expect(Math.abs(flow.flows.get('EURUSD-PERP')!.tempTicks(clock.nowMs() + 60_000))).toBeLessThan(0.01);
  });
});

describe('makers under stress', () => {
  it('quote wider right after a jump and in the volatile regime than in calm', () => {
    const { clock, venue, flow } = flowVenue(['EURUSD-PERP'], {
      defaults: {
        underlying: { jumps_per_day: 1_000, jump_size_bps: 5, volatile_vol_mult: 2, calm_mean_min: 3, volatile_mean_min: 1, trends_per_day: 0 },
        makers: { volatile_spread_mult: 2, jump_spread_mult: 4, jump_recovery_ms: 10_000, reaction_ms: 0 },
        takers: { rate_per_min: 6 },
      },
    });
    const book = venue.books.get('EURUSD-PERP')!;
    const path = flow.flows.get('EURUSD-PERP')!.d.path;
    const groups = { jump: [] as number[], volatile: [] as number[], calm: [] as number[] };
    flow.start();
    for (let t = 1; t <= 45 * 120; t++) {
      clock.advanceTo(T0 + t * 500);
      const now = clock.nowMs();
      const spread = book.bestAsk()! - book.bestBid()!;
      if (path.msSinceJumpAt(now - 250) < 2_000) groups.jump.push(spread);
      else if (path.msSinceJumpAt(now) > 15_000) (path.volatileAt(now - 250) ? groups.volatile : groups.calm).push(spread);
    }
    flow.close();
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (const g of Object.values(groups)) expect(g.length).toBeGreaterThan(50);
    expect(mean(groups.volatile)).toBeGreaterThan(mean(groups.calm) * 1.5);
    expect(mean(groups.jump)).toBeGreaterThan(mean(groups.volatile));
  });
});

describe('shared and correlated underlyings', () => {
  const sample = (flow: FlowDriver, symbol: string, everyMs: number, n: number, price: 'underlying' | 'fair'): number[] => {
    const f = flow.flows.get(symbol)!;
    return Array.from({ length: n }, (_, i) => (price === 'underlying' ? f.underlying(T0 + i * everyMs) : f.fairTicks(T0 + i * everyMs)));
  };

  it('instruments on one underlying move together: same underlying return, fair returns near 1 apart from basis noise', () => {
    const { flow } = flowVenue(['XAU-PERP', 'XAU-2026-SEP', 'XAU-2026-DEC'], { preset: 'normal' });
    const perp = sample(flow, 'XAU-PERP', 60_000, 600, 'underlying');
    const dec = sample(flow, 'XAU-2026-DEC', 60_000, 600, 'underlying');
    const rp = diffs(perp);
    const rd = diffs(dec);
    for (let i = 0; i < rp.length; i++) expect(rd[i]).toBeCloseTo(rp[i]!, 12);
    expect(flow.paths.size).toBe(1);
    const c = corr(diffs(sample(flow, 'XAU-PERP', 60_000, 600, 'fair')), diffs(sample(flow, 'XAU-2026-SEP', 60_000, 600, 'fair')));
    expect(c).toBeGreaterThan(0.9);
    expect(c).toBeLessThan(1);
  });

  it('related underlyings (FX pairs, SPY/QQQ) move with about the configured correlation', () => {
    for (const rho of [0.3, 0.8]) {
      const { flow } = flowVenue(['EURUSD-PERP', 'GBPUSD-PERP', 'SPY-PERP', 'QQQ-PERP', 'XAU-PERP'], { step_ms: 1_000, defaults: { underlying: { ...still, correlation: rho } } });
      const r = (s: string) => diffs(sample(flow, s, 60_000, 2_500, 'underlying'));
      expect(corr(r('EURUSD-PERP'), r('GBPUSD-PERP'))).toBeGreaterThan(rho - 0.08);
      expect(corr(r('EURUSD-PERP'), r('GBPUSD-PERP'))).toBeLessThan(rho + 0.08);
      expect(Math.abs(corr(r('SPY-PERP'), r('QQQ-PERP')) - rho)).toBeLessThan(0.08);
      // Different groups stay independent.
      expect(Math.abs(corr(r('EURUSD-PERP'), r('XAU-PERP')))).toBeLessThan(0.08);
    }
  });
});

describe('market presets', () => {
  const ins = () => new Venue({ config: parseVenueConfig({ instruments: { only: ['EURUSD-PERP'] } }) }).catalog.get('EURUSD-PERP')!;

  it('parse, default to normal, and explicit defaults and overrides win over the preset', () => {
    const i = ins();
    expect(parseMarketConfig({}).market.preset).toBe('normal');
    const toxic = resolveFlow(parseMarketConfig({ market: { preset: 'toxic' } }).market, i, 1.14);
    const calm = resolveFlow(parseMarketConfig({ market: { preset: 'calm' } }).market, i, 1.14);
    expect(toxic.takers.informedShare).toBeGreaterThan(calm.takers.informedShare);
    expect(toxic.underlying.dailyVolPct).toBeGreaterThan(calm.underlying.dailyVolPct);
    expect(toxic.impact.permanentBps).toBeGreaterThan(calm.impact.permanentBps);
    const mixed = parseMarketConfig({
      market: { preset: 'toxic', defaults: { takers: { informed_share: 0.1 }, underlying: { daily_vol_pct: 0.7 } }, overrides: { 'EURUSD-PERP': { takers: { informed_share: 0.05 } } } },
    }).market;
    const r = resolveFlow(mixed, i, 1.14);
    expect(r.takers.informedShare).toBe(0.05);
    expect(r.underlying.dailyVolPct).toBe(0.7);
    expect(r.impact.permanentBps).toBe(toxic.impact.permanentBps);
  });

  it('a bad preset name is CONFIG_INVALID naming the path', () => {
    let err: unknown;
    try {
      parseVenueConfig({ market: { preset: 'wild' } }, 'venue.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).code).toBe('CONFIG_INVALID');
    expect((err as MmError).message).toMatch(/venue\.yaml: market\.preset: .*"wild"/);
    expect(() => parseVenueConfig({ market: { defaults: { takers: { informed_share: 2 } } } })).toThrow(/market\.defaults\.takers\.informed_share/);
  });

  it('the same seed gives the same flow; another seed another', () => {
    const run = (seed: number) => runPresetReport({ preset: 'normal', symbols: ['EURUSD-PERP', 'XAU-PERP'], minutes: 2, seed });
    const a = run(3);
    expect(run(3)).toEqual(a);
    expect(run(4)).not.toEqual(a);
  });

  it('must-show: the naive one-tick quoter loses net of fees with negative 10 s markouts under toxic, and earns under calm', () => {
    const [toxic] = runPresetReport({ preset: 'toxic', symbols: ['EURUSD-PERP'], minutes: 15 });
    const [calm] = runPresetReport({ preset: 'calm', symbols: ['EURUSD-PERP'], minutes: 15 });
    expect(toxic!.quoter.fills).toBeGreaterThan(100);
    expect(calm!.quoter.fills).toBeGreaterThan(100);
    expect(toxic!.quoter.netPnlUsd).toBeLessThan(0);
    expect(toxic!.quoter.markoutsBps['10s']).toBeLessThan(0);
    expect(toxic!.quoter.edgeBps + toxic!.quoter.markoutsBps['10s']).toBeLessThan(0);
    expect(calm!.quoter.netPnlUsd).toBeGreaterThan(0);
    // Calm: the spread earned outlasts what the mid takes back.
    expect(calm!.quoter.edgeBps + calm!.quoter.markoutsBps['10s']).toBeGreaterThan(0.5);
    expect(calm!.quoter.markoutsBps['10s']).toBeGreaterThan(toxic!.quoter.markoutsBps['10s'] + 1);
    expect(toxic!.realisedVolPctPerDay).toBeGreaterThan(calm!.realisedVolPctPerDay);
  });
});
