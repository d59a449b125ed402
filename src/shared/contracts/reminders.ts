/** Reminders API contracts (issue 20, item 4): the person's reminder, this device's Web Push subscription, the one-tap off. */
import { z } from 'zod';
import { isValidTimezone } from '#shared/days.ts';
import { REMINDER_MESSAGES, reminderChannelSchema, reminderSettingsSchema, reminderTimeSchema, reminderDaysSchema } from '#shared/reminders.ts';
import { hasControlCharacters } from '#shared/validation.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

/** GET /api/reminders?tz=: the device's time zone, for a person who has never saved a reminder. */
const remindersQuery = z.object({ tz: z.string().max(64).default('UTC').refine(isValidTimezone, REMINDER_MESSAGES.badTimezone) });

/** GET and PUT /api/reminders: the settings, and the server's VAPID public key a browser subscribes with. */
const remindersResponse = z.object({
  settings: reminderSettingsSchema.extend({ channel: reminderChannelSchema }),
  pushKey: z.string(),
  devices: z.number().int(),
  /** The account's own address, where e-mail reminders go (never another), and whether it is confirmed: only confirmed addresses get them. */
  mail: z.object({ address: z.string(), verified: z.boolean() }),
});
export const reminderSettingsBody = reminderSettingsSchema;

/** A browser's PushSubscription as `toJSON()` gives it (RFC 8291 keys, base64url). */
const base64url = (min: number, max: number) => z.string(REMINDER_MESSAGES.badSubscription).regex(/^[A-Za-z0-9_-]+={0,2}$/, REMINDER_MESSAGES.badSubscription).min(min, REMINDER_MESSAGES.badSubscription).max(max, REMINDER_MESSAGES.badSubscription);
/** A push service's URL: no control characters (PostgreSQL's text refuses NUL, and no push service sends one). */
const endpoint = z
  .string(REMINDER_MESSAGES.badSubscription)
  .max(2048, REMINDER_MESSAGES.badSubscription)
  .refine((url) => !hasControlCharacters(url), REMINDER_MESSAGES.badSubscription);
const pushDeviceBody = z.object({
  endpoint,
  /** Browsers send `expirationTime` too (usually null); it is not kept. */
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(80, 100), auth: base64url(16, 32) }, REMINDER_MESSAGES.badSubscription),
});
const pushDeviceResponse = z.object({ id: z.uuid() });
const removePushDeviceBody = z.strictObject({ endpoint });
const removePushDeviceResponse = z.null().describe('No content: this device no longer receives reminders.');

/** POST /api/reminders/off: the token a reminder carries, so its "Turn off reminders" works without a session. */
const turnOffBody = z.strictObject({ token: z.string(REMINDER_MESSAGES.badOffLink).min(1, REMINDER_MESSAGES.badOffLink).max(200, REMINDER_MESSAGES.badOffLink) });
const turnOffResponse = z.object({ enabled: z.literal(false) });

/** What a reminder's push message carries (encrypted for the device; the service worker reads it). */
export type ReminderPush = { title: string; body: string; url: string; offToken: string; day: string };

/**
 * An e-mail reminder's "turn off" token (issue 38, item 6): the person, the version of their e-mail
 * reminders it was sent for, and an HMAC of both; opaque to the client.
 */
const mailOffToken = z
  .string(REMINDER_MESSAGES.badOffLink)
  .min(1, REMINDER_MESSAGES.badOffLink)
  .max(200, REMINDER_MESSAGES.badOffLink)
  .regex(/^[A-Za-z0-9_.-]+$/, REMINDER_MESSAGES.badOffLink);

/** POST /api/reminders/email/off: the confirmation page's button, signed in or not. */
const mailOffBody = z.strictObject({ token: mailOffToken });
/** `off`: e-mail reminders are now off. `outdated`: the link is from before they were last turned on, and changed nothing. */
const mailOffResponse = z.object({ result: z.enum(['off', 'outdated']) });

/** POST /api/reminders/email/one-click?token=: a mail client's one-click unsubscribe (RFC 8058), token in the address. */
export const mailOneClickQuery = z.object({ token: mailOffToken });
/** The form body RFC 8058 prescribes, `List-Unsubscribe=One-Click`. */
export const mailOneClickBody = z.object({ 'List-Unsubscribe': z.literal('One-Click', REMINDER_MESSAGES.badOffLink) }, REMINDER_MESSAGES.badOffLink);
export const mailOneClickResponse = z.null().describe('No content: e-mail reminders are off (or the link was outdated and changed nothing).');

/** GET /api/reminders/calendar.ics?time=&days=&tz=: a repeating calendar event at the chosen time and days in the zone. */
export const calendarQuery = z.object({
  time: reminderTimeSchema,
  /** Comma-separated weekdays, 0 = Monday … 6 = Sunday. */
  days: z
    .string(REMINDER_MESSAGES.noDays)
    .max(20, REMINDER_MESSAGES.noDays)
    .regex(/^[0-6](,[0-6]){0,6}$/, REMINDER_MESSAGES.noDays)
    .transform((text) => text.split(',').map(Number))
    .pipe(reminderDaysSchema),
  tz: z.string(REMINDER_MESSAGES.badTimezone).max(64, REMINDER_MESSAGES.badTimezone).refine(isValidTimezone, REMINDER_MESSAGES.badTimezone),
});

/** The reminders routes' contracts, by route name (their method, path and policy: reminders.routes.ts). */
export const remindersSchemas = {
  get: { query: remindersQuery, response: remindersResponse },
  save: { body: reminderSettingsBody, response: remindersResponse },
  addDevice: { body: pushDeviceBody, response: { 201: pushDeviceResponse } },
  removeDevice: { body: removePushDeviceBody, response: { 204: removePushDeviceResponse } },
  turnOff: { body: turnOffBody, response: turnOffResponse },
  mailOff: { body: mailOffBody, response: mailOffResponse },
} satisfies SchemaTable;
