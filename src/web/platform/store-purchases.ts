/**
 * Purchases inside the apps (issue 19, item 4), through RevenueCat's Capacitor plugin (loaded from
 * native-store-plugins.ts, in the native chunk; this file stays out of it, or the shared modules it
 * imports would be pulled in with it and /subscribe would load the chunk): the App Store
 * on iOS, Google Play on Android, one entitlement on the server (docs/decisions/0036-revenuecat-purchases.md).
 *
 * The spec's flow: configure the SDK only inside the apps; give the store a second to refresh its
 * products before listing or buying; a purchase counts only with the premium entitlement present;
 * on iOS the StoreKit 2 signed transaction is then synced to /api/iap/validate-receipt and the
 * transaction finished, on error too (RevenueCat is configured so that the app completes iOS
 * purchases). Android's purchases reach the server through RevenueCat's webhook.
 *
 * RevenueCat's appUserID is the account's appAccountToken: the opaque id the webhook maps back to
 * the account, and the one StoreKit signs into iOS transactions for validate-receipt's owner check.
 */
import type { CustomerInfo, LOG_LEVEL, MakePurchaseResult, PurchasesConfiguration, PurchasesOfferings, PurchasesPackage } from '@revenuecat/purchases-capacitor';
import { BILLING_MESSAGES, planFromStoreProductId, type Plan } from '#shared/billing.ts';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { call } from '#web/lib/call.ts';
import { CALM_PURCHASE_MESSAGES, isSandboxHost, MOCK_PRODUCTS, PREMIUM_ENTITLEMENT, PRODUCT_REFRESH_WAIT_MS, PURCHASE_MESSAGES, purchaseErrorMessage, restoreErrorMessage, type StoreProduct } from '#shared/purchases.ts';

/** The part of RevenueCat's `Purchases` plugin used here, with its own method names and shapes. */
export type PurchasesPluginLike = {
  setLogLevel(options: { level: LOG_LEVEL }): Promise<void>;
  configure(configuration: PurchasesConfiguration): Promise<void>;
  logIn(options: { appUserID: string }): Promise<unknown>;
  getOfferings(): Promise<PurchasesOfferings>;
  purchasePackage(options: { aPackage: PurchasesPackage }): Promise<MakePurchaseResult>;
  restorePurchases(): Promise<{ customerInfo: CustomerInfo }>;
};

/**
 * The app's own StoreKit 2 bridge on iOS (ios/App/App/HarbourStoreKit.swift): the signed
 * transaction (its JWS) RevenueCat just reported, found by its id (the product's latest when there
 * is no id, as in a restore), and finishing it once the server has it.
 */
export type StoreKitLike = {
  signedTransaction(options: { productId: string; transactionId?: string }): Promise<{ signedTransaction: string | null; transactionId: string | null }>;
  finishTransaction(options: { transactionId: string }): Promise<void>;
};

/** What the module asks the server, through the app's API client (bearer session) or, in tests, fetch. */
export type PurchasesServer = {
  appAccountToken(): Promise<string>;
  validateReceipt(body: { signedTransaction: string; productId: string }): Promise<unknown>;
};

export type Purchases = {
  /** Our plans as the store sells them (after the refresh wait); mock products in sandbox when the store has none. */
  products(): Promise<StoreProduct[]>;
  /** Buys a plan for the signed-in account; resolves once premium is active (and, on iOS, the server has the receipt). */
  purchase(plan: Plan): Promise<void>;
  /** Restores the store's purchases to this account; says whether premium is active. */
  restore(): Promise<{ active: boolean }>;
};

/** A failure with the words to show (the spec's catalogue); `cancelled`: not a failure (cancelled, or waiting for approval), said calmly. */
export class PurchaseError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

/** The store's rejection, logged with its code and own words (never shown), as the person's words. */
function storeFailure(error: unknown, toMessage: (e: Parameters<typeof purchaseErrorMessage>[0]) => string): PurchaseError {
  const details = (error ?? {}) as Parameters<typeof purchaseErrorMessage>[0];
  const message = toMessage(details);
  console.error('store rejected', details.code, details.message);
  return new PurchaseError(message, CALM_PURCHASE_MESSAGES.has(message));
}

type Deps = {
  kind: 'ios' | 'android';
  /** RevenueCat's public SDK key for this platform, from the build (VITE_REVENUECAT_IOS_KEY / _ANDROID_KEY). */
  apiKey: string | undefined;
  loadPurchases: () => Promise<PurchasesPluginLike>;
  loadStoreKit: () => Promise<StoreKitLike>;
  server: PurchasesServer;
  /** Whether this build talks to a sandbox server (isSandboxHost of VITE_SERVER_URL): then mock products stand in. */
  sandbox: boolean;
  /**
   * A development build (Vite's DEV): the SDK logs at debug level, as the spec sets it. Store builds keep the
   * SDK's own release level (INFO), so a device's log never carries the SDK's debug lines (requests, ids).
   */
  debugLog?: boolean;
  wait?: (ms: number) => Promise<void>;
};

