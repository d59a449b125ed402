/**
 * The apps' purchases (issue 19, item 4) against a local fake of RevenueCat's plugin (its method
 * names and shapes: tests/fakes/revenuecat.ts) and of the app's StoreKit bridge, and the real server:
 * iOS receipts are StoreKit 2 transactions signed by the Apple test chain and checked by
 * /api/iap/validate-receipt with Apple's library, as a device's would be.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { MOCK_PRODUCTS, PURCHASE_MESSAGES } from '#shared/purchases.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { appStoreTransaction } from '#server/features/billing/app-store-transaction.fixture.ts';
import { createNativePurchases, type PurchasesServer, type StoreKitLike } from '#web/platform/store-purchases.ts';
import { createAppleTestChain, type AppleTestChain } from '#tests/fakes/apple-signing.ts';
import { customerInfo, fakeRevenueCat, purchasesError, storePackage } from '#tests/fakes/revenuecat.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const BUNDLE_ID = 'app.harbourmind';
const DAY = 24 * 60 * 60 * 1000;
const noWait = () => Promise.resolve();

describe('purchases inside the apps', () => {
  let chain: AppleTestChain;
  let t: TestApp;

  beforeAll(async () => {
    chain = createAppleTestChain();
    t = await createTestApp({ env: { APPLE_IAP_BUNDLE_ID: BUNDLE_ID, APPLE_IAP_ENVIRONMENT: 'Sandbox', APPLE_ROOT_CA_FILES: chain.rootPath } });
  });
  afterAll(async () => {
    await t.close();
    chain.cleanup();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** A signed-in account, and the server as the app reaches it (here through inject, with the session). */
  async function account(email: string) {
    const { cookie, userId } = await createSignedInUser(t, email);
    const server: PurchasesServer = {
      async appAccountToken() {
        const res = await t.app.inject({ method: 'GET', url: '/api/iap/app-account-token', headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(res.json().error.message);
        return res.json().appAccountToken;
      },
      async validateReceipt(body) {
        const res = await t.app.inject({ method: 'POST', url: '/api/iap/validate-receipt', headers: { cookie, ...origin(t) }, payload: body });
        if (res.statusCode !== 200) throw new Error(res.json().error.message);
        return res.json();
      },
    };
    const token = await server.appAccountToken();
    const row = async () => (await t.database.db.select().from(subscribers).where(eq(subscribers.userId, userId))).at(0);
    return { server, token, row };
  }

  /**
   * The app's StoreKit bridge (HarbourStoreKit.swift) on a device that just bought `productId` as
   * transaction 2000000123456789 (the id RevenueCat's fake reports): found by that id, or as the
   * product's latest when no id is given. `newer`: a later transaction of the same product on the
   * device (a renewal, or a purchase by another account of the same Apple ID), which is the latest.
   */
  function storeKit(sign: (productId: string) => string | null, newer?: { id: string; sign: (productId: string) => string | null }) {
    const finished: string[] = [];
    const asked: { productId: string; transactionId?: string }[] = [];
    const bridge: StoreKitLike = {
      signedTransaction: (options) => {
        asked.push(options);
        const byId = options.transactionId === undefined ? (newer ? newer.id : '2000000123456789') : options.transactionId;
        if (byId === newer?.id) return Promise.resolve({ signedTransaction: newer.sign(options.productId), transactionId: newer.id });
        if (byId === '2000000123456789') return Promise.resolve({ signedTransaction: sign(options.productId), transactionId: byId });
        return Promise.resolve({ signedTransaction: null, transactionId: null });
      },
      finishTransaction: ({ transactionId }) => Promise.resolve(void finished.push(transactionId)),
    };
    return { bridge, finished, asked };
  }

  const appleTransaction = (token: string, productId: string, overrides: Record<string, unknown> = {}) => {
    const now = Date.now();
    return appStoreTransaction(now, {
      appAccountToken: token,
      transactionId: '2000000123456789',
      originalTransactionId: `2000000${Math.floor(Math.random() * 1e9)}`,
      bundleId: BUNDLE_ID,
      productId,
      purchaseDate: now,
      originalPurchaseDate: now,
      expiresDate: now + 7 * DAY,
      offerType: 1,
      price: 39990,
      ...overrides,
    });
  };

  it('waits 1 s for the store to refresh its products before listing them, then lists ours at the store’s prices', async () => {
    vi.useFakeTimers();
    const rc = fakeRevenueCat([storePackage('hm_plus_monthly', 7.99, 'MONTHLY'), storePackage('hm_plus_yearly', 39.99, 'ANNUAL'), storePackage('hm_tip_jar', 1.99, 'MONTHLY')]);
    const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.reject(new Error('unused')), server: { appAccountToken: () => Promise.reject(new Error('unused')), validateReceipt: () => Promise.reject(new Error('unused')) }, sandbox: false });
    const listed = purchases.products();
    await vi.advanceTimersByTimeAsync(999);
    expect(rc.methods()).toEqual(['configure']);
    await vi.advanceTimersByTimeAsync(1);
    expect(rc.methods()).toEqual(['configure', 'getOfferings']);
    expect(await listed).toEqual([
      { id: 'hm_plus_monthly', plan: 'monthly', title: 'Harbour Mind Plus (Monthly)', description: 'Every meditation, every month', price: '£7.99', currency: 'GBP', priceAmount: 7.99 },
      { id: 'hm_plus_yearly', plan: 'yearly', title: 'Harbour Mind Plus (Yearly)', description: 'Every meditation, all year', price: '£39.99', currency: 'GBP', priceAmount: 39.99 },
    ]);
    // Signed out: RevenueCat starts anonymous, and without the app completing purchases only on iOS.
    expect(rc.calls[0].options).toEqual({ apiKey: 'appl_test', appUserID: null, purchasesAreCompletedBy: { type: 'MY_APP', storeKitVersion: 'STOREKIT_2' } });
  });

  it('buys on iOS: waits 1 s, needs premium, syncs Apple’s signed transaction to the server, then finishes it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const { server, token, row } = await account('buyer@example.com');
    const rc = fakeRevenueCat();
    const kit = storeKit((productId) => chain.signJws(appleTransaction(token, productId)));
    const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.resolve(kit.bridge), server, sandbox: false });
    const bought = purchases.purchase('yearly');
    // The token comes from the server first (real I/O; vi.waitFor would move the fake clock itself).
    while (!rc.methods().includes('configure')) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(rc.methods()).toEqual(['configure']);
    await vi.advanceTimersByTimeAsync(1);
    expect(rc.methods()).toEqual(['configure', 'getOfferings', 'purchasePackage']);
    vi.useRealTimers();
    await bought;
    expect(rc.calls.find((c) => c.method === 'configure')?.options).toMatchObject({ apiKey: 'appl_test', appUserID: token });
    expect(rc.calls.find((c) => c.method === 'purchasePackage')?.options).toBe('hm_plus_yearly');
    expect(await row()).toMatchObject({ provider: 'app_store', status: 'active', plan: 'yearly', providerCustomerId: token });
    expect(kit.finished).toEqual(['2000000123456789']);
    expect(kit.asked).toEqual([{ productId: 'hm_plus_yearly', transactionId: '2000000123456789' }]);
  });

  it('syncs the transaction RevenueCat reported, not the product’s latest on the device (issue 35, item 2)', async () => {
    const { server, token, row } = await account('renewed-device@example.com');
    const rc = fakeRevenueCat();
    // The device also holds a later transaction of the same product, signed for another account.
    const kit = storeKit((productId) => chain.signJws(appleTransaction(token, productId)), {
      id: '2000000999999999',
      sign: (productId) => chain.signJws(appleTransaction('11111111-2222-4333-8444-555555555555', productId, { transactionId: '2000000999999999' })),
    });
    const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.resolve(kit.bridge), server, sandbox: false, wait: noWait });
    await purchases.purchase('monthly');
    expect(await row()).toMatchObject({ provider: 'app_store', status: 'active', plan: 'monthly', providerCustomerId: token });
    expect(kit.finished).toEqual(['2000000123456789']);
  });

  it('maps RevenueCat’s error codes to the spec’s words, and finishes nothing when nothing was bought', async () => {
    const { server } = await account('errors@example.com');
    const cases: [ReturnType<typeof purchasesError>, string][] = [
      // The spec's five user-facing messages, for their causes (issue 35, item 2).
      [purchasesError('1', 'PURCHASE_CANCELLED', 'Purchase was cancelled.'), 'Purchase was cancelled. You can try again anytime.'],
      [purchasesError('3', 'PURCHASE_NOT_ALLOWED', 'not allowed'), 'Purchases are not allowed on this device. Please check your device settings.'],
      [purchasesError('10', 'NETWORK_ERROR', 'The Internet connection appears to be offline.'), 'Network error. Please check your internet connection and try again.'],
      [purchasesError('35', 'OFFLINE_CONNECTION_ERROR', 'offline'), 'Network error. Please check your internet connection and try again.'],
      [purchasesError('5', 'PRODUCT_NOT_AVAILABLE_FOR_PURCHASE', 'unavailable'), 'This subscription is not available. Please try again later.'],
      [purchasesError('2', 'STORE_PROBLEM', 'There was a problem with the App Store.'), 'Unable to process subscription. Please try again or contact support if the issue persists.'],
      [purchasesError('0', 'UNKNOWN', 'Unknown error.'), 'Unable to process subscription. Please try again or contact support if the issue persists.'],
      [purchasesError('23', 'CONFIGURATION_ERROR', 'There is an issue with your configuration.'), 'Unable to process subscription. Please try again or contact support if the issue persists.'],
      [purchasesError('4', 'PURCHASE_INVALID', 'invalid'), 'Payment method is invalid. Please check your payment settings in the App Store.'],
      // RevenueCat's codes the spec does not word, in clear words.
      [purchasesError('6', 'PRODUCT_ALREADY_PURCHASED', 'This product is already active for the user.'), 'You already have this subscription. Tap Restore Purchases to use it on this account.'],
      [purchasesError('7', 'RECEIPT_ALREADY_IN_USE', 'The receipt is already in use by another subscriber.'), 'This purchase belongs to another Harbour Mind account. Sign in with the account you subscribed with, or contact support to move it.'],
      [purchasesError('20', 'PAYMENT_PENDING', 'The payment is pending.'), 'Your purchase is waiting for approval (for example, Ask to Buy). Premium starts as soon as it is approved.'],
    ];
    for (const [error, message] of cases) {
      const rc = fakeRevenueCat();
      rc.state.purchase = () => Promise.reject(error);
      const kit = storeKit(() => 'unused');
      const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.resolve(kit.bridge), server, sandbox: false, wait: noWait });
      const failure = await purchases.purchase('monthly').catch((e: unknown) => e);
      // Cancelling and waiting for approval are not failures: said calmly.
      expect(failure, error.code).toMatchObject({ message, cancelled: error.code === '1' || error.code === '20' });
      expect(kit.finished, error.code).toEqual([]);
    }
  });

  it('a purchase without the premium entitlement is not a subscription, and its transaction is still finished', async () => {
    const { server, row } = await account('no-premium@example.com');
    const rc = fakeRevenueCat();
    rc.state.purchase = (pkg) => Promise.resolve({ productIdentifier: pkg.product.identifier, customerInfo: customerInfo('x'), transaction: { transactionIdentifier: '2000000999', productIdentifier: pkg.product.identifier, purchaseDate: new Date().toISOString(), purchaseToken: null, originalJson: null, signature: null } });
    const kit = storeKit(() => 'unused');
    const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.resolve(kit.bridge), server, sandbox: false, wait: noWait });
    await expect(purchases.purchase('monthly')).rejects.toThrow(PURCHASE_MESSAGES.notActivated);
    expect(kit.finished).toEqual(['2000000999']);
    expect(await row()).toBeUndefined();
  });

  it('finishes the transaction when the server refuses it, and says why', async () => {
    const { server, row } = await account('refused@example.com');
    const stranger = createAppleTestChain();
    try {
      for (const [sign, message] of [
        [() => null, BILLING_MESSAGES.noReceipt],
        [(productId: string) => stranger.signJws(appleTransaction('11111111-2222-4333-8444-555555555555', productId)), 'Failed to validate receipt: verification status'],
        [(productId: string) => chain.signJws(appleTransaction('11111111-2222-4333-8444-555555555555', productId)), 'Failed to validate receipt: the transaction belongs to another account'],
      ] as const) {
        const rc = fakeRevenueCat();
        const kit = storeKit(sign);
        const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.resolve(kit.bridge), server, sandbox: false, wait: noWait });
        const failure = (await purchases.purchase('yearly').catch((e: unknown) => e)) as Error;
        expect(failure.message).toContain(message);
        expect(kit.finished).toEqual(['2000000123456789']);
      }
    } finally {
      stranger.cleanup();
    }
    expect(await row()).toBeUndefined();
  });

  it('restores: RevenueCat’s restore, the active purchase synced to the server; a failure says so', async () => {
    const { server, token, row } = await account('restorer@example.com');
    const rc = fakeRevenueCat();
    const kit = storeKit((productId) => chain.signJws(appleTransaction(token, productId, { price: 39990 })));
    const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.resolve(kit.bridge), server, sandbox: false, wait: noWait });
    expect(await purchases.restore()).toEqual({ active: true });
    expect(rc.methods()).toEqual(['configure', 'restorePurchases']);
    expect(await row()).toMatchObject({ provider: 'app_store', plan: 'yearly', status: 'active' });

    rc.state.restore = () => Promise.reject(purchasesError('10', 'NETWORK_ERROR', 'offline'));
    await expect(purchases.restore()).rejects.toThrow(PURCHASE_MESSAGES.network);
    // The store account's purchase belongs to another app account: said so, not 'Failed to restore purchases'.
    rc.state.restore = () => Promise.reject(purchasesError('7', 'RECEIPT_ALREADY_IN_USE', 'The receipt is already in use by another subscriber.'));
    await expect(purchases.restore()).rejects.toThrow(PURCHASE_MESSAGES.otherAccount);
    rc.state.restore = () => Promise.reject(purchasesError('2', 'STORE_PROBLEM', 'There was a problem with the App Store.'));
    await expect(purchases.restore()).rejects.toThrow(PURCHASE_MESSAGES.restoreFailed);
    rc.state.restore = () => Promise.resolve({ customerInfo: customerInfo(token) });
    expect(await purchases.restore()).toEqual({ active: false });
  });

  it('Android: Google Play through the same client, no StoreKit, the account’s token as appUserID; signed out it says so', async () => {
    const { server, token } = await account('android-buyer@example.com');
    const rc = fakeRevenueCat([storePackage('hm_plus_monthly:monthly', 7.99, 'MONTHLY'), storePackage('hm_plus_yearly:yearly', 39.99, 'ANNUAL')]);
    const loadStoreKit = vi.fn(() => Promise.reject(new Error('no StoreKit on Android')));
    const purchases = createNativePurchases({ kind: 'android', apiKey: 'goog_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit, server, sandbox: false, wait: noWait });
    await purchases.purchase('monthly');
    expect(rc.calls[0].options).toEqual({ apiKey: 'goog_test', appUserID: token });
    expect(rc.calls.find((c) => c.method === 'purchasePackage')?.options).toBe('hm_plus_monthly:monthly');
    expect(loadStoreKit).not.toHaveBeenCalled();

    const signedOut = createNativePurchases({ kind: 'android', apiKey: 'goog_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit, server: { appAccountToken: () => Promise.reject(new Error(BILLING_MESSAGES.notAuthenticated)), validateReceipt: () => Promise.reject(new Error('unused')) }, sandbox: false, wait: noWait });
    await expect(signedOut.purchase('monthly')).rejects.toThrow('User not authenticated');
  });

  it('without a RevenueCat key or a configurable SDK: ‘RevenueCat not initialized’; products that fail to load: ‘Failed to load products’, or mock products in sandbox', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const rc = fakeRevenueCat();
    const server: PurchasesServer = { appAccountToken: () => Promise.resolve('0f5e1c9a-1111-4222-8333-444455556666'), validateReceipt: () => Promise.reject(new Error('unused')) };
    const make = (apiKey: string | undefined, sandbox: boolean) => createNativePurchases({ kind: 'ios', apiKey, loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.reject(new Error('unused')), server, sandbox, wait: noWait });
    await expect(make(undefined, false).purchase('monthly')).rejects.toThrow(PURCHASE_MESSAGES.notInitialized);
    await expect(make(undefined, false).products()).rejects.toThrow(PURCHASE_MESSAGES.notInitialized);
    expect(await make(undefined, true).products()).toEqual(MOCK_PRODUCTS);

    rc.state.configure = () => Promise.reject(purchasesError('23', 'CONFIGURATION_ERROR', 'bad key'));
    await expect(make('appl_test', false).restore()).rejects.toThrow(PURCHASE_MESSAGES.restoreFailed);
    await expect(make('appl_test', false).purchase('yearly')).rejects.toThrow(PURCHASE_MESSAGES.notInitialized);

    rc.state.configure = () => Promise.resolve();
    rc.state.offerings = () => Promise.reject(purchasesError('2', 'STORE_PROBLEM', 'no products'));
    await expect(make('appl_test', false).products()).rejects.toThrow(PURCHASE_MESSAGES.loadFailed);
    await expect(make('appl_test', false).purchase('yearly')).rejects.toThrow(PURCHASE_MESSAGES.loadFailed);
    expect(await make('appl_test', true).products()).toEqual(MOCK_PRODUCTS);
    expect(MOCK_PRODUCTS.map((p) => [p.id, p.price, p.currency])).toEqual([['hm_plus_monthly', '£7.99', 'GBP'], ['hm_plus_yearly', '£39.99', 'GBP']]);
  });
});
