import { describe, expect, it } from 'vitest';
import { AFFIRMATIONS } from '#shared/affirmations.ts';
import { describeDays, deviceReminderSettings, dueReminderDay, REMINDER_MESSAGES, reminderMessage, reminderSettingsSchema, upcomingReminders } from '#shared/reminders.ts';

const every = [0, 1, 2, 3, 4, 5, 6];
const settings = { enabled: true, time: '07:30', days: every, timeZone: 'Europe/London' };

describe('when a reminder is due', () => {
  it('is due from the chosen local time for two hours, on the local calendar day', () => {
    // 2026-07-01 is a Wednesday; London is on BST (UTC+1).
    expect(dueReminderDay(settings, new Date('2026-07-01T06:29:00Z'))).toBeNull();
    expect(dueReminderDay(settings, new Date('2026-07-01T06:30:00Z'))).toBe('2026-07-01');
    expect(dueReminderDay(settings, new Date('2026-07-01T08:29:59Z'))).toBe('2026-07-01');
    expect(dueReminderDay(settings, new Date('2026-07-01T08:30:00Z'))).toBeNull();
  });

  it('follows the person’s time zone, across a date line and through a DST change', () => {
    const tokyo = { ...settings, timeZone: 'Asia/Tokyo', time: '06:00' };
    // 21:00 UTC on the 1st is 06:00 on the 2nd in Tokyo.
    expect(dueReminderDay(tokyo, new Date('2026-07-01T21:00:00Z'))).toBe('2026-07-02');
    // London's clocks went back on 2026-10-25: 07:30 local is 07:30 UTC that day.
    expect(dueReminderDay(settings, new Date('2026-10-25T06:30:00Z'))).toBeNull();
    expect(dueReminderDay(settings, new Date('2026-10-25T07:30:00Z'))).toBe('2026-10-25');
  });

  it('only on chosen days, and never when off', () => {
    const weekdays = { ...settings, days: [0, 1, 2, 3, 4] };
    expect(dueReminderDay(weekdays, new Date('2026-07-03T06:45:00Z'))).toBe('2026-07-03'); // Friday
    expect(dueReminderDay(weekdays, new Date('2026-07-04T06:45:00Z'))).toBeNull(); // Saturday
    expect(dueReminderDay({ ...settings, enabled: false }, new Date('2026-07-01T06:45:00Z'))).toBeNull();
  });
});

describe('the reminder’s message', () => {
  it('rotates through the affirmations, one a day, the same everywhere', () => {
    const week = Array.from({ length: 7 }, (_, i) => reminderMessage(`2026-07-0${i + 1}`));
    expect(new Set(week).size).toBe(7);
    for (const message of week) expect(AFFIRMATIONS).toContain(message);
    expect(reminderMessage('2026-07-01')).toBe(reminderMessage('2026-07-01'));
    expect(reminderMessage('2026-07-01')).not.toBe(reminderMessage('2026-07-02'));
  });
});

describe('upcoming reminders on the device', () => {
  it('lists the next ones on chosen days after now, each with its day’s message', () => {
    const from = new Date(2026, 6, 1, 9, 0); // Wednesday 09:00 local: today's 07:30 has passed
    const next = upcomingReminders({ enabled: true, time: '07:30', days: [0, 2, 4] }, from, 4);
    expect(next.map((r) => r.day)).toEqual(['2026-07-03', '2026-07-06', '2026-07-08', '2026-07-10']);
    expect(next[0].at).toEqual(new Date(2026, 6, 3, 7, 30));
    expect(next[0].message).toBe(reminderMessage('2026-07-03'));
    expect(upcomingReminders({ enabled: false, time: '07:30', days: every }, from)).toEqual([]);
    expect(upcomingReminders({ enabled: true, time: '07:30', days: every }, from)).toHaveLength(14);
  });
});

describe('settings', () => {
  it('refuses a bad time, no days, repeated days and an unknown time zone, each with its message', () => {
    const error = (value: object) => reminderSettingsSchema.safeParse({ ...settings, ...value }).error?.issues[0]?.message;
    expect(error({})).toBeUndefined();
    expect(error({ time: '7:30' })).toBe(REMINDER_MESSAGES.badTime);
    expect(error({ time: '24:00' })).toBe(REMINDER_MESSAGES.badTime);
    expect(error({ days: [] })).toBe(REMINDER_MESSAGES.noDays);
    expect(error({ days: [1, 1] })).toBe(REMINDER_MESSAGES.noDays);
    expect(error({ days: [7] })).toBe(REMINDER_MESSAGES.noDays);
    expect(error({ timeZone: 'Mars/Olympus' })).toBe(REMINDER_MESSAGES.badTimezone);
    expect(reminderSettingsSchema.safeParse({ ...settings, extra: 1 }).success).toBe(false);
  });

  it('describes the chosen days in words', () => {
    expect(describeDays(every)).toBe('Every day');
    expect(describeDays([0, 1, 2, 3, 4])).toBe('Weekdays');
    expect(describeDays([5, 6])).toBe('Weekends');
    expect(describeDays([4, 0, 2])).toBe('Mon, Wed, Fri');
  });
});

describe('the reminder’s channel (issue 38, item 6)', () => {
  const base = { enabled: true, time: '07:30', days: [0, 1, 2, 3, 4, 5, 6], timeZone: 'Europe/London' };
  it('is push or e-mail, and may be left out by older apps', () => {
    expect(reminderSettingsSchema.safeParse({ ...base, channel: 'email' }).success).toBe(true);
    expect(reminderSettingsSchema.safeParse(base).success).toBe(true);
    expect(reminderSettingsSchema.safeParse({ ...base, channel: 'sms' }).error?.issues[0]?.message).toBe(REMINDER_MESSAGES.badChannel);
  });
  it('keeps a device’s own notifications off while the reminder goes by e-mail', () => {
    expect(deviceReminderSettings({ ...base, channel: 'email' }).enabled).toBe(false);
    expect(deviceReminderSettings({ ...base, channel: 'push' }).enabled).toBe(true);
    expect(deviceReminderSettings({ ...base, enabled: false, channel: 'push' }).enabled).toBe(false);
  });
});
