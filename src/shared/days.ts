/**
 * Calendar days as YYYY-MM-DD keys: one arithmetic for the journal, practice and routines.
 * Keys compare as strings and step by whole calendar days, so DST and timezones never shift them.
 */

/** A calendar day as YYYY-MM-DD. */
export type DayKey = string;

const DAY_MS = 24 * 60 * 60 * 1000;

/** True when `tz` is an IANA timezone this runtime knows. */
export function isValidTimezone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The calendar day of `instant` in `timeZone`. */
export function dayKey(instant: Date, timeZone: string): DayKey {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
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
