/**
 * Stripe web billing through the official SDK: Checkout in subscription mode, the Customer
 * Portal, cancel at period end, and webhooks that never edit blindly: they re-read the
 * subscription from Stripe and sync it (documenso sync-stripe-customer-subscription.ts).
 */
import Stripe from 'stripe';
import type { Plan } from '#shared/billing.ts';
import { TRIAL_DAYS } from '#shared/constants.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { ForgedWebhookError } from '#server/features/billing/forged-webhook.ts';
import { BILLING_UNAVAILABLE, syncSubscription, type SubscriptionSnapshot } from '#server/features/billing/subscriptions.service.ts';

export type StripeConfig = NonNullable<Config['stripe']>;

export function createStripeClient(config: StripeConfig): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: base ? 0 : 2,
    telemetry: false,
    ...(base ? { host: base.hostname, port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
}

const toDate = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** Stripe's subscription as our snapshot. Newer API versions keep the period on the item. */
function snapshotFromStripe(sub: Stripe.Subscription, config: StripeConfig): SubscriptionSnapshot {
  const item = sub.items.data.at(0);
  const priceId = item?.price.id;
  const interval = item?.price.recurring?.interval;
  const plan: Plan = priceId === config.priceYearly || interval === 'year' ? 'yearly' : 'monthly';
  const legacy = sub as unknown as { current_period_end?: number };
  const periodEnd = (item as unknown as { current_period_end?: number } | undefined)?.current_period_end ?? legacy.current_period_end;
  return {
    provider: 'stripe',
    status: sub.status,
    plan,
    providerCustomerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    providerSubscriptionId: sub.id,
    currentPeriodEnd: toDate(periodEnd),
    trialStart: toDate(sub.trial_start),
    trialEnd: toDate(sub.trial_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    environment: sub.livemode ? 'production' : 'test',
  };
}

export function createStripeBilling({ config, stripe, db, publicUrl }: { config: StripeConfig; stripe: Stripe; db: Database; publicUrl: string }) {
  const priceFor = (plan: Plan) => {
    const price = plan === 'yearly' ? config.priceYearly : config.priceMonthly;
    if (!price) throw new AppError('billing/unavailable', BILLING_UNAVAILABLE, 503);
    return price;
  };

  /** Re-reads the subscription from Stripe and writes it for the user named in its metadata. */
  async function syncFromStripe(subscriptionId: string) {
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    const userId = sub.metadata.userId;
    if (!userId) return undefined;
    return syncSubscription({ db, userId, snapshot: snapshotFromStripe(sub, config) });
  }

  return {
    async createCheckout({ userId, email, plan, withTrial }: { userId: string; email: string; plan: Plan; withTrial: boolean }) {
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: priceFor(plan), quantity: 1 }],
        customer_email: email,
        client_reference_id: userId,
        metadata: { userId, plan },
        subscription_data: { metadata: { userId, plan }, ...(withTrial ? { trial_period_days: TRIAL_DAYS } : {}) },
        success_url: `${publicUrl}/account?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${publicUrl}/subscribe`,
      });
      if (!session.url) throw new AppError('billing/checkout-failed');
      return { url: session.url, id: session.id };
    },

    /** Verifies the signature on the raw body, then syncs the subscription the event is about. */
    async handleWebhook(rawBody: Buffer, signature: string | undefined) {
      if (!config.webhookSecret) throw new AppError('billing/unavailable', 'Webhook secret not configured', 503);
      if (!signature) throw new ForgedWebhookError('Invalid signature', 'no Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch (error) {
        // The SDK throws a signature-verification error for a wrong, stale or malformed signature.
        throw new ForgedWebhookError('Invalid signature', error instanceof Error ? error.message.slice(0, 120) : 'signature verification failed');
      }
      const object = event.data.object as { id?: string; subscription?: string | { id: string } | null; object?: string };
      let subscriptionId: string | undefined;
      if (event.type === 'checkout.session.completed') subscriptionId = typeof object.subscription === 'string' ? object.subscription : object.subscription?.id;
      else if (event.type.startsWith('customer.subscription.')) subscriptionId = object.id;
      if (!subscriptionId) return { handled: false, type: event.type };
      await syncFromStripe(subscriptionId);
      return { handled: true, type: event.type };
    },

    async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean) {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
      return syncFromStripe(subscriptionId);
    },

    async portal(customerId: string) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: `${publicUrl}/account` });
      return { url: session.url };
    },

    syncFromStripe,
  };
}

export type StripeBilling = ReturnType<typeof createStripeBilling>;