/** LOG_LEVEL.DEBUG, as the string the plugin sends over the bridge (importing the enum would load the plugin). */
const DEBUG_LEVEL = 'DEBUG' as unknown as LOG_LEVEL;

/**
 * PURCHASES_ARE_COMPLETED_BY_TYPE.MY_APP with STOREKIT_VERSION.STOREKIT_2, as the strings the plugin
 * sends over the bridge (importing the enums would load the plugin wherever this module is imported).
 */
const COMPLETED_BY_APP = { type: 'MY_APP', storeKitVersion: 'STOREKIT_2' } as unknown as PurchasesConfiguration['purchasesAreCompletedBy'];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const hasPremium = (info: CustomerInfo | undefined) => Boolean(info?.entitlements.active[PREMIUM_ENTITLEMENT]);

/** Our packages in the offerings, current offering first, by product id (Google Play's product:base-plan included). */
function ourPackages(offerings: PurchasesOfferings | undefined): PurchasesPackage[] {
  if (!offerings) return [];
  const all = [offerings.current, ...Object.values(offerings.all)].flatMap((offering) => offering?.availablePackages ?? []);
  const seen = new Set<string>();
  return all.filter((pkg) => {
    const id = pkg.product.identifier;
    if (seen.has(id) || !planFromStoreProductId(id)) return false;
    seen.add(id);
    return true;
  });
}

