import { describe, expect, it } from 'vitest';
import { FlowStateMarkouts, flowStateOf, FLOW_STATES } from '../../../src/strategy/estimators/flow-state-markouts.ts';
import { SignedTradeFlow } from '../../../src/strategy/estimators/order-flow.ts';

describe('SignedTradeFlow', () => {
  it('sums signed sizes and halves them every half-life', () => {
    const f = new SignedTradeFlow(1000);
    f.onTrade(300, true, 0);
    f.onTrade(100, false, 0);
    expect(f.valueAt(0)).toBe(200);
    expect(f.valueAt(1000)).toBeCloseTo(100, 12);
    f.onTrade(50, false, 2000);
    expect(f.valueAt(2000)).toBeCloseTo(0, 12);
  });
});

describe('flowStateOf', () => {
  it('bins the flow seen from a side in typical sizes: ≤ −1, −1…−¼, −¼…¼, ¼…1, ≥ 1', () => {
    expect([-3, -1, -0.5, -0.25, 0, 0.24, 0.25, 0.99, 1, 7].map(flowStateOf)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 4, 4].map((i, k) => (k === 0 ? 0 : i)));
    expect(FLOW_STATES[flowStateOf(-2)]).toBe('well against');
    expect(FLOW_STATES[flowStateOf(2)]).toBe('well for');
  });
});

describe('FlowStateMarkouts', () => {
  const opts = { flowHalfLifeMs: 5000, horizonMs: 10_000, halfLifeMs: 1e9, lotSize: 100, priorLots: 10 };

  it('marks each print for its resting side, horizonMs later, under the state that side was in before it', () => {
    const m = new FlowStateMarkouts(opts);
    // First print: no flow yet, both sides neutral. A sell of 100 at 99 hits the bids; 10 s later
    // the mid is 97: the resting buyer lost 2 ticks. Weight min(100, lot) = 100 → shrunk by the
    // 1,000-contract prior: −2 × 100 / 1,100.
    m.onTrade(99, 100, false, 0);
    m.updateMid(9_999, 50);
    expect(m.meanOfState(2, 9_999)).toBe(0);
    m.updateMid(10_000, 97);
    expect(m.meanOfState(2, 10_000)).toBeCloseTo((-2 * 100) / 1100, 12);
    // Every other state has seen nothing.
    for (const i of [0, 1, 3, 4]) expect(m.meanOfState(i, 10_000)).toBe(0);
  });

  it('files a print hit in the direction the flow runs under "against", and one against the flow under "well for"', () => {
    const m = new FlowStateMarkouts(opts);
    // A burst of sells: after the first, the flow seen from the bids is far below its typical size.
    m.onTrade(100, 50, false, 0);
    m.onTrade(99, 50, false, 1);
    // The bids' state now: −100 contracts of flow over a typical |flow| of (50 + 100)/2 = 75: well against.
    expect(m.stateOf(1, 1)).toBe(0);
    // …and from the asks the same flow is well for.
    expect(m.stateOf(-1, 1)).toBe(4);
    // A buyer lifts the offer at 101 right after the sells: the resting seller's state was well for.
    m.onTrade(101, 50, true, 2);
    // 10 s on, the mid is 98: the two bids (99, 100) lost 1 and 2 ticks; the ask sold at 101 earned 3.
    m.updateMid(10_002, 98);
    // The first sell came with no flow (neutral); the second after one typical sell (flow −50 over a
    // typical 50: against, not yet well against).
    expect(m.meanOfState(2, 10_002)).toBeCloseTo((-2 * 50) / (50 + 1000), 12);
    expect(m.meanOfState(1, 10_002)).toBeCloseTo((-1 * 50) / (50 + 1000), 12);
    expect(m.meanOfState(0, 10_002)).toBe(0);
    expect(m.meanOfState(4, 10_002)).toBeCloseTo((3 * 50) / (50 + 1000), 12);
    expect(m.expectedTicks(1, 10_002)).toBe(m.meanOfState(m.stateOf(1, 10_002), 10_002));
  });

  it('counts at most one lot of a print (what it could fill of ours)', () => {
    const m = new FlowStateMarkouts(opts);
    m.onTrade(99, 5000, false, 0);
    m.updateMid(10_000, 98);
    expect(m.meanOfState(2, 10_000)).toBeCloseTo((-1 * 100) / 1100, 12);
  });

  it('refuses non-positive horizons, half-lives and lots', () => {
    expect(() => new FlowStateMarkouts({ ...opts, horizonMs: 0 })).toThrow(RangeError);
    expect(() => new FlowStateMarkouts({ ...opts, lotSize: 0 })).toThrow(RangeError);
  });
});
