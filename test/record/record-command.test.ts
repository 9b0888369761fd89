import { describe, expect, it } from 'vitest';
import { command, parseStart, ShiftedClock } from '../../src/cli/commands/record.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { MmError } from '../../src/core/errors.ts';

describe('mmbot record --start (local venue clock start)', () => {
  it('ShiftedClock reads the chosen start now and then moves with its base; timers run on the base', () => {
    const base = new VirtualClock(1_000);
    const start = Date.UTC(2026, 10, 18, 15, 56); // a Wednesday, four minutes before 16:00 London
    const c = new ShiftedClock(base, start);
    expect(c.nowMs()).toBe(start);
    expect(c.nowNs()).toBe(BigInt(start) * 1_000_000n);
    let fired = 0;
    c.setTimer(500, () => fired++);
    base.advanceBy(499);
    expect(fired).toBe(0);
    base.advanceBy(1);
    expect(fired).toBe(1);
    expect(c.nowMs()).toBe(start + 500);
  });

  it('parses ISO 8601 and epoch ms, and names the flag on junk', () => {
    expect(parseStart('2026-11-18T15:56:00Z')).toBe(Date.UTC(2026, 10, 18, 15, 56));
    expect(parseStart('1795017360000')).toBe(1_795_017_360_000);
    expect(() => parseStart('next wednesday')).toThrow(/--start: expected an ISO 8601 time/);
  });

  it('--start without --local is a usage error', async () => {
    const err = await command.run(['--start', '2026-11-18T15:56:00Z', '--base-url', 'http://127.0.0.1:1', '--symbols', 'X', '--out', '/tmp/x.jsonl.gz']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).code).toBe('USAGE');
    expect((err as MmError).message).toContain('--start');
  });

  it('--level takes 2 (aggregated) or 3 (order-level books) and names the flag otherwise', async () => {
    const err = await command.run(['--level', '4', '--base-url', 'http://127.0.0.1:1', '--symbols', 'X', '--out', '/tmp/x.jsonl.gz']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MmError);
    expect((err as MmError).code).toBe('USAGE');
    expect((err as MmError).message).toContain('--level must be an integer in [2, 3]');
    expect(command.usage).toContain('--level');
  });
});
