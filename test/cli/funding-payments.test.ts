import { describe, expect, it } from 'vitest';
import { pollFundingPayments } from '../../src/app/funding-poller.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import type { FundingPayment } from '../../src/domain/funding.ts';
import type { WireFundingTransaction } from '../../src/wire/index.ts';

const row = (id: string, symbol: string, iso: string, amount: string, type: WireFundingTransaction['transaction_type'] = 'funding'): WireFundingTransaction => ({
  account_id: 'A', amount, currency: 'USD', event_id: id, sequence_number: 1, settlement_price: '1.1', symbol, timestamp: iso, transaction_type: type,
});

describe('pollFundingPayments', () => {
  it('emits each funding row of our symbols since the start once, oldest first, skipping mark-to-market and final settlement', async () => {
    const rows: WireFundingTransaction[] = [];
    const queries: unknown[] = [];
    const rest = {
      async *allFundingTransactions(q: unknown) {
        queries.push(q);
        yield* [...rows];
      },
    };
    const clock = new VirtualClock(Date.parse('2026-01-01T00:00:00Z'));
    const got: FundingPayment[] = [];
    const errors: unknown[] = [];
    const p = pollFundingPayments(rest as never, ['EURUSD-PERP'], { clock, sinceMs: clock.nowMs(), pollMs: 60_000, onError: (e) => errors.push(e) });
    p.payments$.subscribe((x) => got.push(x));
    rows.push(
      row('E-old', 'EURUSD-PERP', '2025-12-31T23:00:00Z', '-9'), // before this run: not ours to book
      row('E-2', 'EURUSD-PERP', '2026-01-01T08:00:00.000000001Z', '0.5'),
      row('E-1', 'EURUSD-PERP', '2026-01-01T00:00:00.5Z', '-1.25'),
      row('E-x', 'XAU-PERP', '2026-01-01T08:00:00Z', '-3'), // not a symbol we trade
      row('E-m', 'EURUSD-PERP', '2026-01-01T08:00:00Z', '-2', 'mark_to_market'),
    );
    await p.pollNow();
    await p.pollNow(); // the same rows again: nothing new
    expect(got.map((x) => [x.eventId, x.amount.toString()])).toEqual([['E-1', '-1.25'], ['E-2', '0.5']]);
    expect(got[0]!.tsEvent).toBe(Date.parse('2026-01-01T00:00:00.5Z'));
    expect(queries[0]).toEqual({ start_timestamp_ns: String(BigInt(clock.nowMs()) * 1_000_000n) });
    expect(errors).toEqual([]);
    p.stop();
  });

  it('a failed poll is reported and the next interval retries', async () => {
    let fail = true;
    const rest = {
      async *allFundingTransactions() {
        if (fail) throw new Error('503');
        yield row('E-1', 'EURUSD-PERP', '2026-01-01T01:00:00Z', '-1');
      },
    };
    const clock = new VirtualClock(Date.parse('2026-01-01T00:00:00Z'));
    const errors: unknown[] = [];
    const got: FundingPayment[] = [];
    const p = pollFundingPayments(rest as never, ['EURUSD-PERP'], { clock, sinceMs: clock.nowMs(), pollMs: 1_000, onError: (e) => errors.push(e) });
    p.payments$.subscribe((x) => got.push(x));
    clock.advanceBy(1_000);
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    fail = false;
    clock.advanceBy(1_000);
    await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(1);
    p.stop();
  });
});
