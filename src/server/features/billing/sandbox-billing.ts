/**
 * Sandbox billing (no Stripe keys): an in-app checkout that behaves like Stripe's: a session,
 * a 'payment' step, a return to /account?session_id=… or /subscribe, then the same sync.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { TRIAL_DAYS } from '#shared/constants.ts';
import type { Plan } from '#shared/billing.ts';
import type { Database } from '#server/db/client.ts';
import { sandboxCheckoutSessions } from '#server/db/schema/billing.ts';
import { AppError } from '#server/errors.ts';
import { getSubscription, syncSubscription } from '#server/features/billing/subscriptions.service.ts';

const DAY = 24 * 60 * 60 * 1000;
const SESSION_TTL_MS = 30 * 60 * 1000;

function periodEnd(plan: Plan, from: Date): Date {
  const end = new Date(from);
  if (plan === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

export async function createSandboxCheckout({ db, userId, plan, withTrial }: { db: Database; userId: string; plan: Plan; withTrial: boolean }) {
  const id = `cs_sandbox_${randomBytes(12).toString('hex')}`;
  await db.insert(sandboxCheckoutSessions).values({ id, userId, plan, withTrial, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  return { id, url: `/subscribe/sandbox-checkout?session_id=${id}` };
}

export async function getSandboxCheckout({ db, userId, sessionId }: { db: Database; userId: string; sessionId: string }) {
  const rows = await db
    .select()
    .from(sandboxCheckoutSessions)
    .where(and(eq(sandboxCheckoutSessions.id, sessionId), eq(sandboxCheckoutSessions.userId, userId), gt(sandboxCheckoutSessions.expiresAt, new Date())));
  const row = rows.at(0);
  if (!row || row.status !== 'open') throw new AppError('not-found', 'This checkout session has expired. Please start again.');
  return row;
}

/** 'Complete sandbox payment': starts the trial (when the session was made with one) or the paid period. */
export async function completeSandboxCheckout({ db, userId, sessionId, now = new Date() }: { db: Database; userId: string; sessionId: string; now?: Date }) {
  const session = await getSandboxCheckout({ db, userId, sessionId });
  const plan = session.plan as Plan;
  // A trial is granted only if the user still has none on record at completion time.
  const trial = session.withTrial && !(await getSubscription(db, userId));
  const trialEnd = trial ? new Date(now.getTime() + TRIAL_DAYS * DAY) : null;
  await db.update(sandboxCheckoutSessions).set({ status: 'complete' }).where(eq(sandboxCheckoutSessions.id, sessionId));
  return syncSubscription({
    db,
    userId,
    snapshot: {
      provider: 'sandbox',
      status: trial ? 'trialing' : 'active',
      plan,
      providerCustomerId: `cus_sandbox_${userId}`,
      providerSubscriptionId: `sub_sandbox_${sessionId.slice('cs_sandbox_'.length)}`,
      currentPeriodEnd: trial ? trialEnd : periodEnd(plan, now),
      trialStart: trial ? now : null,
      trialEnd,
      cancelAtPeriodEnd: false,
      environment: 'sandbox',
    },
  });
}
