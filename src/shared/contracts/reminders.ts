/** Reminders API contracts (issue 20, item 4): the person's reminder, this device's Web Push subscription, the one-tap off. */
import { z } from 'zod';
import { isValidTimezone } from '#shared/days.ts';
import { REMINDER_MESSAGES, reminderSettingsSchema } from '#shared/reminders.ts';
import { hasControlCharacters } from '#shared/validation.ts';

/** GET /api/reminders?tz=: the device's time zone, for a person who has never saved a reminder. */
export const remindersQuery = z.object({ tz: z.string().max(64).default('UTC').refine(isValidTimezone, REMINDER_MESSAGES.badTimezone) });

/** GET and PUT /api/reminders: the settings, and the server's VAPID public key a browser subscribes with. */
export const remindersResponse = z.object({ settings: reminderSettingsSchema, pushKey: z.string(), devices: z.number().int() });
export type RemindersResponse = z.infer<typeof remindersResponse>;
export const reminderSettingsBody = reminderSettingsSchema;

/** A browser's PushSubscription as `toJSON()` gives it (RFC 8291 keys, base64url). */
const base64url = (min: number, max: number) => z.string(REMINDER_MESSAGES.badSubscription).regex(/^[A-Za-z0-9_-]+={0,2}$/, REMINDER_MESSAGES.badSubscription).min(min, REMINDER_MESSAGES.badSubscription).max(max, REMINDER_MESSAGES.badSubscription);
/** A push service's URL: no control characters (PostgreSQL's text refuses NUL, and no push service sends one). */
const endpoint = z
  .string(REMINDER_MESSAGES.badSubscription)
  .max(2048, REMINDER_MESSAGES.badSubscription)
  .refine((url) => !hasControlCharacters(url), REMINDER_MESSAGES.badSubscription);
export const pushDeviceBody = z.object({
  endpoint,
  /** Browsers send `expirationTime` too (usually null); it is not kept. */
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(80, 100), auth: base64url(16, 32) }, REMINDER_MESSAGES.badSubscription),
});
export const pushDeviceResponse = z.object({ id: z.uuid() });
export const removePushDeviceBody = z.strictObject({ endpoint });
export const removePushDeviceResponse = z.null().describe('No content: this device no longer receives reminders.');

/** POST /api/reminders/off: the token a reminder carries, so its "Turn off reminders" works without a session. */
export const turnOffBody = z.strictObject({ token: z.string(REMINDER_MESSAGES.badOffLink).min(1, REMINDER_MESSAGES.badOffLink).max(200, REMINDER_MESSAGES.badOffLink) });
export const turnOffResponse = z.object({ enabled: z.literal(false) });

/** What a reminder's push message carries (encrypted for the device; the service worker reads it). */
export type ReminderPush = { title: string; body: string; url: string; offToken: string; day: string };
