import type { FundingSchedule } from './instrument.ts';

/**
 * Settlement instants from an instrument's funding schedule (docs/venue-protocol.md §2.2): times of day in an
 * IANA timezone on ISO weekdays (1 = Monday), with dated exceptions that replace a day's times (an
 * empty list means no funding). Pure; timezone maths through Intl only.
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Wall-clock fields of an instant in a timezone. */
export interface LocalDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/**
 * The wall-clock time of `ms` in `tz`.
 * @throws RangeError when `tz` is not a valid IANA timezone.
 */
export function localDateTime(ms: number, tz: string): LocalDateTime {
  const parts = formatter(tz).formatToParts(new Date(Math.floor(ms / 1000) * 1000));
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** Offset of `tz` from UTC at instant `ms`, in ms (London summer = +3_600_000). */
export function tzOffsetMs(ms: number, tz: string): number {
  const l = localDateTime(ms, tz);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The UTC instant of a wall-clock time in `tz` (for a gap at a DST switch, the later offset). */
export function zonedTimeToUtcMs(date: string, hours: number, minutes: number, seconds: number, tz: string): number {
  const [y, m, d] = parseYmd(date);
  const guess = Date.UTC(y, m - 1, d, hours, minutes, seconds);
  const first = guess - tzOffsetMs(guess, tz);
  const second = guess - tzOffsetMs(first, tz);
  return second;
}

/** The local calendar date (YYYY-MM-DD) of `ms` in `tz`. */
export function localDate(ms: number, tz: string): string {
  const l = localDateTime(ms, tz);
  return `${l.year}-${pad(l.month)}-${pad(l.day)}`;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a YYYY-MM-DD date. */
export function isoWeekday(date: string): number {
  const [y, m, d] = parseYmd(date);
  const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return dow === 0 ? 7 : dow;
}

/** The date `n` days after `date` (negative goes back). */
export function addDays(date: string, n: number): string {
  const [y, m, d] = parseYmd(date);
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}

/** One settlement instant on a given local date. */
export interface FundingInstant {
  /** Epoch ms (UTC). */
  readonly atMs: number;
  /** Local date in the schedule's timezone. */
  readonly date: string;
  /** 1-based slot index within the day. */
  readonly index: number;
}

/**
 * Settlement instants on one local date, ascending. An exception for the date replaces the
 * regular times; otherwise the times whose days_of_week include the date's ISO weekday apply.
 */
export function settlementsOnDate(schedule: FundingSchedule, date: string): FundingInstant[] {
  const ex = schedule.exceptions.find((e) => e.date === date);
  const dow = isoWeekday(date);
  const times = ex ? ex.times : schedule.times.filter((t) => t.daysOfWeek.includes(dow));
  const instants = times.map((t) => zonedTimeToUtcMs(date, t.hours, t.minutes, t.seconds, schedule.timezone));
  const unique = [...new Set(instants)].sort((a, b) => a - b);
  return unique.map((atMs, i) => ({ atMs, date, index: i + 1 }));
}

/** Longest run of days without funding that the searches below will look across. */
const MAX_GAP_DAYS = 400;

/** The first settlement strictly after `afterMs`, or undefined when none within ~a year. */
export function nextSettlement(schedule: FundingSchedule, afterMs: number): FundingInstant | undefined {
  let date = addDays(localDate(afterMs, schedule.timezone), -1);
  for (let i = 0; i < MAX_GAP_DAYS; i++, date = addDays(date, 1)) {
    const hit = settlementsOnDate(schedule, date).find((s) => s.atMs > afterMs);
    if (hit) return hit;
  }
  return undefined;
}

/** The last settlement at or before `atOrBeforeMs`, or undefined when none within ~a year. */
export function previousSettlement(schedule: FundingSchedule, atOrBeforeMs: number): FundingInstant | undefined {
  let date = addDays(localDate(atOrBeforeMs, schedule.timezone), 1);
  for (let i = 0; i < MAX_GAP_DAYS; i++, date = addDays(date, -1)) {
    const list = settlementsOnDate(schedule, date);
    for (let k = list.length - 1; k >= 0; k--) if (list[k]!.atMs <= atOrBeforeMs) return list[k];
  }
  return undefined;
}

/** Every settlement in (fromMs, toMs], ascending. */
export function settlementsBetween(schedule: FundingSchedule, fromMs: number, toMs: number): FundingInstant[] {
  const out: FundingInstant[] = [];
  let cursor = fromMs;
  for (;;) {
    const n = nextSettlement(schedule, cursor);
    if (!n || n.atMs > toMs) return out;
    out.push(n);
    cursor = n.atMs;
  }
}

/**
 * Minutes between consecutive regular slots of a multi-slot day (30 for the intraday products),
 * or null for a one-slot (daily_close) schedule.
 */
export function slotIntervalMinutes(schedule: FundingSchedule, date: string): number | null {
  const list = settlementsOnDate(schedule, date);
  if (list.length < 2) return null;
  return Math.round((list[1]!.atMs - list[0]!.atMs) / 60_000);
}

/**
 * Validates a schedule's timezone and fields.
 * @returns an error message naming the bad field, or undefined when the schedule is usable.
 */
export function checkFundingSchedule(schedule: FundingSchedule): string | undefined {
  try {
    formatter(schedule.timezone);
  } catch {
    return `funding_schedule.timezone: unknown IANA timezone ${JSON.stringify(schedule.timezone)}`;
  }
  for (const [i, t] of schedule.times.entries()) {
    if (t.daysOfWeek.some((d) => !Number.isInteger(d) || d < 1 || d > 7)) return `funding_schedule.times[${i}].days_of_week: ISO weekdays are 1..7`;
    if (t.hours < 0 || t.hours > 23 || t.minutes < 0 || t.minutes > 59 || t.seconds < 0 || t.seconds > 59)
      return `funding_schedule.times[${i}].time_of_day: out of range`;
  }
  for (const [i, e] of schedule.exceptions.entries()) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(e.date)) return `funding_schedule.exceptions[${i}].date: expected YYYY-MM-DD, got ${JSON.stringify(e.date)}`;
  }
  return undefined;
}

function parseYmd(date: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`expected a YYYY-MM-DD date, got ${JSON.stringify(date)}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const pad = (n: number): string => String(n).padStart(2, '0');
