import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayKey, isValidTimezone, weekdayIndex } from '#shared/days.ts';
import { computeStreaks, practiceMinutesText, sessionLabel, sessionMinutes, weekOf } from '#shared/practice.ts';

describe('practice calendar', () => {
  it('finds the day in the user’s timezone, not the server’s', () => {
    const lateEvening = new Date('2026-03-28T23:30:00Z');
    expect(dayKey(lateEvening, 'UTC')).toBe('2026-03-28');
    expect(dayKey(lateEvening, 'Europe/Berlin')).toBe('2026-03-29');
    expect(dayKey(lateEvening, 'America/New_York')).toBe('2026-03-28');
  });

  it('adds days across month, year and DST boundaries', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30'); // UK clocks change that night
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(weekdayIndex('2026-11-23')).toBe(0); // a Monday
    expect(weekdayIndex('2026-11-29')).toBe(6);
  });

  it('validates timezones', () => {
    expect(isValidTimezone('Europe/London')).toBe(true);
    expect(isValidTimezone('Mars/Base')).toBe(false);
    expect(isValidTimezone('')).toBe(false);
    // Every zone field (practice, programmes, reminders) refuses a name carrying a control character.
    expect(isValidTimezone('Europe/London\u0000')).toBe(false);
    expect(isValidTimezone('Europe/London\n')).toBe(false);
  });
});

describe('streaks', () => {
  const today = '2026-11-23';
  it('is zero with no sessions', () => {
    expect(computeStreaks([], today)).toEqual({ current: 0, longest: 0 });
  });
  it('counts consecutive days ending today', () => {
    expect(computeStreaks(['2026-11-21', '2026-11-22', '2026-11-23'], today)).toEqual({ current: 3, longest: 3 });
  });
  it('does not break the streak while today is still open', () => {
    expect(computeStreaks(['2026-11-21', '2026-11-22'], today)).toEqual({ current: 2, longest: 2 });
  });
  it('a missed day ends the current streak but keeps the longest', () => {
    expect(computeStreaks(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-21'], today)).toEqual({ current: 0, longest: 4 });
  });
  it('counts several sessions on one day once, across a month boundary', () => {
    expect(computeStreaks(['2026-10-31', '2026-11-01', '2026-11-01', '2026-11-02'], '2026-11-02')).toEqual({ current: 3, longest: 3 });
  });
  it('the longest streak is never shorter than the current one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 40 }), (offsets) => {
        const days = offsets.map((o) => addDays(today, -o));
        const { current, longest } = computeStreaks(days, today);
        expect(longest).toBeGreaterThanOrEqual(current);
        expect(longest).toBeLessThanOrEqual(new Set(days).size);
      }),
    );
  });
});

describe('week and minutes', () => {
  it('lays out Monday to Sunday around today', () => {
    const week = weekOf('2026-11-25', [{ date: '2026-11-24', sessions: 2, minutes: 20 }]);
    expect(week.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(week[1]).toEqual({ date: '2026-11-24', sessions: 2, minutes: 20 });
    expect(week[0]).toEqual({ date: '2026-11-23', sessions: 0, minutes: 0 });
  });
  it('rounds the duration to minutes', () => {
    expect(sessionMinutes(754)).toBe(13);
    expect(sessionMinutes(89)).toBe(1);
    expect(sessionMinutes(null)).toBeNull();
  });
});

describe('how the history names a session', () => {
  it('says partial sessions are partial, with what was heard of the track, and words it for screen readers', () => {
    expect(sessionLabel({ complete: false, minutes: 3, trackMinutes: 10 })).toEqual({ text: 'Partial · 3 of 10 min', spoken: 'Partial session, 3 of 10 minutes listened' });
    expect(sessionLabel({ complete: false, minutes: 0, trackMinutes: 1 })).toEqual({ text: 'Partial · under a minute of 1 min', spoken: 'Partial session, under a minute of 1 minute listened' });
    expect(sessionLabel({ complete: false, minutes: 6, trackMinutes: 20, kind: 'timer' })).toEqual({ text: 'Partial · 6 of 20 min', spoken: 'Partial session, 6 of 20 minutes sat' });
    expect(sessionLabel({ complete: false, minutes: 2, trackMinutes: 10, kind: 'breathing' })).toEqual({ text: 'Partial · 2 of 10 min', spoken: 'Partial session, 2 of 10 minutes breathed' });
    expect(sessionLabel({ complete: false, minutes: 0, trackMinutes: 0 })).toEqual({ text: 'Partial · under a minute', spoken: 'Partial session, under a minute listened' });
    expect(sessionLabel({ complete: true, minutes: 12, trackMinutes: 13 })).toEqual({ text: 'Complete · 12 min', spoken: 'Complete session, 12 minutes' });
    expect(sessionLabel({ complete: true, minutes: null, trackMinutes: null })).toEqual({ text: 'Complete · under a minute', spoken: 'Complete session, under a minute' });
  });
});

describe('practiceMinutesText (issue 38: "Minutes 0" after a complete 25-second session)', () => {
  it('rounds the summed seconds once, and says <1 for practice short of half a minute', () => {
    expect([0, 25, 29, 30, 50, 89, 90].map(practiceMinutesText)).toEqual(['0', '<1', '<1', '1', '1', '1', '2']);
  });
});
