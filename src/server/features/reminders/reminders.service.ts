/**
 * A person's reminder and the devices that receive it. The settings are the account's (one time,
 * the same days on every device); each browser that turned reminders on is a device of its own.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, ne, notInArray, sql } from 'drizzle-orm';
import { defaultReminderSettings, REMINDER, REMINDER_MESSAGES, type ReminderSettings, type SavedReminderSettings } from '#shared/reminders.ts';
import type { Database } from '#server/db/client.ts';
import { pushSubscriptions, reminderSettings } from '#server/db/schema/reminders.ts';
import { AppError } from '#server/errors.ts';
import { isAllowedPushEndpoint, isEncryptableKey } from '#server/features/reminders/push-services.ts';

export async function getReminderSettings(db: Database, userId: string, fallbackTimeZone = 'UTC'): Promise<{ settings: SavedReminderSettings; devices: number }> {
  const row = (await db.select().from(reminderSettings).where(eq(reminderSettings.userId, userId))).at(0);
  const [devices] = await db.select({ n: count() }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  const settings = row ? { enabled: row.enabled, time: row.time, days: [...row.days].sort((a, b) => a - b), timeZone: row.timeZone, channel: row.channel } : defaultReminderSettings(fallbackTimeZone);
  return { settings, devices: devices.n };
}

/**
 * Saves the person's reminder. E-mail reminders go to the account's own address and only once it is
 * verified (nobody can have the server mail an address they do not hold); turning them on raises the
 * version their turn-off links carry, so a link from an older mail cannot turn off the new choice.
 */
export async function saveReminderSettings(db: Database, person: { id: string; emailVerified: boolean }, settings: ReminderSettings): Promise<void> {
  await db.transaction(async (tx) => {
    const previous = (await tx.select({ enabled: reminderSettings.enabled, channel: reminderSettings.channel }).from(reminderSettings).where(eq(reminderSettings.userId, person.id)).for('update')).at(0);
    const channel = settings.channel ?? previous?.channel ?? 'push';
    const mailOn = settings.enabled && channel === 'email';
    if (mailOn && !person.emailVerified) throw new AppError('auth/email-not-verified', REMINDER_MESSAGES.emailUnverified);
    const wasMailOn = previous?.enabled === true && previous.channel === 'email';
    const values = { enabled: settings.enabled, time: settings.time, days: [...settings.days].sort((a, b) => a - b), timeZone: settings.timeZone, channel, updatedAt: new Date() };
    const bump = mailOn && !wasMailOn ? { mailOffVersion: sql`${reminderSettings.mailOffVersion} + 1` } : {};
    await tx
      .insert(reminderSettings)
      .values({ userId: person.id, ...values, mailOffVersion: mailOn ? 1 : 0 })
      .onConflictDoUpdate({ target: reminderSettings.userId, set: { ...values, ...bump } });
  });
}

/**
 * Registers this browser for the person's reminders. An endpoint is one browser profile: signing in
 * as someone else there moves it to them, so a shared computer never shows the last person's reminders.
 */
export async function addPushDevice(db: Database, userId: string, device: { endpoint: string; keys: { p256dh: string; auth: string } }, extraOrigins: readonly string[]): Promise<{ id: string }> {
  if (!isAllowedPushEndpoint(device.endpoint, extraOrigins)) throw new AppError('validation/invalid-input', REMINDER_MESSAGES.unknownPushService);
  if (!isEncryptableKey(device.keys.p256dh)) throw new AppError('validation/invalid-input', REMINDER_MESSAGES.badSubscription);
  const values = { userId, p256dh: device.keys.p256dh, auth: device.keys.auth };
  return db.transaction(async (tx) => {
    // Someone else's until now: it starts afresh (a new id), so the reminders it showed them, and
    // their "Turn off reminders", stay theirs.
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.endpoint, device.endpoint), ne(pushSubscriptions.userId, userId)));
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ endpoint: device.endpoint, ...values })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
      .returning({ id: pushSubscriptions.id });
    // Past the limit the oldest go (browsers long since cleared or replaced), never the one just added.
    const kept = tx.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id)).limit(REMINDER.maxDevices);
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), ne(pushSubscriptions.id, row.id), notInArray(pushSubscriptions.id, kept)));
    return { id: row.id };
  });
}

export async function removePushDevice(db: Database, userId: string, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/**
 * The token a reminder carries for its "Turn off reminders" action: the device's id and an HMAC of
 * it, so the service worker can turn reminders off with one tap, signed in or not, and nobody can
 * forge one for another person's device.
 */
export function offTokenFor(secret: string, subscriptionId: string): string {
  return `${subscriptionId}.${createHmac('sha256', secret).update(`reminders-off:${subscriptionId}`).digest('base64url')}`;
}

function subscriptionOfToken(secret: string, token: string): string | null {
  const [id, mac] = token.split('.');
  if (!id || !mac || !/^[0-9a-f-]{36}$/.test(id)) return null;
  const expected = Buffer.from(offTokenFor(secret, id));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
}

/** Turns the person’s reminders off (on every device) from a reminder’s action. */
export async function turnOffByToken(db: Database, secret: string, token: string): Promise<void> {
  const subscriptionId = subscriptionOfToken(secret, token);
  if (!subscriptionId) throw new AppError('validation/invalid-input', REMINDER_MESSAGES.badOffLink);
  const device = (await db.select({ userId: pushSubscriptions.userId }).from(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId))).at(0);
  // The device may have gone (unsubscribed, account deleted): then there is nothing left to turn off.
  if (!device) return;
  await db.update(reminderSettings).set({ enabled: false, updatedAt: new Date() }).where(eq(reminderSettings.userId, device.userId));
}
