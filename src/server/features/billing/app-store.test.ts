import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { createAppleTestChain, type AppleTestChain } from '#tests/fakes/apple-signing.ts';
import { createSignedInUser, signIn } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const BUNDLE_ID = 'app.harbourmind.ios';
const DAY = 24 * 60 * 60 * 1000;

describe('App Store billing (SignedDataVerifier over a test certificate chain)', () => {
  let chain: AppleTestChain;
  let t: TestApp;
  let cookie: string;

  beforeAll(async () => {
    chain = createAppleTestChain();
    t = await createTestApp({
      env: { APPLE_IAP_BUNDLE_ID: BUNDLE_ID, APPLE_IAP_ENVIRONMENT: 'Sandbox', APPLE_ROOT_CA_FILES: chain.rootPath },
    });
    ({ cookie } = await createSignedInUser(t, 'ios@example.com'));
  });
  afterAll(async () => {
    await t.close();
    chain.cleanup();
  });

  /** A StoreKit 2 transaction as Apple signs it. */
  const transaction = (overrides: Record<string, unknown> = {}) => {
    const now = Date.now();
    const originalTransactionId = String(overrides.originalTransactionId ?? `2000000${Math.floor(Math.random() * 1e9)}`);
    return {
      transactionId: originalTransactionId,
      originalTransactionId,
      bundleId: BUNDLE_ID,
      productId: 'hm_plus_monthly',
      purchaseDate: now - DAY,
      originalPurchaseDate: now - DAY,
      expiresDate: now + 29 * DAY,
      quantity: 1,
      type: 'Auto-Renewable Subscription',
      inAppOwnershipType: 'PURCHASED',
      signedDate: now,
      environment: 'Sandbox',
      transactionReason: 'PURCHASE',
      storefront: 'GBR',
      currency: 'GBP',
      price: 7990,
      ...overrides,
    };
  };
  const validate = (payload: object, headers: Record<string, string> = { cookie }) =>
    t.app.inject({ method: 'POST', url: '/api/iap/validate-receipt', headers, payload });
  const subscription = async (headers: Record<string, string> = { cookie }) => (await t.app.inject({ method: 'GET', url: '/api/subscription', headers })).json();
  const notify = (type: string, tx: object, renewal?: object, subtype?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/iap/notifications',
      payload: {
        signedPayload: chain.signJws({
          notificationType: type,
          subtype,
          notificationUUID: randomUUID(),
          version: '2.0',
          signedDate: Date.now(),
          data: {
            bundleId: BUNDLE_ID,
            environment: 'Sandbox',
            signedTransactionInfo: chain.signJws(tx),
            signedRenewalInfo: renewal ? chain.signJws({ signedDate: Date.now(), environment: 'Sandbox', ...renewal }) : undefined,
          },
        }),
      },
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
      const signInRes = await signIn(t, 'ios@example.com', 'calm-waters-1');
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
      const tx = transaction({ originalTransactionId, productId: 'hm_plus_yearly' });
      const res = await validate({ productId: 'hm_plus_yearly', signedTransaction: chain.signJws(tx) }, { cookie: other.cookie });
      expect(res.statusCode).toBe(409);
      expect((await subscription({ cookie: other.cookie })).subscribed).toBe(false);
    });

    it('rejects a notification that is not signed by the chain', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/iap/notifications', payload: { signedPayload: 'a.b.c' } });
      expect(res.statusCode).toBe(400);
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
      const res = await notify('DID_RENEW', transaction({ originalTransactionId: '2000000999999999' }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ handled: false });
    });
  });
});
