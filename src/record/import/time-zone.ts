import { MmError } from '../../core/errors.ts';

/**
 * Epoch ms of 00:00 on `date` (YYYY-MM-DD) in the IANA time zone `tz` (e.g. America/New_York),
 * daylight-saving aware, with the runtime's Intl data (no dependency).
 * @throws MmError USAGE naming a malformed date or an unknown zone.
 */
export function midnightInZone(date: string, tz: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new MmError('USAGE', `--date must be YYYY-MM-DD, got "${date}"`);
  const utcMidnight = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(utcMidnight) || new Date(utcMidnight).toISOString().slice(0, 10) !== date) throw new MmError('USAGE', `--date ${date} is not a calendar date`);
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  } catch {
    throw new MmError('USAGE', `--tz ${tz} is not a time zone this runtime knows (use an IANA name such as America/New_York)`);
  }
  // The zone's offset at a UTC instant: what its wall clock reads minus the instant.
  const offsetAt = (ms: number): number => {
    const p = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    return Date.UTC(Number(p['year']), Number(p['month']) - 1, Number(p['day']), Number(p['hour']), Number(p['minute']), Number(p['second'])) - ms;
  };
  // Two rounds settle the offset around DST changes (midnight itself is never skipped in US zones).
  let guess = utcMidnight - offsetAt(utcMidnight);
  guess = utcMidnight - offsetAt(guess);
  return guess;
}
