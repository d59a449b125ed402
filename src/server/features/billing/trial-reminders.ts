/**
 * 'Your trial ends soon' (issue 17, item 3): one e-mail per trial, TRIAL_REMINDER_DAYS_BEFORE days
 * before it ends, so nobody is charged by surprise. Every process runs the job; each trial is
 * claimed by one UPDATE … RETURNING before its e-mail goes out, so two processes never both send
 * it (the database decides), and a claim whose e-mail failed is released for the next run.
 */
import { and, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import { isPlan, PLAN_DETAILS } from '#shared/billing.ts';
import { TRIAL_REMINDER_DAYS_BEFORE } from '#shared/constants.ts';
import type { Database } from '#server/db/client.ts';
import { user } from '#server/db/schema/auth.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { brandedMail, type Mailer } from '#server/mail.ts';
import { startBackgroundJob } from '#server/background-job.ts';

const DAY_MS = 86_400_000;
/** How often each process looks: a reminder goes out at most this late. */
const TRIAL_REMINDER_EVERY_MS = 15 * 60_000;

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

const longDate = (date: Date) => date.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

function reminderMail({ to, name, trialEnd, plan, provider, publicUrl }: { to: string; name: string; trialEnd: Date; plan: string; provider: string; publicUrl: string }) {
  const details = isPlan(plan) ? PLAN_DETAILS[plan] : undefined;
  const what = details ? `${details.label} (${details.priceText})` : 'your subscription';
  const when = longDate(trialEnd);
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  return brandedMail({
    to,
    subject: `Your Harbour Mind trial ends on ${when}`,
    greeting: firstName ? `Hello ${firstName},` : 'Hello,',
    body: [
      `Your free trial of Harbour Mind ends on ${when}.`,
      provider === 'app_store'
        ? `After that, ${what} starts through the App Store. If it is not for you, cancel before then in your iPhone's Settings, under your name, then Subscriptions.`
        : provider === 'play_store'
          ? `After that, ${what} starts through Google Play. If it is not for you, cancel before then in the Play Store app, under Payments & subscriptions.`
          : `After that, ${what} starts and is charged. If it is not for you, cancel before then in Account › Settings: nothing will be charged.`,
      'Whatever you decide, thank you for making time for yourself.',
    ],
    action: { label: 'Manage your subscription', url: `${publicUrl}/account` },
    footer: `We send this once, ${TRIAL_REMINDER_DAYS_BEFORE} days before a trial ends.`,
  });
}

/** Sends the reminder for every trial ending within the window that has not had one. Returns how many were sent. */
export async function sendTrialEndingReminders({ db, mailer, publicUrl, log, now = new Date() }: { db: Database; mailer: Mailer; publicUrl: string; log: Log; now?: Date }): Promise<number> {
  const claimed = await db
    .update(subscribers)
    .set({ trialReminderSentAt: now })
    .where(
      and(
        eq(subscribers.status, 'trialing'),
        eq(subscribers.cancelAtPeriodEnd, false),
        isNull(subscribers.trialReminderSentAt),
        gt(subscribers.trialEnd, now),
        lte(subscribers.trialEnd, new Date(now.getTime() + TRIAL_REMINDER_DAYS_BEFORE * DAY_MS)),
      ),
    )
    .returning({ id: subscribers.id, userId: subscribers.userId, trialEnd: subscribers.trialEnd, plan: subscribers.plan, provider: subscribers.provider });
  if (claimed.length === 0) return 0;

  const people = new Map((await db.select({ id: user.id, email: user.email, name: user.name }).from(user).where(inArray(user.id, claimed.map((c) => c.userId)))).map((p) => [p.id, p]));
  let sent = 0;
  for (const claim of claimed) {
    const person = people.get(claim.userId);
    if (!person || !claim.trialEnd) continue;
    try {
      await mailer.send(reminderMail({ to: person.email, name: person.name, trialEnd: claim.trialEnd, plan: claim.plan, provider: claim.provider, publicUrl }));
      sent += 1;
    } catch (error) {
      // Not sent: release the claim so a later run (here or in another process) tries again.
      await db.update(subscribers).set({ trialReminderSentAt: null }).where(eq(subscribers.id, claim.id));
      log.error({ err: error instanceof Error ? { message: error.message } : error }, 'trial reminder not sent; will retry');
    }
  }
  if (sent > 0) log.info({ sent }, 'trial reminders sent');
  return sent;
}

/** Runs the job now and every TRIAL_REMINDER_EVERY_MS, one run at a time; the returned function stops it. */
export function startTrialReminders(options: { db: Database; mailer: Mailer; publicUrl: string; log: Log; everyMs?: number }): () => Promise<void> {
  return startBackgroundJob({ log: options.log, failure: 'trial reminder run failed', everyMs: options.everyMs ?? TRIAL_REMINDER_EVERY_MS, firstAfterMs: 5_000, run: () => sendTrialEndingReminders(options) });
}
