import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asClientOrderId, isExecutionId, isTradeId, isVenueOrderId } from '../../src/core/ids.ts';
import { ULID_ALPHABET, UlidFactory, encodeUlidTime, isPrefixedUlid, isUlid, seededRandomU32, ulidTimeMs, type Ulid } from '../../src/core/ulid.ts';

describe('UlidFactory', () => {
  it('is monotonic within a millisecond and across milliseconds', () => {
    let now = 1_790_000_000_000;
    const f = new UlidFactory(() => now, seededRandomU32(7));
    const ids: Ulid[] = [];
    for (let i = 0; i < 2000; i++) {
      if (i % 500 === 0) now += 1;
      ids.push(f.next());
    }
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every(isUlid)).toBe(true);
    expect(ulidTimeMs(ids[0]!)).toBe(1_790_000_000_001);
  });

  it('is deterministic for a seed', () => {
    const a = new UlidFactory(() => 5, seededRandomU32(42));
    const b = new UlidFactory(() => 5, seededRandomU32(42));
    expect([a.next(), a.next()]).toEqual([b.next(), b.next()]);
  });

  it('encodes the time for any millisecond up to 2^48', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (ms) => {
        const id = new UlidFactory(() => ms, seededRandomU32(1)).next();
        expect(isUlid(id)).toBe(true);
        expect(ulidTimeMs(id)).toBe(ms);
      }),
      { numRuns: 200 },
    );
  });
});

describe('encodeUlidTime / ulidTimeMs', () => {
  // The plain definitions (big-endian base 32 over the alphabet) the fast versions must match.
  const reference = (ms: number): string => {
    let out = '';
    for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) out = ULID_ALPHABET[t % 32]! + out;
    return out;
  };
  it('encodes like the reference and decodes back, 0 to 2^50 − 1 (the replay counter range)', () => {
    for (const ms of [0, 1, 31, 32, 1_790_000_000_000, 2 ** 48 - 1, 2 ** 50 - 1]) {
      expect(encodeUlidTime(ms)).toBe(reference(ms));
      expect(ulidTimeMs(encodeUlidTime(ms) as Ulid)).toBe(ms);
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 - 1 }), (ms) => {
        expect(encodeUlidTime(ms)).toBe(reference(ms));
        expect(ulidTimeMs(encodeUlidTime(ms) as Ulid)).toBe(ms);
      }),
      { numRuns: 300 },
    );
  });
  it('decodes a character outside the alphabet as −1, as before (ids are validated elsewhere)', () => {
    expect(ulidTimeMs('000000000u' as Ulid)).toBe(-1);
    expect(ulidTimeMs('00000000é1' as Ulid)).toBe(-32 + 1);
  });
});

describe('prefixed ids', () => {
  const u = new UlidFactory(() => 1_790_000_000_000, seededRandomU32(3)).next();
  it('accepts O-/L-/E-/T- ULIDs and rejects others', () => {
    expect(isPrefixedUlid(`O-${u}`, ['O', 'L'])).toBe(true);
    expect(isPrefixedUlid(`L-${u}`, ['O', 'L'])).toBe(true);
    expect(isPrefixedUlid(`E-${u}`, ['O', 'L'])).toBe(false);
    expect(isVenueOrderId(`O-${u}`)).toBe(true);
    expect(isExecutionId(`E-${u}`)).toBe(true);
    expect(isTradeId(`T-${u}`)).toBe(true);
    expect(isVenueOrderId(`O_${u}`)).toBe(false);
    expect(isVenueOrderId(`O-${u.toLowerCase()}`)).toBe(false);
    expect(isVenueOrderId(`O-${u}X`)).toBe(false);
    expect(isVenueOrderId('fixture-live-0140')).toBe(false);
    expect(isUlid('8ZZZZZZZZZZZZZZZZZZZZZZZZZ')).toBe(false);
    expect(isUlid('01ARZ3NDEKTSV4RRFFQ69G5FAI')).toBe(false);
  });
});

describe('asClientOrderId', () => {
  it('accepts the u64 range as string, number and bigint', () => {
    expect(asClientOrderId(0)).toBe('0');
    expect(asClientOrderId('18446744073709551615')).toBe('18446744073709551615');
    expect(asClientOrderId(18446744073709551615n)).toBe('18446744073709551615');
    expect(asClientOrderId(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
  });
  it('rejects negatives, fractions, leading zeros, overflow and unsafe numbers', () => {
    for (const bad of ['-1', '1.5', '01', '', '18446744073709551616', 'abc', -1, 1.5, 2 ** 60, -1n, 18446744073709551616n] as const) {
      expect(() => asClientOrderId(bad)).toThrow(RangeError);
    }
  });
});
