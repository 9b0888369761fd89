import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { Decimal } from '../../src/core/decimal.ts';
import { asSymbol } from '../../src/core/ids.ts';
import type { FundingSettlement } from '../../src/domain/funding.ts';
import { pollFundingSettlements } from '../../src/app/funding-poller.ts';

const settlement = (tsEvent: number): FundingSettlement => ({
  symbol: asSymbol('EURUSD-PERP'),
  rate: new Decimal('0.0001'),
  amount: new Decimal('0.0001'),
  benchmarkPrice: new Decimal('1.14'),
  settlementPrice: new Decimal('1.1401'),
  tsEvent,
});

const flush = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('pollFundingSettlements', () => {
  it('emits every new settlement once, oldest first, though the venue pages newest first', async () => {
    const clock = new VirtualClock(1_000);
    let venue: FundingSettlement[] = [];
    const rest = {
      async *allFundingRates() {
        yield* [...venue].sort((a, b) => b.tsEvent - a.tsEvent);
      },
    };
    const errors: string[] = [];
    const poller = pollFundingSettlements(rest as never, ['EURUSD-PERP'], { clock, sinceMs: 0, pollMs: 100, onError: (s) => errors.push(s) });
    const seen: number[] = [];
    poller.funding$.subscribe((f) => seen.push(f.tsEvent));

    venue = [settlement(10), settlement(20)];
    clock.advanceBy(100);
    await flush();
    expect(seen).toEqual([10, 20]);

    venue = [settlement(10), settlement(20), settlement(30), settlement(40)];
    clock.advanceBy(100);
    await flush();
    expect(seen).toEqual([10, 20, 30, 40]);

    poller.stop();
    venue.push(settlement(50));
    clock.advanceBy(500);
    await flush();
    expect(seen).toEqual([10, 20, 30, 40]);
    expect(errors).toEqual([]);
  });

  it('reports a failing poll and keeps polling', async () => {
    const clock = new VirtualClock(0);
    let fail = true;
    const rest = {
      async *allFundingRates() {
        if (fail) throw new Error('503');
        yield settlement(5);
      },
    };
    const errors: string[] = [];
    const poller = pollFundingSettlements(rest as never, ['EURUSD-PERP'], { clock, sinceMs: 0, pollMs: 50, onError: (s) => errors.push(s) });
    const seen: number[] = [];
    poller.funding$.subscribe((f) => seen.push(f.tsEvent));
    clock.advanceBy(50);
    await flush();
    expect(errors).toEqual(['EURUSD-PERP']);
    fail = false;
    clock.advanceBy(50);
    await flush();
    expect(seen).toEqual([5]);
    poller.stop();
  });
});
