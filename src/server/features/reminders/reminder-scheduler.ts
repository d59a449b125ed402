/**
 * Sends the day's reminders (issue 20, item 4). Every process runs the job each minute; a reminder
 * goes to a device only after this process has inserted its (device, local day) row in
 * reminder_deliveries, and the primary key lets exactly one insert win. So two processes never both
 * send it, a restart never sends it again, and no device gets more than one a day. A reminder the
 * push service did not take (it was down, or busy) is released for the next run to try again.
 */
import { and, eq, inArray, lt } from 'drizzle-orm';
import webpush from 'web-push';
import { dueReminderDay, REMINDER, reminderMessage } from '#shared/reminders.ts';
import { programmePath, programmeReminder } from '#shared/programmes.ts';
import type { ReminderPush } from '#shared/contracts/reminders.ts';
import type { Database } from '#server/db/client.ts';
import { programmeEnrolments } from '#server/db/schema/programmes.ts';
import { pushSubscriptions, reminderDeliveries, reminderMailDeliveries, reminderSettings } from '#server/db/schema/reminders.ts';
import { listProgress } from '#server/features/programmes/programmes.service.ts';
import { offTokenFor } from '#server/features/reminders/reminders.service.ts';
import { claimDueMails, mailedOn, sendClaimedMails, type ReminderMailer } from '#server/features/reminders/reminder-mail.ts';
import { vapidKeysFor, vapidSubject, type VapidKeys } from '#server/features/reminders/vapid.ts';
import type { Config } from '#server/config.ts';
import { startBackgroundJob } from '#server/background-job.ts';

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

export type PushSender = {
  vapid: VapidKeys & { subject: string };
  /** Signs the tokens reminders carry for their one-tap "Turn off reminders". */
  offSecret: string;
  /** Seconds a push service keeps an undelivered reminder (a phone that is off): past the window it is stale. */
  ttlSeconds?: number;
};

/** The sender a process uses: its VAPID pair and the off tokens' key, both from the auth secret. */
export function pushSenderFor(authSecret: string, config: Pick<Config, 'webPush' | 'publicUrl' | 'mailFrom'>): PushSender {
  return { vapid: { ...vapidKeysFor(authSecret, config.webPush), subject: vapidSubject(config.webPush.subject, config.publicUrl, config.mailFrom) }, offSecret: `reminders-off:${authSecret}` };
}

/** How many pushes are in flight at once: a push service answers in tens of milliseconds; this keeps a big morning quick without a flood. */
const IN_FLIGHT = 8;
/** Deliveries are kept a week: longer than any local day a reminder can be due on. */
const KEEP_DELIVERIES_MS = 8 * 86_400_000;

type Outcome = 'sent' | 'gone' | 'retry' | 'refused';

/** What a reminder says: the programme day that is ready (issue 37, item 2), else the day's affirmation. */
type Nudge = { body: string; url: string };

/**
 * For each of these people following a programme whose next day is open on `day` (or opens by then), that
 * day named, leading to the programme; the most recently started such programme wins. One query finds who
 * follows any, so a morning of thousands of reminders costs nothing more for everyone else.
 */
async function programmeNudges(db: Database, userIds: string[], day: (userId: string) => string, now: Date): Promise<Map<string, Nudge>> {
  const nudges = new Map<string, Nudge>();
  if (userIds.length === 0) return nudges;
  const following = await db.selectDistinct({ userId: programmeEnrolments.userId }).from(programmeEnrolments).where(inArray(programmeEnrolments.userId, userIds));
  for (const { userId } of following) {
    const ready = (await listProgress({ db, userId, now })).find((p) => p.current !== null && (p.opensOn === null || p.opensOn <= day(userId)));
    if (ready?.current) nudges.set(userId, { body: programmeReminder(ready.title, ready.current, ready.dayCount), url: programmePath(ready.slug) });
  }
  return nudges;
}

