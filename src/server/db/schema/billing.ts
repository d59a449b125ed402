/**
 * Subscriptions (spec: subscribers, plus provider, plan, provider ids, cancel_at_period_end)
 * and sandbox checkout sessions. One row per user: any row means the trial has been used.
 */
import type { PaymentError } from '#shared/billing.ts';
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ownerId, user } from './auth.ts';
import { stampedAt, timestampTz } from './columns.ts';

export const subscribers = pgTable(
  'subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId().unique(),
    status: text('status').notNull(),
    plan: text('plan').notNull(),
    provider: text('provider').notNull(),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id').unique(),
    currentPeriodEnd: timestampTz('current_period_end'),
    trialStart: timestampTz('trial_start'),
    trialEnd: timestampTz('trial_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    environment: text('environment'),
    /** Why the provider's last charge failed ('card-declined' | 'payment-failed'), until one succeeds. */
    paymentError: text('payment_error').$type<PaymentError>(),
    /** When the 'your trial ends soon' e-mail was sent (claimed), so each trial gets it once, whichever process sends it. */
    trialReminderSentAt: timestampTz('trial_reminder_sent_at'),
    createdAt: stampedAt('created_at'),
    updatedAt: stampedAt('updated_at'),
  },
  (t) => [
    index('subscribers_customer_idx').on(t.providerCustomerId),
    // The reminder job's question ('trials ending soon, not yet reminded') reads only these rows.
    index('subscribers_trial_reminder_idx').on(t.trialEnd).where(sql`${t.status} = 'trialing' and ${t.trialReminderSentAt} is null`),
  ],
);

/** Checkout sessions of the in-app sandbox (Stripe keeps its own). */
export const sandboxCheckoutSessions = pgTable('sandbox_checkout_sessions', {
  id: text('id').primaryKey(),
  userId: ownerId(),
  plan: text('plan').notNull(),
  withTrial: boolean('with_trial').notNull(),
  status: text('status').notNull().default('open'),
  createdAt: stampedAt('created_at'),
  expiresAt: timestampTz('expires_at').notNull(),
});

/**
 * Which account an App Store purchase belongs to, written on its first successful validation and
 * never by another provider: Stripe or sandbox syncs rewrite `subscribers`, not this binding, so
 * Apple's later notifications still find the owner (docs/decisions/0008-billing-mode.md).
 */
export const appStoreTransactions = pgTable(
  'app_store_transactions',
  {
    originalTransactionId: text('original_transaction_id').primaryKey(),
    userId: ownerId(),
    appAccountToken: uuid('app_account_token').notNull(),
    createdAt: stampedAt('created_at'),
  },
  (t) => [index('app_store_transactions_user_id_idx').on(t.userId)],
);

/**
 * RevenueCat webhook events already taken (issue 19, item 4): RevenueCat retries until it gets a 200
 * and may send an event twice, so each event id is applied once. The row also says what became of
 * the event (applied, unknown account, other environment …) for whoever investigates a purchase, and
 * its time orders events per account (a late retry never undoes a newer state).
 */
export const revenueCatEvents = pgTable(
  'revenuecat_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    appUserId: text('app_user_id'),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    outcome: text('outcome').notNull(),
    eventAt: timestampTz('event_at'),
    receivedAt: stampedAt('received_at'),
  },
  (t) => [index('revenuecat_events_user_id_idx').on(t.userId, t.eventAt)],
);
