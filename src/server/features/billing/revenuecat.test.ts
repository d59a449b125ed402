/**
 * RevenueCat's webhook through HTTP (issue 19, item 4): the Authorization header RevenueCat sends,
 * events in RevenueCat's documented shape, their effect on the one entitlement (GET /api/subscription
 * and the subscribers row), replays, unknown accounts, bad bodies, and the route's absence when
 * RevenueCat is not configured.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { revenueCatEvents, subscribers } from '#server/db/schema/billing.ts';
import { revenueCatEvent } from '#server/features/billing/revenuecat-event.fixture.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';

const SECRET = 'Bearer rc-hook-7f3a9c';
const DAY = 24 * 60 * 60 * 1000;

describe('RevenueCat webhook', () => {
  const t = openForSuite(() => createTestApp({ env: { REVENUECAT_WEBHOOK_AUTH: SECRET } }));
  let cookie: string;
  let userId: string;
  /** The signed-in user's appAccountToken: the app's RevenueCat appUserID. */
  let token: string;
  beforeAll(async () => {
    ({ cookie, userId } = await createSignedInUser(t, 'android@example.com'));
    token = (await t.app.inject({ method: 'GET', url: '/api/iap/app-account-token', headers: { cookie } })).json().appAccountToken;
  });

  let clock = Date.now();
  /** An event as RevenueCat sends it for a Google Play subscription (product:base-plan), each newer than the last. */
  const event = (type: string, overrides: Record<string, unknown> = {}) => {
    clock += 1000;
    return {
      api_version: '1.0',
      event: revenueCatEvent(type, clock, {
        id: randomUUID().toUpperCase(),
        app_id: 'app1a2b3c4',
        app_user_id: token,
        original_app_user_id: token,
        aliases: [token],
        transaction_id: 'GPA.3372-1111-2222-33333',
        original_transaction_id: 'GPA.3372-1111-2222-33333',
        country_code: 'GB',
        currency: 'GBP',
        price: 7.99,
        ...overrides,
      }),
    };
  };
  /** `null`: no Authorization header at all. */
  const post = (payload: unknown, authorization: string | null = SECRET) =>
    t.app.inject({ method: 'POST', url: '/api/revenuecat/webhook', headers: authorization === null ? {} : { authorization }, payload: payload as object, remoteAddress: '203.0.113.90' });
  const entitlement = async () => (await t.app.inject({ method: 'GET', url: '/api/subscription', headers: { cookie } })).json();
  const row = async () => (await t.database.db.select().from(subscribers).where(eq(subscribers.userId, userId))).at(0);
  const forgedEvents = () => t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'webhook_forged'));

  it('refuses a wrong or missing Authorization header with 401, records it, and changes nothing', async () => {
    const before = (await forgedEvents()).length;
    for (const authorization of [null, 'Bearer rc-hook-7f3a9d', `${SECRET} `, '']) {
      const res = await post(event('INITIAL_PURCHASE'), authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
    }
    // A wrong secret is refused before the body is read: even a malformed one is a 401, not a 400.
    expect((await post({ nonsense: true }, 'wrong')).statusCode).toBe(401);
    const events = await forgedEvents();
    expect(events).toHaveLength(before + 5);
    expect(events.at(-1)).toMatchObject({ severity: 'critical', ipAddress: '203.0.113.90', details: { provider: 'revenuecat', route: '/api/revenuecat/webhook' } });
    expect(JSON.stringify(events)).not.toContain('7f3a9');
    expect(await row()).toBeUndefined();
    expect(await t.database.db.select().from(revenueCatEvents)).toEqual([]);
  });

  it('answers 400 to a body that is not a RevenueCat event, and changes nothing', async () => {
    const good = event('INITIAL_PURCHASE');
    for (const payload of [{}, { event: { ...good.event, type: 'GRANT_EVERYTHING' } }, { event: { ...good.event, id: undefined } }, { event: { ...good.event, expiration_at_ms: 'forever' } }, { event: { ...good.event, environment: 'STAGING' } }]) {
      expect((await post(payload)).statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    expect(await row()).toBeUndefined();
  });

  it('a TEST event from the dashboard is acknowledged and changes nothing', async () => {
    const res = await post(event('TEST', { app_user_id: '$RCAnonymousID:abc', aliases: [], original_app_user_id: null }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, handled: false, type: 'TEST', outcome: 'no-change' });
    expect(await row()).toBeUndefined();
  });

  it('INITIAL_PURCHASE in a trial grants the entitlement the web and the apps read; a replay changes nothing', async () => {
    const purchase = event('INITIAL_PURCHASE', { period_type: 'TRIAL', expiration_at_ms: clock + 7 * DAY });
    const res = await post(purchase);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ handled: true, outcome: 'applied' });
    expect(await entitlement()).toMatchObject({ subscribed: true, trialEligible: false, subscription: { status: 'trialing', plan: 'monthly', provider: 'play_store', cancelAtPeriodEnd: false } });
    const first = await row();
    expect(first).toMatchObject({ providerCustomerId: token, providerSubscriptionId: 'GPA.3372-1111-2222-33333', environment: 'PRODUCTION' });
    expect(first?.trialEnd?.getTime()).toBe(purchase.event.expiration_at_ms);

    const replay = await post(purchase);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ handled: false, outcome: 'duplicate' });
    expect((await row())?.updatedAt).toEqual(first?.updatedAt);
    expect(await t.database.db.select().from(revenueCatEvents).where(eq(revenueCatEvents.id, purchase.event.id))).toMatchObject([{ outcome: 'applied', userId, type: 'INITIAL_PURCHASE' }]);
  });

  it('RENEWAL makes it a paid period with the new end', async () => {
    const renewal = event('RENEWAL', { expiration_at_ms: clock + 30 * DAY });
    expect((await post(renewal)).json()).toMatchObject({ handled: true });
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', currentPeriodEnd: new Date(renewal.event.expiration_at_ms).toISOString() } });
  });

  it('PRODUCT_CHANGE shows the plan chosen', async () => {
    expect((await post(event('PRODUCT_CHANGE', { new_product_id: 'hm_plus_yearly:yearly' }))).json()).toMatchObject({ handled: true });
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', plan: 'yearly' } });
  });

  it('CANCELLATION keeps the paid period and marks it ending; UNCANCELLATION renews again', async () => {
    await post(event('CANCELLATION', { cancel_reason: 'UNSUBSCRIBE', product_id: 'hm_plus_yearly:yearly' }));
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', cancelAtPeriodEnd: true } });
    await post(event('UNCANCELLATION', { product_id: 'hm_plus_yearly:yearly' }));
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', cancelAtPeriodEnd: false } });
  });

  it('BILLING_ISSUE ends the entitlement and says why; a RENEWAL restores it', async () => {
    await post(event('BILLING_ISSUE', { product_id: 'hm_plus_yearly:yearly' }));
    expect(await entitlement()).toMatchObject({ subscribed: false, subscription: { status: 'past_due', paymentError: 'payment-failed' } });
    await post(event('RENEWAL', { product_id: 'hm_plus_yearly:yearly' }));
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', paymentError: null } });
  });

  it("BILLING_ISSUE inside the store's grace period keeps Premium until the grace ends and says the charge failed; the CANCELLATION beside it keeps both; EXPIRATION ends it", async () => {
    await post(event('RENEWAL'));
    const grace = clock + 16 * DAY;
    await post(event('BILLING_ISSUE', { expiration_at_ms: clock, grace_period_expiration_at_ms: grace }));
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', paymentError: 'payment-failed', currentPeriodEnd: new Date(grace).toISOString() } });
    // RevenueCat also sends a CANCELLATION (BILLING_ERROR) naming the period that was not paid for.
    await post(event('CANCELLATION', { cancel_reason: 'BILLING_ERROR', expiration_at_ms: clock }));
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', paymentError: 'payment-failed', currentPeriodEnd: new Date(grace).toISOString() } });
    // A grace period already over when the event was sent grants nothing.
    await post(event('BILLING_ISSUE', { grace_period_expiration_at_ms: clock - 1 }));
    expect(await entitlement()).toMatchObject({ subscribed: false, subscription: { status: 'past_due', paymentError: 'payment-failed' } });
    await post(event('EXPIRATION', { expiration_at_ms: clock }));
    expect(await entitlement()).toMatchObject({ subscribed: false, subscription: { status: 'expired' } });
    await post(event('RENEWAL'));
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', paymentError: null } });
  });

  it('TRANSFER moves the store subscription to the account the purchases were restored onto, and ends it on the one they left', async () => {
    const other = await createSignedInUser(t, 'android-second@example.com');
    const otherToken: string = (await t.app.inject({ method: 'GET', url: '/api/iap/app-account-token', headers: { cookie: other.cookie } })).json().appAccountToken;
    const otherEntitlement = async () => (await t.app.inject({ method: 'GET', url: '/api/subscription', headers: { cookie: other.cookie } })).json();
    await post(event('RENEWAL', { product_id: 'hm_plus_yearly:yearly' }));
    const transfer = (from: string[], to: string[]) => {
      const { event: base } = event('TRANSFER');
      return { api_version: '1.0', event: { id: base.id, type: 'TRANSFER', app_id: base.app_id, event_timestamp_ms: base.event_timestamp_ms, environment: 'PRODUCTION', store: 'PLAY_STORE', transferred_from: from, transferred_to: to } };
    };
    // Ids that are not ours move nothing (and are still acknowledged).
    expect((await post(transfer(['$RCAnonymousID:1'], [otherToken]))).json()).toMatchObject({ handled: false, outcome: 'no-change' });
    expect((await post(transfer([token], ['$RCAnonymousID:2']))).json()).toMatchObject({ handled: false, outcome: 'unknown-account' });
    expect(await otherEntitlement()).toMatchObject({ subscribed: false, subscription: null });

    expect((await post(transfer([token], [otherToken.toUpperCase()]))).json()).toMatchObject({ handled: true, outcome: 'applied' });
    expect(await otherEntitlement()).toMatchObject({ subscribed: true, subscription: { status: 'active', plan: 'yearly', provider: 'play_store' } });
    expect(await entitlement()).toMatchObject({ subscribed: false, subscription: { status: 'expired', provider: 'play_store' } });
    // The next events are the new account's (RevenueCat sends them under its app user id).
    await post(event('RENEWAL', { app_user_id: otherToken, original_app_user_id: otherToken, aliases: [otherToken] }));
    expect(await otherEntitlement()).toMatchObject({ subscribed: true, subscription: { plan: 'monthly' } });
    expect(await entitlement()).toMatchObject({ subscribed: false });
    // Back again, for the tests after this one.
    await post(transfer([otherToken], [token]));
    expect(await entitlement()).toMatchObject({ subscribed: true });
  });

  it('TRANSFER onto an account subscribed some other way keeps that subscription, and still ends the store’s on the account it left', async () => {
    const comped = await createSignedInUser(t, 'android-comped@example.com');
    const compedToken: string = (await t.app.inject({ method: 'GET', url: '/api/iap/app-account-token', headers: { cookie: comped.cookie } })).json().appAccountToken;
    const compedEnd = new Date(Date.now() + 60 * DAY);
    await syncSubscription({ db: t.database.db, userId: comped.userId, snapshot: { provider: 'comped', status: 'active', plan: 'comped', currentPeriodEnd: compedEnd, environment: 'comped' } });
    const compedEntitlement = async () => (await t.app.inject({ method: 'GET', url: '/api/subscription', headers: { cookie: comped.cookie } })).json();
    await post(event('RENEWAL'));
    expect(await entitlement()).toMatchObject({ subscribed: true, subscription: { provider: 'play_store' } });
    const { event: base } = event('TRANSFER');
    const moved = { api_version: '1.0', event: { id: base.id, type: 'TRANSFER', app_id: base.app_id, event_timestamp_ms: base.event_timestamp_ms, environment: 'PRODUCTION', store: 'PLAY_STORE', transferred_from: [token], transferred_to: [compedToken] } };
    expect((await post(moved)).json()).toMatchObject({ handled: true, outcome: 'applied' });
    // The receiving account keeps its own (comped) subscription, untouched; the store's is not written over it.
    expect(await compedEntitlement()).toMatchObject({ subscribed: true, subscription: { provider: 'comped', plan: 'comped', currentPeriodEnd: compedEnd.toISOString() } });
    // The account the purchases left no longer has them.
    expect(await entitlement()).toMatchObject({ subscribed: false, subscription: { status: 'expired', provider: 'play_store' } });
    // Back again, for the tests after this one (RevenueCat sends the next RENEWAL under the first account).
    await post(event('RENEWAL'));
    expect(await entitlement()).toMatchObject({ subscribed: true });
  });

  it('a late retry of an older event does not undo a newer state', async () => {
    const old = event('EXPIRATION', { event_timestamp_ms: clock - 60 * DAY, expiration_at_ms: clock - 30 * DAY });
    expect((await post(old)).json()).toMatchObject({ handled: false, outcome: 'stale' });
    expect(await entitlement()).toMatchObject({ subscribed: true });
  });

  it('EXPIRATION ends the entitlement', async () => {
    await post(event('EXPIRATION', { expiration_at_ms: clock, product_id: 'hm_plus_yearly:yearly' }));
    expect(await entitlement()).toMatchObject({ subscribed: false, subscription: { status: 'expired' } });
  });

  it('a refund (CANCELLATION by customer support) ends the entitlement at once', async () => {
    await post(event('INITIAL_PURCHASE'));
    expect(await entitlement()).toMatchObject({ subscribed: true });
    await post(event('CANCELLATION', { cancel_reason: 'CUSTOMER_SUPPORT', expiration_at_ms: clock }));
    expect(await entitlement()).toMatchObject({ subscribed: false, subscription: { status: 'canceled' } });
  });

  it('finds the account by an alias when app_user_id is another of its ids', async () => {
    const res = await post(event('INITIAL_PURCHASE', { app_user_id: '$RCAnonymousID:9f1c', original_app_user_id: '$RCAnonymousID:9f1c', aliases: ['$RCAnonymousID:9f1c', token.toUpperCase()] }));
    expect(res.json()).toMatchObject({ handled: true });
    expect(await entitlement()).toMatchObject({ subscribed: true });
  });

  it('acknowledges and records, without applying, events for no known account, another environment, another store or another entitlement', async () => {
    const before = await row();
    const cases: [Record<string, unknown>, string][] = [
      [{ app_user_id: randomUUID(), original_app_user_id: null, aliases: [] }, 'unknown-account'],
      [{ app_user_id: '$RCAnonymousID:77', original_app_user_id: null, aliases: null }, 'unknown-account'],
      [{ environment: 'SANDBOX' }, 'other-environment'],
      [{ store: 'AMAZON' }, 'other-store'],
      [{ entitlement_ids: ['gold'] }, 'unknown-product'],
      [{ product_id: 'hm_lifetime' }, 'unknown-product'],
    ];
    for (const [overrides, outcome] of cases) {
      const sent = event('EXPIRATION', overrides);
      const res = await post(sent);
      expect(res.statusCode, outcome).toBe(200);
      expect(res.json(), outcome).toMatchObject({ received: true, handled: false, outcome });
      expect((await t.database.db.select().from(revenueCatEvents).where(eq(revenueCatEvents.id, sent.event.id))).at(0)?.outcome).toBe(outcome);
    }
    expect((await row())?.updatedAt).toEqual(before?.updatedAt);
    expect(await entitlement()).toMatchObject({ subscribed: true });
  });

  it('a Google Play subscription is changed in the Play Store, not from the web, and deleting the account warns that it keeps running', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/cancel', headers: { cookie, origin: t.config.publicUrl }, payload: { cancel: true } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain('Google Play');
    const deletion = await t.app.inject({ method: 'GET', url: '/api/account/deletion', headers: { cookie } });
    expect(deletion.json()).toMatchObject({ subscription: 'play_store' });
  });
});

describe('RevenueCat webhook without RevenueCat configured', () => {
  it('is not there (404), whatever is sent', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/revenuecat/webhook', headers: { authorization: 'anything' }, payload: { event: { id: 'x', type: 'TEST', environment: 'PRODUCTION' } } });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
