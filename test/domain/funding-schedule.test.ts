import { describe, expect, it } from 'vitest';
import type { FundingSchedule } from '../../src/domain/instrument.ts';
import {
  checkFundingSchedule,
  isoWeekday,
  localDate,
  nextSettlement,
  previousSettlement,
  settlementsBetween,
  settlementsOnDate,
  slotIntervalMinutes,
  zonedTimeToUtcMs,
} from '../../src/domain/funding-schedule.ts';

const WEEKDAYS = [1, 2, 3, 4, 5];
const london: FundingSchedule = {
  timezone: 'Europe/London',
  times: [{ daysOfWeek: WEEKDAYS, hours: 16, minutes: 0, seconds: 0 }],
  exceptions: [],
};
const ny: FundingSchedule = {
  timezone: 'America/New_York',
  times: [{ daysOfWeek: WEEKDAYS, hours: 16, minutes: 0, seconds: 0 }],
  exceptions: [
    { date: '2026-11-25', times: [{ hours: 13, minutes: 0, seconds: 0 }], reason: 'Thanksgiving - early close' },
    { date: '2026-12-25', times: [], reason: 'Christmas Day' },
  ],
};
const intraday: FundingSchedule = {
  timezone: 'America/New_York',
  times: Array.from({ length: 13 }, (_, i) => ({ daysOfWeek: WEEKDAYS, hours: 10 + Math.floor(i / 2), minutes: (i % 2) * 30, seconds: 0 })),
  exceptions: [],
};
const iso = (s: string): number => Date.parse(s);

describe('funding schedule', () => {
  it('converts London 16:00 to 15:00Z in summer and 16:00Z in winter (captured records are 15:00Z)', () => {
    expect(new Date(zonedTimeToUtcMs('2026-09-24', 16, 0, 0, 'Europe/London')).toISOString()).toBe('2026-09-24T15:00:00.000Z');
    expect(new Date(zonedTimeToUtcMs('2026-12-01', 16, 0, 0, 'Europe/London')).toISOString()).toBe('2026-12-01T16:00:00.000Z');
  });

  it('uses ISO weekdays and skips weekends', () => {
    expect(isoWeekday('2026-09-27')).toBe(7); // a Sunday
    expect(isoWeekday('2026-09-28')).toBe(1);
    const fri = iso('2026-09-25T15:00:01Z');
    expect(new Date(nextSettlement(london, fri)!.atMs).toISOString()).toBe('2026-09-28T15:00:00.000Z');
    expect(new Date(previousSettlement(london, fri)!.atMs).toISOString()).toBe('2026-09-25T15:00:00.000Z');
  });

  it('next is strictly after and previous is at-or-before the instant', () => {
    const at = iso('2026-09-24T15:00:00Z');
    expect(previousSettlement(london, at)!.atMs).toBe(at);
    expect(nextSettlement(london, at)!.atMs).toBe(iso('2026-09-25T15:00:00Z'));
  });

  it('exceptions replace the day: early close and no funding', () => {
    expect(settlementsOnDate(ny, '2026-11-25').map((s) => new Date(s.atMs).toISOString())).toEqual(['2026-11-25T18:00:00.000Z']);
    expect(settlementsOnDate(ny, '2026-12-25')).toEqual([]);
    const n = nextSettlement(ny, iso('2026-12-24T22:00:00Z'))!;
    expect(n.date).toBe('2026-12-28');
  });

  it('lists 13 intraday slots 30 minutes apart, 10:00 to 16:00 New York', () => {
    const day = settlementsOnDate(intraday, '2026-09-24');
    expect(day).toHaveLength(13);
    expect(new Date(day[0]!.atMs).toISOString()).toBe('2026-09-24T14:00:00.000Z');
    expect(new Date(day[12]!.atMs).toISOString()).toBe('2026-09-24T20:00:00.000Z');
    expect(day.map((s) => s.index)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    expect(slotIntervalMinutes(intraday, '2026-09-24')).toBe(30);
    expect(slotIntervalMinutes(london, '2026-09-24')).toBeNull();
    expect(slotIntervalMinutes(intraday, '2026-09-26')).toBeNull();
  });

  it('settlementsBetween is half-open (from, to]', () => {
    const list = settlementsBetween(london, iso('2026-09-24T15:00:00Z'), iso('2026-09-29T15:00:00Z'));
    expect(list.map((s) => s.date)).toEqual(['2026-09-25', '2026-09-28', '2026-09-29']);
  });

  it('local dates follow the timezone', () => {
    expect(localDate(iso('2026-09-25T02:00:00Z'), 'America/New_York')).toBe('2026-09-24');
    expect(localDate(iso('2026-09-25T02:00:00Z'), 'Europe/London')).toBe('2026-09-25');
  });

  it('validation names the bad field', () => {
    expect(checkFundingSchedule(london)).toBeUndefined();
    expect(checkFundingSchedule({ ...london, timezone: 'Mars/Olympus' })).toMatch(/timezone/);
    expect(checkFundingSchedule({ ...london, times: [{ daysOfWeek: [0], hours: 1, minutes: 0, seconds: 0 }] })).toMatch(/days_of_week/);
  });
});
