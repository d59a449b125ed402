/**
 * Billing behind one port (issue 34, item 3): each place a subscription is sold or kept is one
 * BillingProvider, and billing.routes.ts speaks HTTP only. A new store is one more object here.
 * - The web's seller, by BILLING_MODE: Stripe, the in-app sandbox, or none (App-Store-only deployments).
 * - An existing subscription's keeper, by the provider its row names: Stripe, this server (sandbox and
 *   comped rows live here), Apple or Google (changed only in their apps, never from the web).
 */
import { BILLING_MESSAGES, type Plan } from '#shared/billing.ts';
import type { BillingMode } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { createSandboxCheckout } from '#server/features/billing/sandbox-billing.ts';
import type { StripeBilling } from '#server/features/billing/stripe-billing.ts';
import { syncSubscription, type SubscriptionRow } from '#server/features/billing/subscriptions.service.ts';

type CheckoutRequest = { userId: string; email: string; plan: Plan; withTrial: boolean };

interface BillingProvider {
  /** Subscriptions bought in a store app: the refusal the web gives when asked to change one. */
  readonly changedElsewhere?: () => AppError;
  /** Starts a web checkout; answers where to send the person. */
  checkout(request: CheckoutRequest): Promise<{ url: string }>;
  /** Cancels at the end of the period, or resumes. */
  setCancelAtPeriodEnd(row: SubscriptionRow, cancel: boolean): Promise<void>;
  /** Where the person manages the subscription and its payment details. */
  portal(row: SubscriptionRow): Promise<{ url: string }>;
  /** Diagnostics' 'Force Restore Purchases': the subscription read again from its provider. */
  restore(userId: string, row: SubscriptionRow | undefined): Promise<void>;
}

export type BillingProviders = {
  /** Sells on the web; undefined when this deployment sells nothing there (BILLING_MODE=none). */
  seller: BillingProvider | undefined;
  keeperOf: (row: SubscriptionRow) => BillingProvider;
};

const SANDBOX_PORTAL = '/subscribe/sandbox-portal';
const APPLE_MANAGED = 'This subscription is managed by Apple: cancel it in Settings › Apple ID › Subscriptions.';
const GOOGLE_MANAGED = 'This subscription is managed by Google Play: cancel it in the Play Store app under Payments & subscriptions.';

function stripeProvider(stripe: StripeBilling | undefined): BillingProvider {
  return {
    checkout: (request) => (stripe ? stripe.createCheckout(request) : Promise.reject(new AppError('billing/unavailable', BILLING_MESSAGES.genericError, 503))),
    async setCancelAtPeriodEnd(row, cancel) {
      if (!stripe || !row.providerSubscriptionId) throw new AppError('billing/unavailable', BILLING_MESSAGES.genericError, 503);
      await stripe.setCancelAtPeriodEnd(row.providerSubscriptionId, cancel);
    },
    // A Stripe row on a deployment without Stripe keys (a copy of production data in the sandbox): the sandbox's page.
    portal: async (row) => (stripe && row.providerCustomerId ? stripe.portal(row.providerCustomerId) : { url: SANDBOX_PORTAL }),
    async restore(userId, row) {
      await stripe?.restore({ userId, subscriptionId: row?.providerSubscriptionId ?? null });
    },
  };
}

/** Sandbox and comped subscriptions: kept in this server's database, changed there directly. */
function localProvider(db: Database): BillingProvider {
  return {
    checkout: ({ userId, plan, withTrial }) => createSandboxCheckout({ db, userId, plan, withTrial }),
    async setCancelAtPeriodEnd(row, cancel) {
      await syncSubscription({ db, userId: row.userId, snapshot: { ...snapshotOf(row), cancelAtPeriodEnd: cancel } });
    },
    portal: () => Promise.resolve({ url: SANDBOX_PORTAL }),
    // The rows already live here.
    restore: () => Promise.resolve(),
  };
}

/** Apple's and Google's: bought, changed and restored in the store's own app (issue 19). */
function storeProvider(message: string): BillingProvider {
  const changedElsewhere = () => new AppError('billing/managed-elsewhere', message, 409);
  return {
    changedElsewhere,
    checkout: () => Promise.reject(changedElsewhere()),
    setCancelAtPeriodEnd: () => Promise.reject(changedElsewhere()),
    portal: () => Promise.reject(changedElsewhere()),
    restore: () => Promise.resolve(),
  };
}

export function billingProviders({ db, mode, stripe }: { db: Database; mode: BillingMode; stripe: StripeBilling | undefined }): BillingProviders {
  if ((mode === 'stripe') !== Boolean(stripe)) throw new Error(`billingProviders: mode ${mode} ${stripe ? 'with' : 'without'} Stripe billing`);
  const byProvider: Record<string, BillingProvider> = {
    stripe: stripeProvider(stripe),
    sandbox: localProvider(db),
    comped: localProvider(db),
    app_store: storeProvider(APPLE_MANAGED),
    play_store: storeProvider(GOOGLE_MANAGED),
  };
  return {
    seller: mode === 'stripe' ? byProvider.stripe : mode === 'sandbox' ? byProvider.sandbox : undefined,
    keeperOf: (row) => {
      const keeper = byProvider[row.provider] as BillingProvider | undefined;
      if (!keeper) throw new Error(`no billing provider for a subscription kept by '${row.provider}'`);
      return keeper;
    },
  };
}

function snapshotOf(row: SubscriptionRow) {
  return {
    provider: row.provider as 'sandbox' | 'comped',
    status: row.status,
    plan: row.plan as Plan | 'comped',
    providerCustomerId: row.providerCustomerId,
    providerSubscriptionId: row.providerSubscriptionId,
    currentPeriodEnd: row.currentPeriodEnd,
    trialStart: row.trialStart,
    trialEnd: row.trialEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    environment: row.environment,
  };
}
