/**
 * Daily reminders by e-mail (issue 38, item 6; decision 0060), for browsers that cannot take Web Push
 * and for anyone who prefers them. The same words as the push, at the same local time, through the
 * app's one mail path; only to the account's own address, and only once it is verified. Every mail
 * carries a one-tap "turn off": a link to a confirmation page whose button POSTs (a link prefetcher
 * only GETs, so it turns nothing off), and RFC 8058 List-Unsubscribe headers for the mail client's
 * own button.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { dueReminderDay, REMINDER, REMINDER_MESSAGES } from '#shared/reminders.ts';
import type { Database } from '#server/db/client.ts';
import { user } from '#server/db/schema/auth.ts';
import { pushSubscriptions, reminderDeliveries, reminderMailDeliveries, reminderSettings } from '#server/db/schema/reminders.ts';
import { brandedMail, type Mailer, type MailMessage } from '#server/mail.ts';

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type ReminderMailer = {
  mailer: Mailer;
  publicUrl: string;
  /** Signs the turn-off tokens; its own purpose, apart from the push reminders' key. */
  offSecret: string;
};

/** What a reminder says and where it leads (the scheduler's nudge: a programme's day, else the day's affirmation). */
export type MailNudge = { body: string; url: string };

/** The reminder mailer a process uses: the app's one mailer, and the turn-off key derived from the auth secret (shared by every process). */
export const reminderMailerFor = (authSecret: string, mailer: Mailer, publicUrl: string): ReminderMailer => ({ mailer, publicUrl, offSecret: `reminders-mail-off:${authSecret}` });

const mac = (secret: string, userId: string, version: number) => createHmac('sha256', secret).update(`reminders-mail-off:${userId}:${version}`).digest('base64url');

/**
 * The token in one person's mail: their id, the version of their e-mail reminders, and an HMAC of
 * both under the server's key. Nobody can make one for someone else, and it turns off nothing else.
 */
export function mailOffTokenFor(secret: string, userId: string, version: number): string {
  return `${userId}.${version}.${mac(secret, userId, version)}`;
}

/** The person and version a token names, or null when it was not made by this server. */
export function readMailOffToken(secret: string, token: string): { userId: string; version: number } | null {
  const match = /^([A-Za-z0-9_-]{1,64})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, userId, versionText, given] = match as unknown as [string, string, string, string];
  const version = Number(versionText);
  const expected = Buffer.from(mac(secret, userId, version));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? { userId, version } : null;
}

/**
 * Turns off the e-mail reminders the token's mail was sent for: nothing else of the person's, and
 * nothing when they have since chosen notifications or turned e-mail reminders on again (a newer
 * version). Undefined for a token this server did not make.
 */
export async function turnOffMailByToken({ db, secret, token, now = new Date() }: { db: Database; secret: string; token: string; now?: Date }): Promise<'off' | 'outdated' | undefined> {
  const named = readMailOffToken(secret, token);
  if (!named) return undefined;
  const row = (await db.select({ channel: reminderSettings.channel, version: reminderSettings.mailOffVersion }).from(reminderSettings).where(eq(reminderSettings.userId, named.userId))).at(0);
  if (!row || row.version !== named.version) return 'outdated';
  if (row.channel === 'email') {
    await db
      .update(reminderSettings)
      .set({ enabled: false, updatedAt: now })
      .where(and(eq(reminderSettings.userId, named.userId), eq(reminderSettings.channel, 'email'), eq(reminderSettings.mailOffVersion, named.version)));
  }
  return 'off';
}

/** The confirmation page a mail links to; the token rides in the query and the page POSTs it. */
const mailOffPageUrl = (publicUrl: string, token: string) => `${publicUrl}/reminders/off?token=${encodeURIComponent(token)}`;
/** Where a mail client's one-click unsubscribe POSTs (RFC 8058). */
const mailOneClickUrl = (publicUrl: string, token: string) => `${publicUrl}/api/reminders/email/one-click?token=${encodeURIComponent(token)}`;