async function push(sender: PushSender, device: { id: string; endpoint: string; p256dh: string; auth: string }, day: string, log: Log, nudge?: Nudge): Promise<Outcome> {
  const message: ReminderPush = { title: REMINDER.title, body: nudge?.body ?? reminderMessage(day), url: nudge?.url ?? '/', offToken: offTokenFor(sender.offSecret, device.id), day };
  // web-push encrypts (RFC 8291) and signs (RFC 8292); the request itself goes out with fetch, which
  // has a deadline and never follows a redirect somewhere else.
  const request = (() => {
    try {
      return webpush.generateRequestDetails({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(message), {
        vapidDetails: sender.vapid,
        TTL: sender.ttlSeconds ?? REMINDER.lateWindowMinutes * 60,
        urgency: 'normal',
        // One pending reminder per device at most: a newer one replaces an undelivered older one.
        topic: 'daily-reminder',
      });
    } catch (error) {
      // Keys web-push cannot encrypt for: this device never gets one, and the others in its batch still do.
      log.warn({ err: { message: error instanceof Error ? error.message : String(error) }, device: device.id }, 'reminder could not be encrypted for a device');
      return null;
    }
  })();
  if (!request) return 'refused';
  try {
    const response = await fetch(request.endpoint, { method: request.method, headers: request.headers as Record<string, string>, body: new Uint8Array(request.body), redirect: 'error', signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    if (response.ok) return 'sent';
    // The browser unsubscribed, or the subscription expired: the device is gone for good.
    if (response.status === 404 || response.status === 410) return 'gone';
    if (response.status === 429 || response.status >= 500) return 'retry';
    log.warn({ status: response.status, device: device.id }, 'push service refused a reminder');
    return 'refused';
  } catch (error) {
    log.warn({ err: { message: error instanceof Error ? error.message : String(error) }, device: device.id }, 'reminder not delivered to the push service; will retry');
    return 'retry';
  }
}

/** Sends every reminder due at `now` that no process has sent yet. Returns what became of them. */
export async function sendDueReminders({ db, sender, log, now = new Date() }: { db: Database; sender: PushSender; log: Log; now?: Date }): Promise<Record<Outcome, number>> {
  const counts: Record<Outcome, number> = { sent: 0, gone: 0, retry: 0, refused: 0 };
  const candidates = await db
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId, endpoint: pushSubscriptions.endpoint, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth, enabled: reminderSettings.enabled, time: reminderSettings.time, days: reminderSettings.days, timeZone: reminderSettings.timeZone })
    .from(reminderSettings)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.userId, reminderSettings.userId))
    .where(and(eq(reminderSettings.enabled, true), eq(reminderSettings.channel, 'push')));
  const dueByClock = candidates.flatMap((device) => {
    const day = dueReminderDay(device, now);
    return day ? [{ device, day }] : [];
  });
  // Someone who switched from e-mail after today's mail went: today is done for them.
  const mailed = await mailedOn(db, dueByClock.map(({ device, day }) => ({ userId: device.userId, day })));
  const due = dueByClock.filter(({ device, day }) => !mailed.has(`${device.userId} ${day}`));
  if (due.length > 0) {
    const claimed = await db
      .insert(reminderDeliveries)
      .values(due.map(({ device, day }) => ({ subscriptionId: device.id, day, claimedAt: now })))
      .onConflictDoNothing()
      .returning({ subscriptionId: reminderDeliveries.subscriptionId, day: reminderDeliveries.day });
    const won = new Set(claimed.map((c) => `${c.subscriptionId} ${c.day}`));
    const mine = due.filter(({ device, day }) => won.has(`${device.id} ${day}`));
    const dayOf = new Map(mine.map(({ device, day }) => [device.userId, day]));
    const nudges = await programmeNudges(db, [...dayOf.keys()], (userId) => dayOf.get(userId) ?? '', now).catch((error: unknown) => {
      // The affirmation is a fine reminder too: a failed look-up never holds the reminders back.
      log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'programme reminders unavailable; sending the affirmation');
      return new Map<string, Nudge>();
    });
    for (let i = 0; i < mine.length; i += IN_FLIGHT) {
      await Promise.all(
        mine.slice(i, i + IN_FLIGHT).map(async ({ device, day }) => {
          const outcome = await push(sender, device, day, log, nudges.get(device.userId));
          counts[outcome] += 1;
          // One device's bookkeeping failing never stops the batches after it: they are claimed already.
          try {
            if (outcome === 'sent') await db.update(pushSubscriptions).set({ lastSentAt: now }).where(eq(pushSubscriptions.id, device.id));
            if (outcome === 'gone') await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
            if (outcome === 'retry') await db.delete(reminderDeliveries).where(and(eq(reminderDeliveries.subscriptionId, device.id), eq(reminderDeliveries.day, day)));
          } catch (error) {
            log.error({ err: { message: error instanceof Error ? error.message : String(error) }, device: device.id, outcome }, 'reminder delivery not recorded');
          }
        }),
      );
    }
  }
  if (counts.sent + counts.gone + counts.retry + counts.refused > 0) log.info(counts, 'reminders sent');
  return counts;
}

