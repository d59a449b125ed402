/**
 * The daily reminder as a calendar file (issue 38, item 6; decision 0060): one repeating VEVENT
 * (RFC 5545) at the chosen local time on the chosen days, in the person's own zone. Written here
 * rather than with a library: the whole format needed is a dozen lines, and the part a library would
 * not do for us either is the VTIMEZONE, which RFC 5545 requires for every TZID used. It is built from
 * the runtime's own zone data (Intl), one observance per offset change over the years ahead, so a
 * calendar that does not know the IANA name still moves the event with summer time.
 */
import { createHash } from 'node:crypto';
import { addDays, dayKey, weekdayIndex, type DayKey } from '#shared/days.ts';
import { REMINDER, REMINDER_MESSAGES } from '#shared/reminders.ts';

const BYDAY = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
/** How many years of offset changes the VTIMEZONE lists, from a year before the first reminder. */
const ZONE_YEARS = 12;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** TEXT values (RFC 5545 §3.3.11): backslash, semicolon, comma and newlines escaped. */
export function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/**
 * Content lines are at most 75 octets (RFC 5545 §3.1): longer ones continue on lines that start with
 * one space. Cut between characters, never inside a UTF-8 sequence.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    // The first line holds 75 octets; each continuation 74 after its leading space.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes `timeZone` is ahead of UTC at `instant`. */
function offsetMinutes(instant: Date, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'longOffset' });
    if (offsetFormats.size < 1000) offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** ±HHMM as UTC-OFFSET values are written. */
const utcOffset = (minutes: number) => `${minutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

/** A DATE-TIME without zone (local), from a UTC instant shifted by `offset` minutes. */
function localStamp(instant: number, offset: number): string {
  return new Date(instant + offset * 60_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, '');
}

/** Every instant the zone's offset changes between `from` and `to`, to the minute (days scanned, then bisected). */
function offsetChanges(timeZone: string, from: number, to: number): { at: number; before: number; after: number }[] {
  const changes: { at: number; before: number; after: number }[] = [];
  let previous = offsetMinutes(new Date(from), timeZone);
  for (let day = from + DAY_MS; day <= to; day += DAY_MS) {
    const offset = offsetMinutes(new Date(day), timeZone);
    if (offset === previous) continue;
    let low = day - DAY_MS;
    let high = day;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000;
      if (offsetMinutes(new Date(middle), timeZone) === previous) low = middle;
      else high = middle;
    }
    changes.push({ at: high, before: previous, after: offset });
    previous = offset;
  }
  return changes;
}

/**
 * The zone's VTIMEZONE: each change as its own observance (its DTSTART is the local time just before
 * it, in the offset it leaves). The larger of a year's offsets is summer time (DAYLIGHT).
 */
export function vtimezone(timeZone: string, from: Date): string[] {
  const start = from.getTime() - 366 * DAY_MS;
  const changes = offsetChanges(timeZone, start, start + ZONE_YEARS * 366 * DAY_MS);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  if (changes.length === 0) {
    const offset = offsetMinutes(from, timeZone);
    lines.push('BEGIN:STANDARD', 'DTSTART:19700101T000000', `TZOFFSETFROM:${utcOffset(offset)}`, `TZOFFSETTO:${utcOffset(offset)}`, 'END:STANDARD');
  } else {
    // Before the first change the zone stood at its first `before`: said once, so the years before are covered too.
    const first = changes[0];
    lines.push(first.before > first.after ? 'BEGIN:DAYLIGHT' : 'BEGIN:STANDARD', `DTSTART:${localStamp(start, first.before)}`, `TZOFFSETFROM:${utcOffset(first.before)}`, `TZOFFSETTO:${utcOffset(first.before)}`, first.before > first.after ? 'END:DAYLIGHT' : 'END:STANDARD');
    for (const change of changes) {
      const kind = change.after > change.before ? 'DAYLIGHT' : 'STANDARD';
      lines.push(`BEGIN:${kind}`, `DTSTART:${localStamp(change.at, change.before)}`, `TZOFFSETFROM:${utcOffset(change.before)}`, `TZOFFSETTO:${utcOffset(change.after)}`, `END:${kind}`);
    }
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

/** The first chosen weekday on or after `today`. */
function firstDay(today: DayKey, days: readonly number[]): DayKey {
  for (let offset = 0; offset < 7; offset += 1) {
    const day = addDays(today, offset);
    if (days.includes(weekdayIndex(day))) return day;
  }
  return today;
}

export type CalendarInput = {
  /** Local HH:MM. */
  time: string;
  /** 0 = Monday … 6 = Sunday. */
  days: readonly number[];
  timeZone: string;
  /** Makes the event's UID: the same person gets the same UID, so importing again updates the one event. */
  personId: string;
  /** The site, named in the event and its UID's domain. */
  publicUrl: string;
  now: Date;
};

/**
 * The calendar file: FREQ=DAILY when every day is chosen, else WEEKLY on the chosen days; starts on
 * the first chosen day from today in the zone; ten minutes long, with an alarm at its start.
 */
export function reminderCalendar({ time, days, timeZone, personId, publicUrl, now }: CalendarInput): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const start = firstDay(dayKey(now, timeZone), sorted);
  const rule = sorted.length === 7 ? 'FREQ=DAILY' : `FREQ=WEEKLY;BYDAY=${sorted.map((d) => BYDAY[d]).join(',')}`;
  const host = new URL(publicUrl).hostname;
  // Not the account's id itself: a calendar file is shared and synced to places the id has no business.
  const uid = `daily-reminder-${createHash('sha256').update(`reminder-calendar:${personId}`).digest('hex').slice(0, 32)}@${host}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Harbour Mind//Daily reminder//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...vtimezone(timeZone, now),
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${localStamp(now.getTime(), 0)}Z`,
    `DTSTART;TZID=${timeZone}:${start.replace(/-/g, '')}T${time.replace(':', '')}00`,
    'DURATION:PT10M',
    `RRULE:${rule}`,
    `SUMMARY:${escapeText(REMINDER.title)}`,
    `DESCRIPTION:${escapeText(`${REMINDER_MESSAGES.calendarDescription}\n${publicUrl}/`)}`,
    `URL:${publicUrl}/`,
    'TRANSP:TRANSPARENT',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escapeText(REMINDER.title)}`,
    'TRIGGER:PT0M',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
