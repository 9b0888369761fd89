import { describe, expect, it } from 'vitest';
import { backoffDelayMs, parseRateLimitHints, parseRetryAfterMs } from '../../src/client/backoff.ts';

const policy = { initialMs: 100, maxMs: 1_000, multiplier: 2, jitter: 0.5 };

describe('backoffDelayMs', () => {
  it('grows exponentially and caps at maxMs', () => {
    expect(backoffDelayMs(policy, 0, () => 0.999999)).toBeCloseTo(100, 0);
    expect(backoffDelayMs(policy, 1, () => 0.999999)).toBeCloseTo(200, 0);
    expect(backoffDelayMs(policy, 3, () => 0.999999)).toBeCloseTo(800, 0);
    expect(backoffDelayMs(policy, 10, () => 0.999999)).toBeCloseTo(1_000, 0);
  });

  it('jitters within [d(1 - jitter), d]', () => {
    expect(backoffDelayMs(policy, 2, () => 0)).toBe(200);
    expect(backoffDelayMs({ ...policy, jitter: 1 }, 2, () => 0)).toBe(0);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelayMs(policy, 2, Math.random);
      expect(d).toBeGreaterThanOrEqual(200);
      expect(d).toBeLessThanOrEqual(400);
    }
  });
});

describe('parseRetryAfterMs', () => {
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfterMs('2', 0)).toBe(2_000);
    expect(parseRetryAfterMs('0.5', 0)).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3_000);
    expect(parseRetryAfterMs(['1'], 0)).toBe(1_000);
  });

  it('ignores absent or garbage values and never goes negative', () => {
    expect(parseRetryAfterMs(undefined, 0)).toBeUndefined();
    expect(parseRetryAfterMs('soon', 0)).toBeUndefined();
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:00 GMT', Date.parse('2026-01-02T00:00:00Z'))).toBe(0);
  });
});

describe('parseRateLimitHints', () => {
  it('Retry-After first, else an exhausted RateLimit window reset, and RateLimit-Policy as a rate', () => {
    const now = 1_790_000_000_000;
    expect(parseRateLimitHints({ 'retry-after': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '9' }, now)).toEqual({ retryAfterMs: 3000 });
    expect(parseRateLimitHints({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' }, now)).toEqual({ retryAfterMs: 2000 });
    expect(parseRateLimitHints({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 1.5) }, now)).toEqual({ retryAfterMs: 1500 });
    // A window that still has room says nothing about when to come back.
    expect(parseRateLimitHints({ 'ratelimit-remaining': '3', 'ratelimit-reset': '9' }, now)).toEqual({});
    expect(parseRateLimitHints({ 'ratelimit-policy': '10;w=5' }, now)).toEqual({ rateLimitPerSec: 2 });
    expect(parseRateLimitHints({ 'ratelimit-policy': 'garbage' }, now)).toEqual({});
  });
});
