/**
 * Daily reminders (issue 20, item 4): the settings a person chooses, their limits and words, and
 * when one is due. Shared: the server's scheduler decides with `dueReminderDay`, the apps schedule
 * their local notifications with `upcomingReminders`, and both say the same gentle message on a day.
 */
import { z } from 'zod';
import { affirmationForDay } from '#shared/affirmations.ts';
import { addDays, dayKey, isValidTimezone, localDay, weekdayIndex, type DayKey } from '#shared/days.ts';

/** 0 = Monday … 6 = Sunday, as `weekdayIndex` counts. */
export const WEEKDAYS = [
  { day: 0, short: 'Mon', long: 'Monday' },
  { day: 1, short: 'Tue', long: 'Tuesday' },
  { day: 2, short: 'Wed', long: 'Wednesday' },
  { day: 3, short: 'Thu', long: 'Thursday' },
  { day: 4, short: 'Fri', long: 'Friday' },
  { day: 5, short: 'Sat', long: 'Saturday' },
  { day: 6, short: 'Sun', long: 'Sunday' },
] as const;

export const REMINDER = {
  defaultTime: '08:00',
  /**
   * How late a reminder may still go out: a server restarted at 08:40 still sends the 08:00 one; a
   * server down all morning does not nudge anybody at tea time with a morning reminder.
   */
  lateWindowMinutes: 120,
  /** How many upcoming reminders an app keeps scheduled on the device (a fortnight of daily ones). */
  scheduledAhead: 14,
  title: 'A moment for yourself',
  /** Browsers one account keeps for reminders: more than anyone uses, few enough that nobody can make the server post to thousands. */
  maxDevices: 20,
} as const;

export const REMINDER_MESSAGES = {
  badTime: 'Choose a time like 07:30.',
  noDays: 'Choose at least one day.',
  badTimezone: 'Your time zone was not recognised. Reload the page and try again.',
  saved: 'Reminder saved.',
  turnedOff: 'Reminders are off.',
  notSaved: 'Your reminder could not be saved. Please try again.',
  unsupported: 'This browser cannot show reminders. On a phone, add Harbour Mind to your home screen first, or use the app.',
  denied: 'Notifications are blocked for Harbour Mind. Allow them in your browser’s or phone’s settings, then turn reminders on again.',
  deviceRefused: 'This device could not be signed up for reminders. Please try again.',
  unknownPushService: 'This browser’s notification service is not one Harbour Mind can send to.',
  badSubscription: 'This device’s notification details are malformed.',
  badOffLink: 'This link to turn off reminders is not valid.',
  offAction: 'Turn off reminders',
  // Reminders without push (issue 38, item 6): by e-mail, and a calendar file.
  badChannel: 'Choose notifications or e-mail.',
  channelLegend: 'Send it as',
  channelPush: 'A notification on this device',
  channelEmail: 'An e-mail',
  pushUnavailable: 'This browser cannot show notifications, so your reminder can come by e-mail instead, or you can add it to your calendar.',
  emailUnverified: 'Confirm your e-mail address first (open the link we sent you), then choose e-mail reminders.',
  emailGoesTo: 'Your reminder goes by e-mail to',
  mailIntro: 'Here is your daily reminder from Harbour Mind:',
  mailAction: 'Open Harbour Mind',
  mailFooter: 'You get this because you chose a daily reminder by e-mail in Harbour Mind, at most one a day.',
  mailOffLabel: 'Turn off e-mail reminders',
  offPageTitle: 'Turn off e-mail reminders?',
  offPageBody: 'You will get no more daily reminders by e-mail. You can turn them on again in Account › Settings whenever you like.',
  offPageDone: 'E-mail reminders are off. You can turn them on again in Account › Settings.',
  offPageOutdated: 'This link is from an older reminder and changes nothing now. Your reminder is as you set it in Account › Settings.',
  offPageMissing: 'This link is incomplete. Open it again from the e-mail, or change your reminder in Account › Settings.',
  addToCalendar: 'Add to calendar',
  calendarHint: 'Your calendar can remind you instead: it downloads a repeating event at the time and days chosen above.',
  calendarDescription: 'A gentle nudge to take a few minutes for yourself with Harbour Mind.',
} as const;

