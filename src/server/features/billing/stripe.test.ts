import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { fakeFailedInvoice, fakeSubscription, startFakeStripe, type FakeStripe } from '#tests/fakes/fake-stripe.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { RESTORE_LIMIT } from '#shared/billing.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const WEBHOOK_SECRET = 'whsec_test_harbour';
const signer = new Stripe('sk_test_signer');

describe('Stripe web billing (official SDK against a local fake)', () => {
  let fake: FakeStripe;
  let t: TestApp;
  let cookie: string;
  let userId: string;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_harbour',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_PRICE_MONTHLY: 'price_monthly',
        STRIPE_PRICE_YEARLY: 'price_yearly',
        STRIPE_API_BASE: fake.url,
      },
    });
    ({ cookie, userId } = await createSignedInUser(t, 'stripe@example.com'));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const subscription = async () => (await t.app.inject({ method: 'GET', url: '/api/subscription', headers: { cookie } })).json();
  const webhook = (event: object, secret = WEBHOOK_SECRET) => {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return t.app.inject({ method: 'POST', url: '/api/billing/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': header }, payload });
  };
  const event = (type: string, object: object, id = `evt_${Math.random().toString(36).slice(2)}`) => ({ id, object: 'event', type, data: { object }, api_version: '2025-01-27', created: Math.floor(Date.now() / 1000) });

  it('creates a subscription-mode Checkout Session with the plan price, trial, e-mail and return URLs', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: { ...origin(t), cookie }, payload: { plan: 'yearly' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ trial: true, url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/) });
    const sent = fake.checkoutRequests.at(-1)!;
    expect(sent).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_yearly',
      'line_items[0][quantity]': '1',
      customer_email: 'stripe@example.com',
      client_reference_id: userId,
      'subscription_data[trial_period_days]': '7',
      'subscription_data[metadata][userId]': userId,
      success_url: `${t.config.publicUrl}/account?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${t.config.publicUrl}/subscribe`,
    });
  });

  it('answers the spec message when Stripe fails', async () => {
    fake.failCheckout = true;
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: { ...origin(t), cookie }, payload: { plan: 'monthly' } });
    fake.failCheckout = false;
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toBe('Failed to create checkout session. Please try again.');
  });

  it('syncs on checkout completion by re-reading the subscription from Stripe', async () => {
    fake.subscriptions.set('sub_A', fakeSubscription({ id: 'sub_A', userId, status: 'trialing', plan: 'yearly' }));
    const res = await webhook(event('checkout.session.completed', { id: 'cs_test_1', object: 'checkout.session', subscription: 'sub_A', client_reference_id: userId }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ received: true, handled: true });
    const state = await subscription();
    expect(state.subscribed).toBe(true);
    expect(state.subscription).toMatchObject({ status: 'trialing', plan: 'yearly', provider: 'stripe', cancelAtPeriodEnd: false });
  });

  it('ends in the right state whatever the order and number of deliveries', async () => {
    const stale = event('customer.subscription.created', { ...fakeSubscription({ id: 'sub_A', userId, status: 'trialing' }) }, 'evt_stale');
    // Stripe's truth moves on: the trial converted, then the customer cancelled and the period ran out.
    fake.subscriptions.get('sub_A')!.status = 'canceled';
    await webhook(event('customer.subscription.deleted', { id: 'sub_A', object: 'subscription', status: 'canceled' }, 'evt_deleted'));
    expect((await subscription()).subscribed).toBe(false);
    // The older event arrives late, then the newer one is replayed: the state stays 'canceled'.
    await webhook(stale);
    await webhook(event('customer.subscription.deleted', { id: 'sub_A', object: 'subscription', status: 'canceled' }, 'evt_deleted'));
    const state = await subscription();
    expect(state.subscribed).toBe(false);
    expect(state.subscription.status).toBe('canceled');
    expect(state.trialEligible).toBe(false);
  });

  it('refuses badly signed or unsigned webhooks and changes nothing', async () => {
    fake.subscriptions.set('sub_A', { ...fake.subscriptions.get('sub_A')!, status: 'active' });
    const forged = await webhook(event('customer.subscription.updated', { id: 'sub_A', object: 'subscription' }), 'whsec_wrong');
    expect(forged.statusCode).toBe(400);
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/billing/stripe/webhook', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(event('customer.subscription.updated', { id: 'sub_A' })) });
    expect(unsigned.statusCode).toBe(400);
    expect((await subscription()).subscription.status).toBe('canceled');
  });

  it('records each forged webhook as a critical security event, and still answers a plain 400', async () => {
    const forgedEvents = () => t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'webhook_forged'));
    const before = (await forgedEvents()).length;
    const payload = JSON.stringify(event('customer.subscription.updated', { id: 'sub_A', object: 'subscription' }));
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_attacker' });
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
      remoteAddress: '203.0.113.66',
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.message).toBe('Invalid signature');
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/billing/stripe/webhook', headers: { 'content-type': 'application/json' }, payload, remoteAddress: '203.0.113.67' });
    expect(unsigned.statusCode).toBe(400);

    const events = (await forgedEvents()).slice(before);
    expect(events).toHaveLength(2);
    expect(events.map((e) => e.ipAddress).sort()).toEqual(['203.0.113.66', '203.0.113.67']);
    for (const e of events) {
      expect(e.severity).toBe('critical');
      expect(e.details).toMatchObject({ provider: 'stripe', route: '/api/billing/stripe/webhook' });
      expect(JSON.stringify(e.details)).not.toContain(header.split(',')[1].split('=')[1]);
    }
    // A genuine delivery records nothing.
    expect((await webhook(event('customer.subscription.updated', { id: 'sub_A', object: 'subscription' }))).statusCode).toBe(200);
    expect(await forgedEvents()).toHaveLength(before + 2);
  });

  it('cancels at period end through Stripe and shows it; opens the Customer Portal', async () => {
    fake.subscriptions.set('sub_A', fakeSubscription({ id: 'sub_A', userId, status: 'active', days: 30 }));
    await webhook(event('customer.subscription.updated', { id: 'sub_A', object: 'subscription' }));
    expect((await subscription()).subscription.status).toBe('active');

    const cancel = await t.app.inject({ method: 'POST', url: '/api/billing/cancel', headers: { ...origin(t), cookie }, payload: { cancel: true } });
    expect(cancel.statusCode).toBe(200);
    expect(fake.updateRequests.at(-1)).toEqual({ id: 'sub_A', body: { cancel_at_period_end: 'true' } });
    expect(cancel.json()).toMatchObject({ subscribed: true, subscription: { cancelAtPeriodEnd: true } });

    const portal = await t.app.inject({ method: 'POST', url: '/api/billing/portal', headers: { ...origin(t), cookie } });
    expect(portal.json().url).toBe('https://billing.stripe.com/p/session/cus_sub_A');
  });

  it("'Force Restore Purchases' re-reads the subscription from Stripe: one whose webhook never came, and a later change", async () => {
    const other = await createSignedInUser(t, 'restore@example.com');
    const restore = () => t.app.inject({ method: 'POST', url: '/api/billing/restore', headers: { ...origin(t), cookie: other.cookie } });
    const before = await t.app.inject({ method: 'GET', url: '/api/subscription', headers: { cookie: other.cookie } });
    expect(before.json()).toMatchObject({ subscribed: false, subscription: null, products: 2 });

    // Paid through Checkout, but no webhook reached us: found by the user id in its metadata.
    fake.subscriptions.set('sub_restore', fakeSubscription({ id: 'sub_restore', userId: other.userId, status: 'active', plan: 'yearly', days: 365 }));
    const found = await restore();
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ subscribed: true, subscription: { status: 'active', plan: 'yearly', provider: 'stripe' } });

    // Ended at Stripe since: the next restore says so.
    fake.subscriptions.get('sub_restore')!.status = 'canceled';
    expect((await restore()).json()).toMatchObject({ subscribed: false, subscription: { status: 'canceled' } });
  });

  it('allows a few restores a minute per account, so no one account spends the Stripe API allowance', async () => {
    const eager = await createSignedInUser(t, 'eager-restore@example.com');
    const restore = () => t.app.inject({ method: 'POST', url: '/api/billing/restore', headers: { ...origin(t), cookie: eager.cookie } });
    const before = fake.searches;
    for (let i = 0; i < RESTORE_LIMIT.perWindow; i++) expect((await restore()).statusCode).toBe(200);
    const refused = await restore();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'rate-limit/exceeded', message: 'Too many requests. Please wait before trying again.' });
    expect(refused.headers['retry-after']).toBe('60');
    expect(fake.searches - before).toBe(RESTORE_LIMIT.perWindow);
  });

  it("says why a renewal failed: 'card-declined' when Stripe's card error says so, 'payment-failed' otherwise, cleared once paid", async () => {
    const payer = await createSignedInUser(t, 'renewal@example.com');
    const mine = () => t.app.inject({ method: 'GET', url: '/api/subscription', headers: { cookie: payer.cookie } }).then((r) => r.json());
    fake.subscriptions.set('sub_renew', fakeSubscription({ id: 'sub_renew', userId: payer.userId, status: 'active', days: 30 }));
    await webhook(event('customer.subscription.created', { id: 'sub_renew', object: 'subscription' }));
    expect((await mine()).subscription).toMatchObject({ status: 'active', paymentError: null });

    fake.subscriptions.get('sub_renew')!.status = 'past_due';
    fake.invoices.set('in_declined', fakeFailedInvoice({ id: 'in_declined', subscriptionId: 'sub_renew', code: 'card_declined' }));
    expect((await webhook(event('invoice.payment_failed', { id: 'in_declined', object: 'invoice' }))).statusCode).toBe(200);
    expect((await mine()).subscription).toMatchObject({ status: 'past_due', paymentError: 'card-declined' });
    expect(ERROR_TEXT['subscription/card-declined']).toBe('Your card was declined. Please try a different payment method.');

    fake.invoices.set('in_expired', fakeFailedInvoice({ id: 'in_expired', subscriptionId: 'sub_renew', code: 'expired_card' }));
    await webhook(event('invoice.payment_failed', { id: 'in_expired', object: 'invoice' }));
    expect((await mine()).subscription).toMatchObject({ paymentError: 'payment-failed' });
    // Another event about the subscription (not a failed charge) keeps the reason while it is unpaid.
    await webhook(event('customer.subscription.updated', { id: 'sub_renew', object: 'subscription' }));
    expect((await mine()).subscription).toMatchObject({ status: 'past_due', paymentError: 'payment-failed' });

    fake.subscriptions.get('sub_renew')!.status = 'active';
    await webhook(event('customer.subscription.updated', { id: 'sub_renew', object: 'subscription' }));
    expect((await mine())).toMatchObject({ subscribed: true, subscription: { status: 'active', paymentError: null } });
  });

  it('has no sandbox endpoints when Stripe is configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/billing/sandbox/sessions/cs_sandbox_000000000000000000000000', headers: { cookie } });
    expect(res.statusCode).toBe(404);
    expect((await subscription()).mode).toBe('stripe');
  });
});