/** One reminder mail: the push reminder's title and words, a way in, and the way out. */
function reminderMail({ to, name, nudge, token, publicUrl }: { to: string; name: string; nudge: MailNudge; token: string; publicUrl: string }): MailMessage {
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  const offUrl = mailOffPageUrl(publicUrl, token);
  return {
    ...brandedMail({
      to,
      subject: REMINDER.title,
      greeting: firstName ? `Hello ${firstName},` : 'Hello,',
      body: [REMINDER_MESSAGES.mailIntro, nudge.body],
      action: { label: REMINDER_MESSAGES.mailAction, url: `${publicUrl}${nudge.url}` },
      footer: REMINDER_MESSAGES.mailFooter,
      secondary: { label: REMINDER_MESSAGES.mailOffLabel, url: offUrl },
    }),
    headers: { 'List-Unsubscribe': `<${mailOneClickUrl(publicUrl, token)}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/**
 * The people whose e-mail reminder is due at `now`, each with the local day it is for: e-mail
 * chosen, on, and a verified address. A person's (person, day) row is inserted before their mail
 * goes, so one process sends it once; a day a device already had its push reminder is skipped
 * (someone who switched to e-mail after this morning's notification).
 */
export async function claimDueMails({ db, now }: { db: Database; now: Date }): Promise<{ userId: string; day: string; email: string; name: string; version: number }[]> {
  const candidates = await db
    .select({ userId: reminderSettings.userId, enabled: reminderSettings.enabled, time: reminderSettings.time, days: reminderSettings.days, timeZone: reminderSettings.timeZone, version: reminderSettings.mailOffVersion, email: user.email, name: user.name })
    .from(reminderSettings)
    .innerJoin(user, eq(user.id, reminderSettings.userId))
    .where(and(eq(reminderSettings.enabled, true), eq(reminderSettings.channel, 'email'), eq(user.emailVerified, true)));
  const due = candidates.flatMap((person) => {
    const day = dueReminderDay(person, now);
    return day ? [{ ...person, day }] : [];
  });
  if (due.length === 0) return [];
  const pushed = await db
    .select({ userId: pushSubscriptions.userId, day: reminderDeliveries.day })
    .from(reminderDeliveries)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, reminderDeliveries.subscriptionId))
    .where(inArray(pushSubscriptions.userId, due.map((d) => d.userId)));
  const hadPush = new Set(pushed.map((p) => `${p.userId} ${p.day}`));
  const open = due.filter((d) => !hadPush.has(`${d.userId} ${d.day}`));
  if (open.length === 0) return [];
  const claimed = await db
    .insert(reminderMailDeliveries)
    .values(open.map((d) => ({ userId: d.userId, day: d.day, claimedAt: now })))
    .onConflictDoNothing()
    .returning({ userId: reminderMailDeliveries.userId, day: reminderMailDeliveries.day });
  const won = new Set(claimed.map((c) => `${c.userId} ${c.day}`));
  return open.filter((d) => won.has(`${d.userId} ${d.day}`)).map(({ userId, day, email, name, version }) => ({ userId, day, email, name, version }));
}

/** Which of these (person, day) pairs already had their reminder by e-mail: the push run leaves them be. */
export async function mailedOn(db: Database, pairs: { userId: string; day: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db
    .select({ userId: reminderMailDeliveries.userId, day: reminderMailDeliveries.day })
    .from(reminderMailDeliveries)
    .where(inArray(reminderMailDeliveries.userId, [...new Set(pairs.map((p) => p.userId))]));
  return new Set(rows.map((r) => `${r.userId} ${r.day}`));
}

/** Sends each claimed mail; one the mail server did not take is released for the next run. Returns how many went. */
export async function sendClaimedMails({ db, mail, log, claimed, nudges, fallback }: { db: Database; mail: ReminderMailer; log: Log; claimed: Awaited<ReturnType<typeof claimDueMails>>; nudges: Map<string, MailNudge>; fallback: (day: string) => MailNudge }): Promise<number> {
  let sent = 0;
  for (const person of claimed) {
    const token = mailOffTokenFor(mail.offSecret, person.userId, person.version);
    try {
      await mail.mailer.send(reminderMail({ to: person.email, name: person.name, nudge: nudges.get(person.userId) ?? fallback(person.day), token, publicUrl: mail.publicUrl }));
      sent += 1;
    } catch (error) {
      await db.delete(reminderMailDeliveries).where(and(eq(reminderMailDeliveries.userId, person.userId), eq(reminderMailDeliveries.day, person.day)));
      log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'reminder mail not sent; will retry');
    }
  }
  return sent;
}
