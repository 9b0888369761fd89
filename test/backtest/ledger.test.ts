import { describe, expect, it } from 'vitest';
import { feeSchedule, SymbolLedger } from '../../src/backtest/ledger.ts';
import { testInstrument } from '../record/fixtures.ts';

describe('SymbolLedger', () => {
  it('USD sums read between fills follow every fill (they are kept per fill count, not recomputed per read)', () => {
    // tick 0.01, multiplier 1: a tick × contract is 0.01 USD; maker −0.1 bp (a rebate), taker 0.3 bp.
    const l = new SymbolLedger(testInstrument('AMZN', '0.01', 1), feeSchedule('-0.00001', '0.00003'));
    const read = () => [l.tradeCash.toFixed(), l.fees.toFixed(), l.spreadCapture.toFixed(), l.netPnl(22390).toFixed(), l.fills];
    expect(read()).toEqual(['0', '0', '0', '0', 0]);
    l.fill('buy', 22381, 100, false, 22388);
    // 22,381 USD bought as maker: rebate 0.22381; bought 7 ticks under the mid: spread 100 × 0.07.
    expect(read()).toEqual(['-22381', '-0.22381', '7', '9.22381', 1]);
    expect(read()).toEqual(['-22381', '-0.22381', '7', '9.22381', 1]);
    l.fill('sell', 22395, 40, true, 22390);
    // Sold 8,958 USD as taker 5 ticks over the mid: fee 0.26874, spread + 40 × 0.05; 60 long at 223.90.
    expect(read()).toEqual(['-13423', '0.04493', '9', '10.95507', 2]);
    l.funding = l.funding.plus(-1.5);
    expect(l.netPnl(22390).toFixed()).toBe('9.45507');
  });
});
