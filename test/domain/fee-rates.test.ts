import { describe, expect, it } from 'vitest';
import { resolveFeeRates, statedFeeRates, VENUE_DEFAULT_FEE_RATES } from '../../src/domain/fee-rates.ts';
import { DEFAULT_FEE_RATES } from '../../src/engine/index.ts';

describe('fee rates from one place', () => {
  it('explicit config beats the stated (account / recording) rates, which beat the venue default', () => {
    expect(resolveFeeRates({ maker: 0.0001, taker: 0.0003 }, { maker: 0, taker: 0.0002 })).toEqual({ maker: 0.0001, taker: 0.0003, source: 'config' });
    expect(resolveFeeRates(null, { maker: 0, taker: 0.0002 })).toEqual({ maker: 0, taker: 0.0002, source: 'account' });
    expect(resolveFeeRates(undefined, { maker: -0.0001, taker: 0.0002 }, 'recording')).toEqual({ maker: -0.0001, taker: 0.0002, source: 'recording' });
    expect(resolveFeeRates(null, null)).toEqual({ ...VENUE_DEFAULT_FEE_RATES, source: 'venue-default' });
    expect(DEFAULT_FEE_RATES).toEqual(VENUE_DEFAULT_FEE_RATES); // the engine's default is the same schedule
  });

  it('reads the venue\'s decimal strings; malformed or absent → null', () => {
    expect(statedFeeRates({ maker: '0', taker: '0.0002' })).toEqual({ maker: 0, taker: 0.0002 });
    expect(statedFeeRates({ maker: 'x', taker: '0.0002' })).toBeNull();
    expect(statedFeeRates(undefined)).toBeNull();
  });
});
