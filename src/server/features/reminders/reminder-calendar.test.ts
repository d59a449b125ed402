/**
 * The calendar file's rules (issue 38, item 6): RFC 5545 escaping and folding, the zone's
 * VTIMEZONE from the runtime's own data, and the repeating event at the local time chosen.
 */
import { describe, expect, it } from 'vitest';
import { REMINDER } from '#shared/reminders.ts';
import { escapeText, foldLine, reminderCalendar, vtimezone } from '#server/features/reminders/reminder-calendar.ts';

/** Content lines unfolded (RFC 5545 §3.1), as a reader joins them. */
const unfold = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');
const base = { time: '07:30', days: [0, 1, 2, 3, 4, 5, 6], timeZone: 'Europe/London', personId: 'person-1', publicUrl: 'https://app.example.com', now: new Date('2026-07-01T12:00:00Z') };

describe('the calendar file', () => {
  it('escapes text values and folds lines at 75 octets without splitting a character', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    const long = `DESCRIPTION:${'é'.repeat(60)}${'x'.repeat(40)}`;
    const folded = foldLine(long);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.split('\r\n').slice(1).every((line) => line.startsWith(' '))).toBe(true);
    expect(folded.replace(/\r\n /g, '')).toBe(long);
    expect(foldLine('SHORT:1')).toBe('SHORT:1');
  });

  it('writes one daily event at the local time in the zone, with a stable UID and an alarm', () => {
    const ics = reminderCalendar(base);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/\n|\r/);
    const lines = unfold(ics);
    for (const raw of ics.split('\r\n')) expect(Buffer.byteLength(raw, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines).toContain('DTSTART;TZID=Europe/London:20260701T073000');
    expect(lines).toContain('RRULE:FREQ=DAILY');
    expect(lines).toContain(`SUMMARY:${REMINDER.title}`);
    expect(lines).toContain('DTSTAMP:20260701T120000Z');
    expect(lines).toContain('TRIGGER:PT0M');
    const uid = lines.find((l) => l.startsWith('UID:'));
    expect(uid).toMatch(/^UID:daily-reminder-[0-9a-f]{32}@app\.example\.com$/);
    expect(unfold(reminderCalendar({ ...base, time: '21:00', now: new Date('2027-01-01T00:00:00Z') }))).toContain(uid);
    expect(unfold(reminderCalendar({ ...base, personId: 'person-2' }))).not.toContain(uid);
    // The structure nests: every BEGIN has its END, in order.
    const stack: string[] = [];
    for (const line of lines.filter(Boolean)) {
      if (line.startsWith('BEGIN:')) stack.push(line.slice(6));
      if (line.startsWith('END:')) expect(stack.pop()).toBe(line.slice(4));
    }
    expect(stack).toEqual([]);
  });

  it('repeats weekly on the chosen days, starting on the first of them from today in the zone', () => {
    // 2026-07-01 is a Wednesday; Monday and Tuesday chosen: the first is Monday 6 July.
    const lines = unfold(reminderCalendar({ ...base, days: [1, 0] }));
    expect(lines).toContain('RRULE:FREQ=WEEKLY;BYDAY=MO,TU');
    expect(lines).toContain('DTSTART;TZID=Europe/London:20260706T073000');
    // 23:30 UTC on 1 July is already Thursday 2 July in Tokyo.
    const tokyo = unfold(reminderCalendar({ ...base, timeZone: 'Asia/Tokyo', days: [3, 4], now: new Date('2026-07-01T23:30:00Z') }));
    expect(tokyo).toContain('DTSTART;TZID=Asia/Tokyo:20260702T073000');
  });

  it('describes the zone’s summer time changes from the runtime’s data, and a zone without them in one observance', () => {
    const london = vtimezone('Europe/London', new Date('2026-07-01T00:00:00Z'));
    // BST starts at 01:00 UTC on the last Sunday of March (29 March 2026) and ends at 01:00 UTC (02:00 BST) on 25 October.
    expect(london.join('\n')).toContain('BEGIN:DAYLIGHT\nDTSTART:20260329T010000\nTZOFFSETFROM:+0000\nTZOFFSETTO:+0100\nEND:DAYLIGHT');
    expect(london.join('\n')).toContain('BEGIN:STANDARD\nDTSTART:20261025T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0000\nEND:STANDARD');
    expect(london.filter((l) => l === 'BEGIN:DAYLIGHT').length).toBeGreaterThanOrEqual(10);
    expect(vtimezone('Asia/Tokyo', new Date('2026-07-01T00:00:00Z'))).toEqual(['BEGIN:VTIMEZONE', 'TZID:Asia/Tokyo', 'BEGIN:STANDARD', 'DTSTART:19700101T000000', 'TZOFFSETFROM:+0900', 'TZOFFSETTO:+0900', 'END:STANDARD', 'END:VTIMEZONE']);
    // Southern hemisphere and a half-hour zone: Adelaide's summer time starts on the first Sunday of October at 02:00 local.
    expect(vtimezone('Australia/Adelaide', new Date('2026-07-01T00:00:00Z')).join('\n')).toContain('BEGIN:DAYLIGHT\nDTSTART:20261004T020000\nTZOFFSETFROM:+0930\nTZOFFSETTO:+1030\nEND:DAYLIGHT');
  });
});
