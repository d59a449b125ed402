/**
 * The one truth about subscriptions: every provider (Stripe, App Store, sandbox, comped) ends in
 * syncSubscription(), an idempotent upsert of the provider's current state; entitlement is
 * computed by the shared isSubscriptionActive().
 */
import { eq } from 'drizzle-orm';
import { isStaff, type Role } from '#shared/roles.ts';
import type { Who } from '#shared/policies.ts';
import { isSubscriptionActive, type PaymentError, type Plan, type Provider } from '#shared/billing.ts';
import type { Entitlement } from '#shared/contracts/billing.ts';
import type { Database } from '#server/db/client.ts';
import { subscribers } from '#server/db/schema/billing.ts';

/** The one answer when a way to subscribe is switched off (BILLING_MODE=none) or not configured. */
export const BILLING_UNAVAILABLE = 'Subscriptions are not available right now. Please try again later.';

export type SubscriptionSnapshot = {
  provider: Provider;
  status: string;
  plan: Plan | 'comped';
  providerCustomerId?: string | null;
  providerSubscriptionId?: string | null;
  currentPeriodEnd: Date | null;
  trialStart?: Date | null;
  trialEnd?: Date | null;
  cancelAtPeriodEnd?: boolean;
  environment?: string | null;
  /**
   * The last charge's failure; undefined keeps what is stored, except that a healthy status clears
   * it. Given with a healthy status it is kept: paid up to a grace period's end, the charge still failed.
   */
  paymentError?: PaymentError | null;
};

export type SubscriptionRow = typeof subscribers.$inferSelect;

const HEALTHY_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing']);

export async function getSubscription(db: Database, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscribers).where(eq(subscribers.userId, userId));
  return row;
}

/** Writes the provider's current state for the user. Replaying the same snapshot changes nothing. */
export async function syncSubscription({ db, userId, snapshot }: { db: Database; userId: string; snapshot: SubscriptionSnapshot }): Promise<SubscriptionRow> {
  const values = {
    userId,
    provider: snapshot.provider,
    status: snapshot.status,
    plan: snapshot.plan,
    providerCustomerId: snapshot.providerCustomerId ?? null,
    providerSubscriptionId: snapshot.providerSubscriptionId ?? null,
    currentPeriodEnd: snapshot.currentPeriodEnd,
    trialStart: snapshot.trialStart ?? null,
    trialEnd: snapshot.trialEnd ?? null,
    cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd ?? false,
    environment: snapshot.environment ?? null,
    // Paid again (active or trialing): nothing to fix any more, whatever event said otherwise before,
    // unless this snapshot says the charge failed (a store's grace period: still entitled, still unpaid).
    ...(snapshot.paymentError !== undefined ? { paymentError: snapshot.paymentError } : HEALTHY_STATUSES.has(snapshot.status) ? { paymentError: null } : {}),
    updatedAt: new Date(),
  };
  const [row] = await db.insert(subscribers).values(values).onConflictDoUpdate({ target: subscribers.userId, set: values }).returning();
  return row;
}

/** Spec 'Trial eligibility': only if no subscribers row exists (any row means the trial was used). */
export async function isTrialEligible(db: Database, userId: string): Promise<boolean> {
  return !(await getSubscription(db, userId));
}

/** The caller as the rules (src/shared/policies.ts `can`) see them: who, their role, and whether they are entitled. */
export async function whoIs({ db, userId, role, now }: { db: Database; userId: string; role: Role; now?: Date }): Promise<NonNullable<Who>> {
  return { userId, role, subscribed: (await getEntitlement({ db, userId, role, now })).subscribed };
}

/**
 * What a user may do: staff are entitled (spec: admins have subscriber-equivalent access; editors
 * manage the catalogue, so they must hear what they upload and edit: issue 16, item 3).
 */
export async function getEntitlement({ db, userId, role, now = new Date() }: { db: Database; userId: string; role: Role; now?: Date }): Promise<Entitlement> {
  const row = await getSubscription(db, userId);
  const active = isSubscriptionActive(row ?? null, now);
  return {
    subscribed: active || isStaff(role),
    trialEligible: !row,
    subscription: row
      ? {
          status: row.status,
          plan: row.plan,
          provider: row.provider,
          currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
          trialEnd: row.trialEnd?.toISOString() ?? null,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          paymentError: row.paymentError,
        }
      : null,
  };
}
