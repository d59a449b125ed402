/**
 * Stripe web billing through the official SDK: Checkout in subscription mode, the Customer
 * Portal, cancel at period end, and webhooks that never edit blindly: they re-read the
 * subscription from Stripe and sync it (documenso sync-stripe-customer-subscription.ts).
 */
import Stripe from 'stripe';
import type { PaymentError, Plan } from '#shared/billing.ts';
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
  async function syncFromStripe(subscriptionId: string, paymentError?: PaymentError) {
    const sub = await stripe.subscriptions.retrieve(subscriptionId);
    const userId = sub.metadata.userId;
    if (!userId) return undefined;
    return syncSubscription({ db, userId, snapshot: { ...snapshotFromStripe(sub, config), paymentError } });
  }

  /**
   * A renewal Stripe could not charge: the invoice re-read with its payments, the subscription it
   * bills, and whether the card was declined (spec: 'subscription/card-declined') or the payment
   * failed otherwise ('subscription/payment-failed').
   */
  async function failedInvoice(invoiceId: string): Promise<{ subscriptionId?: string; paymentError: PaymentError }> {
    const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments.data.payment.payment_intent'] });
    const billed = invoice.parent?.subscription_details?.subscription;
    const declined = (invoice.payments?.data ?? []).some((p) => {
      const intent = p.payment.payment_intent;
      return typeof intent === 'object' && intent.last_payment_error?.code === 'card_declined';
    });
    return { subscriptionId: typeof billed === 'string' ? billed : billed?.id, paymentError: declined ? 'card-declined' : 'payment-failed' };
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
      let paymentError: PaymentError | undefined;
      if (event.type === 'checkout.session.completed') subscriptionId = typeof object.subscription === 'string' ? object.subscription : object.subscription?.id;
      else if (event.type.startsWith('customer.subscription.')) subscriptionId = object.id;
      else if (event.type === 'invoice.payment_failed' && object.id) ({ subscriptionId, paymentError } = await failedInvoice(object.id));
      if (!subscriptionId) return { handled: false, type: event.type };
      await syncFromStripe(subscriptionId, paymentError);
      return { handled: true, type: event.type };
    },

    async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean) {
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
      return syncFromStripe(subscriptionId);
    },

    /** Ends the subscription now, with no further charge (an account being deleted), and records that. */
    async cancelNow(subscriptionId: string) {
      await stripe.subscriptions.cancel(subscriptionId);
      return syncFromStripe(subscriptionId);
    },

    async portal(customerId: string) {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: `${publicUrl}/account` });
      return { url: session.url };
    },

    syncFromStripe,

    /**
     * 'Force Restore Purchases' on the web: re-read the user's subscription from Stripe and write
     * it, by id when we know it, otherwise by the user id Checkout put in its metadata (a webhook
     * that never arrived). Nothing found: nothing written.
     */
    async restore({ userId, subscriptionId }: { userId: string; subscriptionId: string | null }): Promise<void> {
      if (subscriptionId) {
        await syncFromStripe(subscriptionId);
        return;
      }
      const found = await stripe.subscriptions.search({ query: `metadata['userId']:'${userId.replace(/[^\w-]/g, '')}'`, limit: 10 });
      const newest = found.data.sort((a, b) => b.created - a.created).at(0);
      if (newest) await syncFromStripe(newest.id);
    },

    /** Plans with a configured price: what the web can sell. */
    products: [config.priceMonthly, config.priceYearly].filter(Boolean).length,
  };
}

export type StripeBilling = ReturnType<typeof createStripeBilling>;