/** How a reminder arrives: a notification on the account's devices (Web Push, or the apps' own), or an e-mail. */
const REMINDER_CHANNELS = ['push', 'email'] as const;
type ReminderChannel = (typeof REMINDER_CHANNELS)[number];
export const reminderChannelSchema = z.enum(REMINDER_CHANNELS, REMINDER_MESSAGES.badChannel);

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Local wall-clock time, 24-hour HH:MM. */
export const reminderTimeSchema = z.string(REMINDER_MESSAGES.badTime).regex(TIME, REMINDER_MESSAGES.badTime);
/** Chosen weekdays, 0 = Monday … 6 = Sunday, each once. */
export const reminderDaysSchema = z
  .array(z.number(REMINDER_MESSAGES.noDays).int(REMINDER_MESSAGES.noDays).min(0, REMINDER_MESSAGES.noDays).max(6, REMINDER_MESSAGES.noDays), REMINDER_MESSAGES.noDays)
  .min(1, REMINDER_MESSAGES.noDays)
  .max(7, REMINDER_MESSAGES.noDays)
  .refine((days) => new Set(days).size === days.length, REMINDER_MESSAGES.noDays);

export const reminderSettingsSchema = z.strictObject({
  enabled: z.boolean('Say whether reminders are on.'),
  /** Local wall-clock time, 24-hour HH:MM. */
  time: reminderTimeSchema,
  /** Chosen weekdays, 0 = Monday … 6 = Sunday, each once. */
  days: reminderDaysSchema,
  /** The IANA time zone the time is in: the device's own when the person saved. */
  timeZone: z.string(REMINDER_MESSAGES.badTimezone).refine(isValidTimezone, REMINDER_MESSAGES.badTimezone),
  /** Left out (older apps), the saved channel stays as it is. */
  channel: reminderChannelSchema.optional(),
});
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

/** The settings as saved: the channel always known. */
export type SavedReminderSettings = ReminderSettings & { channel: ReminderChannel };

export const defaultReminderSettings = (timeZone: string): SavedReminderSettings => ({ enabled: false, time: REMINDER.defaultTime, days: [0, 1, 2, 3, 4, 5, 6], timeZone, channel: 'push' });

/** What this device's notifications should follow: on only while the reminder is on and goes to devices. */
export const deviceReminderSettings = (settings: SavedReminderSettings): ReminderSettings => ({ ...settings, enabled: settings.enabled && settings.channel === 'push' });

const minutesOf = (time: string): number => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

/** The day's message: the day's affirmation (the one home shows that day), the same on every device. */
export function reminderMessage(day: DayKey): string {
  return affirmationForDay(day);
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** Local minutes since midnight of `instant` in `timeZone` (a valid one), with one formatter per zone. */
function localMinutes(instant: Date, timeZone: string): number {
  let format = timeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    // As days.ts's: the zones a runtime knows are a few hundred; the cap holds against made-up spellings.
    if (timeFormats.size < 1000) timeFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

/**
 * The local day whose reminder is due at `now`, or null: on a chosen weekday, from the chosen time
 * until `lateWindowMinutes` after it. The caller sends at most one per device per returned day.
 */
export function dueReminderDay(settings: Pick<ReminderSettings, 'enabled' | 'time' | 'days' | 'timeZone'>, now: Date): DayKey | null {
  if (!settings.enabled || !isValidTimezone(settings.timeZone)) return null;
  const today = dayKey(now, settings.timeZone);
  if (!settings.days.includes(weekdayIndex(today))) return null;
  const late = localMinutes(now, settings.timeZone) - minutesOf(settings.time);
  return late >= 0 && late < REMINDER.lateWindowMinutes ? today : null;
}

/** The next `count` reminders after `from`, on this device's clock: what an app schedules locally. */
export function upcomingReminders(settings: Pick<ReminderSettings, 'enabled' | 'time' | 'days'>, from: Date, count: number = REMINDER.scheduledAhead): { at: Date; day: DayKey; message: string }[] {
  if (!settings.enabled || settings.days.length === 0) return [];
  const minutes = minutesOf(settings.time);
  const found: { at: Date; day: DayKey; message: string }[] = [];
  for (let offset = 0; found.length < count && offset < 7 * count + 7; offset += 1) {
    const day = addDays(localDay(from), offset);
    if (!settings.days.includes(weekdayIndex(day))) continue;
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const at = new Date(y, m - 1, d, Math.floor(minutes / 60), minutes % 60, 0, 0);
    if (at > from) found.push({ at, day, message: reminderMessage(day) });
  }
  return found;
}

/** "Every day", "Weekdays", "Weekends" or the days named ("Mon, Wed, Fri"), for the settings' summary. */
export function describeDays(days: readonly number[]): string {
  const set = new Set(days);
  if (set.size === 7) return 'Every day';
  if (set.size === 5 && [0, 1, 2, 3, 4].every((d) => set.has(d))) return 'Weekdays';
  if (set.size === 2 && set.has(5) && set.has(6)) return 'Weekends';
  return WEEKDAYS.filter((w) => set.has(w.day)).map((w) => w.short).join(', ');
}