/**
 * Sends every e-mail reminder due at `now` that no process has sent yet (issue 38, item 6): the same
 * words as the push (the programme's day, else the day's affirmation). Returns how many went.
 */
export async function sendDueMailReminders({ db, mail, log, now = new Date() }: { db: Database; mail: ReminderMailer; log: Log; now?: Date }): Promise<number> {
  const claimed = await claimDueMails({ db, now });
  if (claimed.length === 0) return 0;
  const dayOf = new Map(claimed.map((c) => [c.userId, c.day]));
  const nudges = await programmeNudges(db, [...dayOf.keys()], (userId) => dayOf.get(userId) ?? '', now).catch((error: unknown) => {
    log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'programme reminders unavailable; sending the affirmation');
    return new Map<string, Nudge>();
  });
  const sent = await sendClaimedMails({ db, mail, log, claimed, nudges, fallback: (day) => ({ body: reminderMessage(day), url: '/' }) });
  if (sent > 0) log.info({ sent }, 'reminder mails sent');
  return sent;
}

/** Forgets deliveries older than any local day a reminder can still be due on (the table stays a week of rows). */
export async function forgetOldDeliveries(db: Database, now = new Date()): Promise<void> {
  await db.delete(reminderDeliveries).where(lt(reminderDeliveries.claimedAt, new Date(now.getTime() - KEEP_DELIVERIES_MS)));
  await db.delete(reminderMailDeliveries).where(lt(reminderMailDeliveries.claimedAt, new Date(now.getTime() - KEEP_DELIVERIES_MS)));
}

/** How often a process clears old deliveries: hourly is plenty, where every run would scan the table each minute. */
const FORGET_EVERY_MS = 3_600_000;

/** Runs the job every `everyMs`, one run at a time per process; the returned function stops it and waits for a run under way. */
export function startReminderScheduler(options: { db: Database; sender: PushSender; mail?: ReminderMailer; log: Log; everyMs: number; now?: () => Date }): () => Promise<void> {
  let forgotAt = 0;
  return startBackgroundJob({
    log: options.log,
    failure: 'reminder run failed',
    everyMs: options.everyMs,
    run: async () => {
      const now = options.now?.() ?? new Date();
      const forget = now.getTime() - forgotAt >= FORGET_EVERY_MS;
      if (forget) forgotAt = now.getTime();
      await sendDueReminders({ db: options.db, sender: options.sender, log: options.log, now });
      if (options.mail) await sendDueMailReminders({ db: options.db, mail: options.mail, log: options.log, now });
      if (forget) await forgetOldDeliveries(options.db, now);
    },
  });
}