export function createNativePurchases({ kind, apiKey, loadPurchases, loadStoreKit, server, sandbox, debugLog = false, wait = sleep }: Deps): Purchases {
  let plugin: Promise<PurchasesPluginLike> | undefined;
  let configuredFor: string | null | undefined;

  /**
   * Configures RevenueCat once (with the account's token when signed in), or moves it to the
   * account signed in since. Without a key for this platform nothing can be bought.
   */
  async function ready(account: string | null): Promise<PurchasesPluginLike> {
    if (!apiKey) throw new PurchaseError(PURCHASE_MESSAGES.notInitialized);
    const purchases = await (plugin ??= loadPurchases());
    try {
      if (configuredFor === undefined) {
        // Before configure, so the SDK's set-up is logged too.
        if (debugLog) await purchases.setLogLevel({ level: DEBUG_LEVEL });
        await purchases.configure({
          apiKey,
          appUserID: account,
          // iOS: the app finishes transactions itself, after the server has the signed one (the spec's order).
          ...(kind === 'ios' ? { purchasesAreCompletedBy: COMPLETED_BY_APP } : {}),
        });
        configuredFor = account;
      } else if (account && account !== configuredFor) {
        await purchases.logIn({ appUserID: account });
        configuredFor = account;
      }
    } catch (error) {
      plugin = undefined;
      configuredFor = undefined;
      console.error('RevenueCat could not be configured', error);
      throw new PurchaseError(PURCHASE_MESSAGES.notInitialized);
    }
    return purchases;
  }

  /** The signed-in account's token: buying and restoring need one (the server says 'User not authenticated' otherwise). */
  async function account(): Promise<string> {
    try {
      return await server.appAccountToken();
    } catch (error) {
      throw new PurchaseError(error instanceof Error && error.message ? error.message : BILLING_MESSAGES.notAuthenticated);
    }
  }

  async function packages(purchases: PurchasesPluginLike): Promise<PurchasesPackage[]> {
    await wait(PRODUCT_REFRESH_WAIT_MS);
    try {
      return ourPackages(await purchases.getOfferings());
    } catch (error) {
      console.error('RevenueCat offerings failed', error);
      throw new PurchaseError(PURCHASE_MESSAGES.loadFailed);
    }
  }

  /**
   * iOS: the signed transaction to the server, then the transaction finished; finished on error too.
   * `transactionId`: the one RevenueCat reported for this purchase. Not the product's latest: after a
   * renewal or a purchase on another account of the same Apple ID, that is another transaction.
   */
  async function syncAndFinish(productId: string, transactionId?: string): Promise<void> {
    const storeKit = await loadStoreKit();
    let latest: Awaited<ReturnType<StoreKitLike['signedTransaction']>> = { signedTransaction: null, transactionId: null };
    try {
      latest = await storeKit.signedTransaction(transactionId ? { productId, transactionId } : { productId });
    } catch (error) {
      console.error('StoreKit gave no transaction', error);
    }
    try {
      if (!latest.signedTransaction) throw new PurchaseError(BILLING_MESSAGES.noReceipt);
      await server.validateReceipt({ signedTransaction: latest.signedTransaction, productId });
    } catch (error) {
      throw error instanceof PurchaseError ? error : new PurchaseError(error instanceof Error ? error.message : BILLING_MESSAGES.validateFailed(String(error)));
    } finally {
      if (latest.transactionId) await storeKit.finishTransaction({ transactionId: latest.transactionId });
    }
  }

  /** A purchase that granted nothing is still finished, so StoreKit does not offer it again at every start. */
  async function finishQuietly(transactionId: string) {
    try {
      await (await loadStoreKit()).finishTransaction({ transactionId });
    } catch (error) {
      console.error('finishing the transaction failed', error);
    }
  }

  return {
    async products() {
      let found: PurchasesPackage[] = [];
      let failure: unknown;
      try {
        found = await packages(await ready(configuredFor ?? null));
      } catch (error) {
        failure = error;
      }
      if (found.length > 0) {
        return found.map(({ product }) => ({
          id: product.identifier,
          plan: planFromStoreProductId(product.identifier) ?? 'monthly',
          title: product.title,
          description: product.description,
          price: product.priceString,
          currency: product.currencyCode,
          priceAmount: product.price,
        }));
      }
      // Spec: 'Failed to load products' and 'Failed to initialize IAP' are tolerated in sandbox by falling back to mock products.
      if (sandbox) return [...MOCK_PRODUCTS];
      throw failure instanceof PurchaseError ? failure : new PurchaseError(PURCHASE_MESSAGES.loadFailed);
    },

    async purchase(plan) {
      const purchases = await ready(await account());
      const pkg = (await packages(purchases)).find((p) => planFromStoreProductId(p.product.identifier) === plan);
      if (!pkg) throw new PurchaseError(PURCHASE_MESSAGES.unavailable);
      let result: MakePurchaseResult;
      try {
        result = await purchases.purchasePackage({ aPackage: pkg });
      } catch (error) {
        throw storeFailure(error, purchaseErrorMessage);
      }
      const productId = result.transaction.productIdentifier || pkg.product.identifier;
      if (!hasPremium(result.customerInfo)) {
        if (kind === 'ios') await finishQuietly(result.transaction.transactionIdentifier);
        throw new PurchaseError(PURCHASE_MESSAGES.notActivated);
      }
      if (kind === 'ios') await syncAndFinish(productId, result.transaction.transactionIdentifier || undefined);
    },

    async restore() {
      let purchases: PurchasesPluginLike;
      try {
        purchases = await ready(await account());
      } catch (error) {
        console.error('restore failed', error);
        throw new PurchaseError(PURCHASE_MESSAGES.restoreFailed);
      }
      let customerInfo: CustomerInfo;
      try {
        ({ customerInfo } = await purchases.restorePurchases());
      } catch (error) {
        throw storeFailure(error, restoreErrorMessage);
      }
      try {
        // The entitlements are a plain map: premium is there only while it is active.
        const premium = Object.hasOwn(customerInfo.entitlements.active, PREMIUM_ENTITLEMENT) ? customerInfo.entitlements.active[PREMIUM_ENTITLEMENT] : undefined;
        if (premium && kind === 'ios') await syncAndFinish(premium.productIdentifier);
        return { active: hasPremium(customerInfo) };
      } catch (error) {
        console.error('restore failed', error);
        throw new PurchaseError(PURCHASE_MESSAGES.restoreFailed);
      }
    },
  };
}

/**
 * The apps' purchases: RevenueCat's key for the platform and the server's address come from the build
 * (VITE_REVENUECAT_IOS_KEY / VITE_REVENUECAT_ANDROID_KEY, VITE_SERVER_URL); the server is asked
 * through the app's API client, with its bearer session.
 */
let instance: Purchases | undefined;

export function appPurchases(kind: 'ios' | 'android', server: string): Purchases {
  const env = import.meta.env as Record<string, string | undefined>;
  // One for the life of the app: it remembers whom RevenueCat is configured for.
  return (instance ??= createNativePurchases({
    kind,
    apiKey: (kind === 'ios' ? env.VITE_REVENUECAT_IOS_KEY : env.VITE_REVENUECAT_ANDROID_KEY) || undefined,
    loadPurchases: async () => (await import('#web/platform/native-store-plugins.ts')).loadRevenueCat(),
    loadStoreKit: async () => (await import('#web/platform/native-store-plugins.ts')).loadStoreKit(),
    sandbox: isSandboxHost(new URL(server).hostname),
    debugLog: import.meta.env.DEV,
    server: {
      appAccountToken: async () => (await call(billingApi.appAccountToken)).appAccountToken,
      validateReceipt: (body) => call(billingApi.validateReceipt, { body }),
    },
  }));
}
