/**
 * Calendar days as YYYY-MM-DD keys: one arithmetic for the journal, practice and routines.
 * Keys compare as strings and step by whole calendar days, so DST and timezones never shift them.
 */
import { hasControlCharacters } from '#shared/control-characters.ts';

/** A calendar day as YYYY-MM-DD. */
export type DayKey = string;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One formatter per time zone: making one costs tens of microseconds, and the reminder scheduler asks
 * for thousands of days a minute (bench:reminders). Only valid zones are kept, and at most a thousand
 * (the runtime knows a few hundred; the cap holds against spellings made up to fill it).
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string): Intl.DateTimeFormat | null {
  const kept = dayFormats.get(timeZone);
  if (kept) return kept;
  try {
    // en-CA formats as YYYY-MM-DD.
    const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dayFormats.size < 1000) dayFormats.set(timeZone, format);
    return format;
  } catch {
    return null;
  }
}

/** True when `tz` is an IANA timezone this runtime knows (never one with a control character: a NUL or a newline in a log line). */
export function isValidTimezone(tz: string): boolean {
  if (!tz || tz.length > 64 || hasControlCharacters(tz)) return false;
  return dayFormat(tz) !== null;
}

/** The calendar day of `instant` in `timeZone`. */
export function dayKey(instant: Date, timeZone: string): DayKey {
  const format = dayFormat(timeZone);
  if (!format) throw new RangeError(`Invalid time zone specified: ${timeZone}`);
  return format.format(instant);
}

/** The calendar day of `date` on this device's clock. */
export function localDay(date: Date): DayKey {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** Day arithmetic on keys, independent of timezones and DST. */
export function addDays(key: DayKey, days: number): DayKey {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(key: DayKey): number {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** The Monday that starts the week holding `key`. */
export const mondayOf = (key: DayKey): DayKey => addDays(key, -weekdayIndex(key));

/** Milliseconds from `now` to the next local midnight (DST-safe: computed from the calendar, not 24 h). */
export function msUntilNextMidnight(now: Date): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 0, 0, 0, 0);
  return next.getTime() - now.getTime();
}
