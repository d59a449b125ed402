/**
 * App Store billing through HTTP: StoreKit 2 transactions and Server Notifications v2 signed by a
 * test chain, checked by Apple's real SignedDataVerifier; which account a purchase belongs to
 * (appAccountToken and the app_store_transactions binding); forged notifications in the security log.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { appStoreTransactions, subscribers } from '#server/db/schema/billing.ts';
import { appStoreTransaction } from '#server/features/billing/app-store-transaction.fixture.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { createAppleTestChain, signNotification, type AppleTestChain } from '#tests/fakes/apple-signing.ts';
import { createSignedInUser, origin, signIn } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const BUNDLE_ID = 'app.harbourmind.ios';
const DAY = 24 * 60 * 60 * 1000;
/** How the iOS app signs in: it asks for a bearer session instead of a cookie. */
const NATIVE_APP = { [SESSION_TRANSPORT_HEADER]: 'bearer' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(testDatabaseKinds())('App Store billing (SignedDataVerifier over a test certificate chain) on %s', (kind) => {
  let chain: AppleTestChain;
  let t: TestApp;
  let cookie: string;
  let userId: string;
  /** The signed-in user's appAccountToken: what the app puts into every purchase. */
  let token: string;
  let baseUrl: string;

  beforeAll(async () => {
    chain = createAppleTestChain();
    t = await createTestApp({
      kind,
      env: { APPLE_IAP_BUNDLE_ID: BUNDLE_ID, APPLE_IAP_ENVIRONMENT: 'Sandbox', APPLE_ROOT_CA_FILES: chain.rootPath },
    });
    ({ cookie, userId } = await createSignedInUser(t, 'ios@example.com'));
    token = (await t.app.inject({ method: 'GET', url: '/api/iap/app-account-token', headers: { cookie } })).json().appAccountToken;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    chain.cleanup();
  });

  /** A StoreKit 2 transaction as Apple signs it, bought with the signed-in user's appAccountToken unless overridden. */
  const transaction = (overrides: Record<string, unknown> = {}) => {
    const now = Date.now();
    const originalTransactionId = (overrides.originalTransactionId as string | undefined) ?? `2000000${Math.floor(Math.random() * 1e9)}`;
    return appStoreTransaction(now, {
      appAccountToken: token,
      transactionId: originalTransactionId,
      originalTransactionId,
      bundleId: BUNDLE_ID,
      productId: 'hm_plus_monthly',
      purchaseDate: now - DAY,
      originalPurchaseDate: now - DAY,
      expiresDate: now + 29 * DAY,
      price: 7990,
      ...overrides,
    });
  };
  /** Cookie sessions send the page's Origin (as a browser does); bearer sessions (the iOS app) send none. */
  const validate = (payload: object, headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'POST', url: '/api/iap/validate-receipt', headers: headers.cookie ? { ...origin(t), ...headers } : headers, payload });
  const subscription = async (headers: Record<string, string> = { cookie }) => (await t.app.inject({ method: 'GET', url: '/api/subscription', headers })).json();
  const notify = (type: string, tx: object, renewal?: object, subtype?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/iap/notifications',
      payload: { signedPayload: signNotification(chain, { type, subtype, bundleId: BUNDLE_ID, transaction: tx, renewal }) },
    });

  it('refuses without a session', async () => {
    const res = await validate({ productId: 'hm_plus_monthly', signedTransaction: chain.signJws(transaction()) }, {});
    expect(res.statusCode).toBe(401);
  });

  it('lists the available products for an unknown product id', async () => {
    const res = await validate({ productId: 'hm_lifetime', signedTransaction: chain.signJws(transaction()) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(BILLING_MESSAGES.invalidProduct(['hm_plus_monthly', 'hm_plus_yearly']));
    expect(res.json().error.message).toBe('Invalid product ID. Available products: hm_plus_monthly, hm_plus_yearly');
  });

  it('asks for the receipt when none is sent', async () => {
    const res = await validate({ productId: 'hm_plus_monthly' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('No receipt data available from iOS transaction');
    expect((await subscription()).subscribed).toBe(false);
  });

  it.each([
    ['an expired transaction', () => chain.signJws(transaction({ expiresDate: Date.now() - DAY, purchaseDate: Date.now() - 31 * DAY }))],
    ['another app’s transaction', () => chain.signJws(transaction({ bundleId: 'com.example.other' }))],
    ['a production transaction sent to the sandbox server', () => chain.signJws(transaction({ environment: 'Production' }))],
    ['a transaction with a tampered payload', () => {
      const [h, , s] = chain.signJws(transaction()).split('.');
      return `${h}.${Buffer.from(JSON.stringify(transaction({ expiresDate: Date.now() + 3650 * DAY }))).toString('base64url')}.${s}`;
    }],
    ['a transaction signed by a chain Apple did not issue', () => {
      const stranger = createAppleTestChain();
      try {
        return stranger.signJws(transaction());
      } finally {
        stranger.cleanup();
      }
    }],
    ['something that is not a JWS', () => 'MIIT-old-style-base64-receipt'],
  ])('does not subscribe on %s', async (_label, make) => {
    const res = await validate({ productId: 'hm_plus_monthly', signedTransaction: make() });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.json().error.message).toMatch(/^(Failed to validate receipt: |Subscription not activated)/);
    expect((await subscription()).subscribed).toBe(false);
  });

  it('refuses a transaction for a different product than the one named', async () => {
    const res = await validate({ productId: 'hm_plus_yearly', signedTransaction: chain.signJws(transaction({ productId: 'hm_plus_monthly' })) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/^Failed to validate receipt: /);
    expect((await subscription()).subscribed).toBe(false);
  });

  it('refuses a signed transaction for a product we do not sell', async () => {
    const res = await validate({ productId: 'hm_plus_monthly', signedTransaction: chain.signJws(transaction({ productId: 'hm_gems_100' })) });
    expect(res.statusCode).toBe(400);
    expect((await subscription()).subscribed).toBe(false);
  });

  describe('a valid purchase, then Apple’s notifications', () => {
    const originalTransactionId = '2000000900000001';
    let bearer: string;

    it('subscribes the user from the app with a bearer session, and the web sees it', async () => {
      const signInRes = await signIn(t, 'ios@example.com', 'calm-waters-1', NATIVE_APP);
      bearer = String(signInRes.headers['set-auth-token']);
      expect(bearer.length).toBeGreaterThan(10);
      const res = await validate(
        { productId: 'hm_plus_yearly', receiptData: chain.signJws(transaction({ originalTransactionId, productId: 'hm_plus_yearly', expiresDate: Date.now() + 300 * DAY })) },
        { authorization: `Bearer ${bearer}` },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ subscribed: true, entitlement: 'premium' });
      expect(await subscription()).toMatchObject({ subscribed: true, subscription: { provider: 'app_store', plan: 'yearly', status: 'active', cancelAtPeriodEnd: false } });
    });

    it('keeps one row when the app sends the same purchase again (restore)', async () => {
      const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly', expiresDate: Date.now() + 300 * DAY });
      expect((await validate({ productId: 'hm_plus_yearly', signedTransaction: chain.signJws(tx) })).statusCode).toBe(200);
      const rows = await t.database.db.select().from(subscribers).where(eq(subscribers.providerSubscriptionId, originalTransactionId));
      expect(rows).toHaveLength(1);
    });

    it('will not link the same purchase to a second account', async () => {
      const other = await createSignedInUser(t, 'ios-other@example.com');
      const otherToken = (await t.app.inject({ method: 'GET', url: '/api/iap/app-account-token', headers: { cookie: other.cookie } })).json().appAccountToken;
      // Restoring the first account's purchase: Apple signs it with the first account's token.
      const restored = await validate({ productId: 'hm_plus_yearly', signedTransaction: chain.signJws(transaction({ originalTransactionId, productId: 'hm_plus_yearly' })) }, { cookie: other.cookie });
      expect(restored.statusCode).toBe(403);
      expect(restored.json().error.message).toBe(BILLING_MESSAGES.validateFailed('the transaction belongs to another account'));
      // Even a transaction carrying the second account's token cannot take over a bound purchase.
      const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly', appAccountToken: otherToken });
      const res = await validate({ productId: 'hm_plus_yearly', signedTransaction: chain.signJws(tx) }, { cookie: other.cookie });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(BILLING_MESSAGES.validateFailed('this purchase is already linked to another account'));
      expect((await subscription({ cookie: other.cookie })).subscribed).toBe(false);
      const [binding] = await t.database.db.select().from(appStoreTransactions).where(eq(appStoreTransactions.originalTransactionId, originalTransactionId));
      expect(binding).toMatchObject({ userId, appAccountToken: token });
    });

    it('rejects a notification that is not signed by the chain, and records it as a critical security event', async () => {
      const forgedEvents = () => t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'webhook_forged'));
      const before = (await forgedEvents()).length;
      const res = await t.app.inject({ method: 'POST', url: '/api/iap/notifications', payload: { signedPayload: 'a.b.c' }, remoteAddress: '203.0.113.70' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('Invalid notification signature');

      // A well-formed notification signed by someone else's chain, over a real socket.
      const stranger = createAppleTestChain();
      let signedPayload: string;
      try {
        const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly', expiresDate: Date.now() + 3650 * DAY });
        signedPayload = signNotification(stranger, { type: 'DID_RENEW', bundleId: BUNDLE_ID, transaction: tx });
      } finally {
        stranger.cleanup();
      }
      const forged = await fetch(`${baseUrl}/api/iap/notifications`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ signedPayload }) });
      expect(forged.status).toBe(400);
      expect(((await forged.json()) as { error: { message: string } }).error.message).toBe('Invalid notification signature');

      const events = (await forgedEvents()).slice(before);
      expect(events).toHaveLength(2);
      expect(events.map((e) => e.ipAddress)).toContain('203.0.113.70');
      expect(events.map((e) => e.ipAddress)).toContain('127.0.0.1');
      for (const e of events) {
        expect(e.severity).toBe('critical');
        expect(e.details).toMatchObject({ provider: 'app_store', route: '/api/iap/notifications' });
        expect(JSON.stringify(e.details)).not.toContain(signedPayload.slice(0, 40));
      }
    });

    it('answers 400 to a genuine notification meant for the production server, without calling it forged', async () => {
      const forgedEvents = () => t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'webhook_forged'));
      const before = (await forgedEvents()).length;
      const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly', environment: 'Production' });
      const res = await t.app.inject({ method: 'POST', url: '/api/iap/notifications', payload: { signedPayload: signNotification(chain, { type: 'DID_RENEW', bundleId: BUNDLE_ID, environment: 'Production', transaction: tx }) } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('Invalid notification signature');
      expect(await forgedEvents()).toHaveLength(before);
    });

    it('turning auto-renew off marks the subscription as cancelling at period end', async () => {
      const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly', expiresDate: Date.now() + 300 * DAY });
      const res = await notify('DID_CHANGE_RENEWAL_STATUS', tx, { originalTransactionId, autoRenewStatus: 0, productId: 'hm_plus_yearly', autoRenewProductId: 'hm_plus_yearly' }, 'AUTO_RENEW_DISABLED');
      expect(res.json()).toMatchObject({ handled: true });
      expect(await subscription()).toMatchObject({ subscribed: true, subscription: { cancelAtPeriodEnd: true } });
    });

    it('a renewal moves the period end forward and clears the cancellation', async () => {
      const end = Date.now() + 400 * DAY;
      const tx = transaction({ originalTransactionId, transactionId: '2000000900000002', productId: 'hm_plus_yearly', expiresDate: end });
      await notify('DID_RENEW', tx, { originalTransactionId, autoRenewStatus: 1, productId: 'hm_plus_yearly', autoRenewProductId: 'hm_plus_yearly' });
      const sub = (await subscription()).subscription;
      expect(sub.cancelAtPeriodEnd).toBe(false);
      expect(new Date(sub.currentPeriodEnd).getTime()).toBe(end);
    });

    it('an expiry ends access', async () => {
      const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly', purchaseDate: Date.now() - 366 * DAY, expiresDate: Date.now() - DAY });
      await notify('EXPIRED', tx, { originalTransactionId, autoRenewStatus: 0, productId: 'hm_plus_yearly' }, 'VOLUNTARY');
      expect((await subscription()).subscribed).toBe(false);
    });

    it('a refund revokes access even inside the period', async () => {
      // Re-subscribe first, then refund.
      await validate({ productId: 'hm_plus_yearly', signedTransaction: chain.signJws(transaction({ originalTransactionId, productId: 'hm_plus_yearly', expiresDate: Date.now() + 300 * DAY })) });
      expect((await subscription()).subscribed).toBe(true);
      const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly', expiresDate: Date.now() + 300 * DAY, revocationDate: Date.now(), revocationReason: 0 });
      await notify('REFUND', tx);
      expect((await subscription()).subscribed).toBe(false);
    });

    it('ignores notifications for purchases it does not know', async () => {
      const res = await notify('DID_RENEW', transaction({ originalTransactionId: '2000000999999999', appAccountToken: randomUUID() }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ handled: false });
      const untokened = await notify('DID_RENEW', transaction({ originalTransactionId: '2000000999999998', appAccountToken: undefined }));
      expect(untokened.json()).toMatchObject({ handled: false });
    });

    it('still finds the owner after another provider rewrote the subscription row', async () => {
      // A later sandbox (or Stripe) sync replaces the provider ids on the user's one subscriptions row.
      await syncSubscription({
        db: t.database.db,
        userId,
        snapshot: { provider: 'sandbox', status: 'canceled', plan: 'monthly', providerCustomerId: `cus_sandbox_${userId}`, providerSubscriptionId: 'sub_sandbox_overwritten', currentPeriodEnd: new Date(Date.now() - DAY) },
      });
      expect((await subscription()).subscribed).toBe(false);
      const end = Date.now() + 365 * DAY;
      const tx = transaction({ originalTransactionId, transactionId: '2000000900000003', productId: 'hm_plus_yearly', expiresDate: end });
      const res = await notify('DID_RENEW', tx, { originalTransactionId, autoRenewStatus: 1, productId: 'hm_plus_yearly', autoRenewProductId: 'hm_plus_yearly' });
      expect(res.json()).toMatchObject({ handled: true });
      const state = await subscription();
      expect(state).toMatchObject({ subscribed: true, subscription: { provider: 'app_store', plan: 'yearly' } });
      expect(new Date(state.subscription.currentPeriodEnd).getTime()).toBe(end);
    });
  });

  describe('which account a purchase belongs to (appAccountToken)', () => {
    /** Real HTTP on a listening socket, as the iOS app and an attacker's client both reach it. */
    const http = async (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: object) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, headers: res.headers, json: (await res.json()) as { appAccountToken: string; subscribed: boolean; entitlement: string; error: { message: string } } };
    };
    const tokenOf = async (headers: Record<string, string>) => (await http('GET', '/api/iap/app-account-token', headers)).json.appAccountToken;
    /** The signed-in web page of `person` sends Apple's signed transaction `tx` for the monthly plan. */
    const validateAs = (person: { cookie: string }, tx: object) => http('POST', '/api/iap/validate-receipt', { cookie: person.cookie, origin: t.config.publicUrl }, { productId: 'hm_plus_monthly', signedTransaction: chain.signJws(tx) });
    let alice: { cookie: string; userId: string };
    let bob: { cookie: string; userId: string };
    let aliceToken: string;

    beforeAll(async () => {
      alice = await createSignedInUser(t, 'alice-ios@example.com');
      bob = await createSignedInUser(t, 'bob-ios@example.com');
      aliceToken = await tokenOf({ cookie: alice.cookie });
    });

    it('gives each signed-in account its own UUID, with a cookie or a bearer session, never to anonymous visitors', async () => {
      const anonymous = await http('GET', '/api/iap/app-account-token', {});
      expect(anonymous.status).toBe(401);
      const res = await http('GET', '/api/iap/app-account-token', { cookie: alice.cookie });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.json.appAccountToken).toMatch(UUID);
      expect(await tokenOf({ cookie: alice.cookie })).toBe(res.json.appAccountToken);
      expect(await tokenOf({ cookie: bob.cookie })).not.toBe(res.json.appAccountToken);
      const bearer = String((await signIn(t, 'alice-ios@example.com', 'calm-waters-1', NATIVE_APP)).headers['set-auth-token']);
      expect(await tokenOf({ authorization: `Bearer ${bearer}` })).toBe(res.json.appAccountToken);
    });

    // The token is read when the test runs: Alice's is only known after beforeAll.
    it.each([
      ['account A’s transaction when account B sends it', () => aliceToken, 403, 'the transaction belongs to another account'],
      ['a transaction that carries no appAccountToken', () => undefined, 400, 'the purchase is not linked to an account; please update the app and restore purchases'],
    ])('refuses %s, and binds nothing', async (_name, token, status, reason) => {
      const tx = transaction({ appAccountToken: token() });
      const res = await validateAs(bob, tx);
      expect(res.status).toBe(status);
      expect(res.json.error.message).toBe(BILLING_MESSAGES.validateFailed(reason));
      expect((await subscription({ cookie: bob.cookie })).subscribed).toBe(false);
      expect(await t.database.db.select().from(appStoreTransactions).where(eq(appStoreTransactions.originalTransactionId, tx.originalTransactionId))).toEqual([]);
    });

    it('accepts the owner’s own token, in either case, and binds the purchase to the owner', async () => {
      const tx = transaction({ appAccountToken: aliceToken.toUpperCase() });
      const res = await validateAs(alice, tx);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ subscribed: true, entitlement: 'premium' });
      const bindings = await t.database.db.select().from(appStoreTransactions).where(and(eq(appStoreTransactions.originalTransactionId, tx.originalTransactionId), eq(appStoreTransactions.userId, alice.userId)));
      expect(bindings).toHaveLength(1);
      expect(bindings[0].appAccountToken).toBe(aliceToken);
    });

    it('binds a purchase the app never validated from Apple’s notification, by its signed token', async () => {
      const bobToken = await tokenOf({ cookie: bob.cookie });
      const tx = transaction({ appAccountToken: bobToken.toUpperCase() });
      const res = await notify('SUBSCRIBED', tx, undefined, 'INITIAL_BUY');
      expect(res.json()).toMatchObject({ handled: true });
      expect(await subscription({ cookie: bob.cookie })).toMatchObject({ subscribed: true, subscription: { provider: 'app_store' } });
      const [binding] = await t.database.db.select().from(appStoreTransactions).where(eq(appStoreTransactions.originalTransactionId, tx.originalTransactionId));
      expect(binding.userId).toBe(bob.userId);
    });
  });
});
