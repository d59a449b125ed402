import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '#shared/billing.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { sendTrialEndingReminders } from '#server/features/billing/trial-reminders.ts';
import { createMailer, type Mailer } from '#server/mail.ts';
import { buildUser } from '#tests/factories.ts';
import { readOutbox } from '#tests/setup/outbox.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const HOUR = 3_600_000;
const silent = { info: () => {}, error: () => {} };

describe.each(testDatabaseKinds())('trial reminders on %s', (kind) => {
  let t: TestApp;
  let mailer: Mailer;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    mailer = createMailer({ from: 'Harbour Mind <hello@harbourmind.test>', outboxDir: join(t.dataDir, 'outbox'), log: silent });
  });
  afterAll(() => t.close());

  const now = new Date('2026-11-28T09:00:00Z');
  const run = (at = now, using = mailer) => sendTrialEndingReminders({ db: t.database.db, mailer: using, publicUrl: t.config.publicUrl, log: silent, now: at });
  const mailsTo = (email: string) => readOutbox(t.dataDir).filter((m) => m.to.includes(email));

  async function trialist(email: string, { endsInHours, status = 'trialing', cancelled = false, provider = 'sandbox' }: { endsInHours: number; status?: string; cancelled?: boolean; provider?: Provider }) {
    const person = await buildUser(t, { email, name: `${email.split('@')[0]} Example` });
    const trialEnd = new Date(now.getTime() + endsInHours * HOUR);
    await syncSubscription({ db: t.database.db, userId: person.id, snapshot: { provider, status, plan: 'yearly', currentPeriodEnd: trialEnd, trialStart: new Date(trialEnd.getTime() - 7 * 24 * HOUR), trialEnd, cancelAtPeriodEnd: cancelled } });
    return person;
  }

  it('e-mails each trial ending within two days once, with its date, plan and how to cancel, and no one else', async () => {
    await trialist('soon@example.com', { endsInHours: 36 });
    await trialist('apple@example.com', { endsInHours: 47, provider: 'app_store' });
    await trialist('later@example.com', { endsInHours: 24 * 5 });
    await trialist('over@example.com', { endsInHours: -1 });
    await trialist('cancelled@example.com', { endsInHours: 30, cancelled: true });
    await trialist('paying@example.com', { endsInHours: 30, status: 'active' });

    expect(await run()).toBe(2);
    const [soon] = mailsTo('soon@example.com');
    expect(soon.subject).toBe('Your Harbour Mind trial ends on Sunday 29 November');
    expect(soon.raw).toContain('Hello soon,');
    expect(soon.raw).toContain('Premium Yearly (£39.99 / year) starts and is charged');
    expect(soon.links).toContain(`${t.config.publicUrl}/account`);
    expect(mailsTo('apple@example.com')[0].raw).toContain('through the App Store');
    for (const email of ['later@example.com', 'over@example.com', 'cancelled@example.com', 'paying@example.com']) expect(mailsTo(email), email).toHaveLength(0);

    // Once per trial: the next runs send nothing more, until another trial comes within reach.
    expect(await run(new Date(now.getTime() + HOUR))).toBe(0);
    expect(await run(new Date(now.getTime() + 4 * 24 * HOUR))).toBe(1);
    expect(mailsTo('later@example.com')).toHaveLength(1);
    expect(mailsTo('soon@example.com')).toHaveLength(1);
  });

  it('gives each trial to one run when several run at once (as two processes would)', async () => {
    await trialist('race@example.com', { endsInHours: 20 });
    const results = await Promise.all([run(), run(), run()]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    expect(mailsTo('race@example.com')).toHaveLength(1);
  });

  it('releases a trial whose e-mail could not be sent, and the next run sends it', async () => {
    const person = await trialist('flaky@example.com', { endsInHours: 10 });
    const failing: Mailer = { kind: 'smtp', send: () => Promise.reject(new Error('SMTP down')) };
    expect(await run(now, failing)).toBe(0);
    const [row] = await t.database.db.select().from(subscribers).where(eq(subscribers.userId, person.id));
    expect(row.trialReminderSentAt).toBeNull();
    expect(await run()).toBe(1);
    expect(mailsTo('flaky@example.com')).toHaveLength(1);
  });
});
