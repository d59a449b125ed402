/**
 * A local stand-in for RevenueCat's Capacitor plugin (`Purchases`), with its method names and the
 * shapes its definitions give (PurchasesOfferings, PurchasesPackage, CustomerInfo, MakePurchaseResult,
 * PurchasesError with PURCHASES_ERROR_CODE strings), so the apps' purchase code is tested against
 * what the plugin really answers. Calls are recorded; a test sets what the store does next.
 */
import type { CustomerInfo, MakePurchaseResult, PurchasesConfiguration, PurchasesEntitlementInfo, PurchasesOfferings, PurchasesPackage } from '@revenuecat/purchases-capacitor';
import type { PurchasesPluginLike } from '#web/platform/store-purchases.ts';

const DAY = 24 * 60 * 60 * 1000;

/** A product as the App Store (or Google Play, as `id:base-plan`) lists it through RevenueCat. */
export function storePackage(productId: string, price: number, packageType: 'MONTHLY' | 'ANNUAL'): PurchasesPackage {
  return {
    identifier: packageType === 'MONTHLY' ? '$rc_monthly' : '$rc_annual',
    packageType,
    offeringIdentifier: 'default',
    presentedOfferingContext: { offeringIdentifier: 'default', placementIdentifier: null, targetingContext: null },
    webCheckoutUrl: null,
    product: {
      identifier: productId,
      description: packageType === 'MONTHLY' ? 'Every meditation, every month' : 'Every meditation, all year',
      title: packageType === 'MONTHLY' ? 'Harbour Mind Plus (Monthly)' : 'Harbour Mind Plus (Yearly)',
      price,
      priceString: `£${price.toFixed(2)}`,
      pricePerWeek: null,
      pricePerMonth: null,
      pricePerYear: null,
      pricePerWeekString: null,
      pricePerMonthString: null,
      pricePerYearString: null,
      currencyCode: 'GBP',
      introPrice: { price: 0, priceString: '£0.00', cycles: 1, period: 'P1W', periodUnit: 'WEEK', periodNumberOfUnits: 1 },
      discounts: null,
      productCategory: 'SUBSCRIPTION',
      productType: 'AUTO_RENEWABLE_SUBSCRIPTION',
      subscriptionPeriod: packageType === 'MONTHLY' ? 'P1M' : 'P1Y',
      defaultOption: null,
      subscriptionOptions: null,
      presentedOfferingIdentifier: 'default',
      presentedOfferingContext: { offeringIdentifier: 'default', placementIdentifier: null, targetingContext: null },
    },
  } as unknown as PurchasesPackage;
}

/** Offerings with one current offering, as the dashboard's 'default' offering holds our two products. */
export function offeringsOf(packages: PurchasesPackage[]): PurchasesOfferings {
  const offering = {
    identifier: 'default',
    serverDescription: 'Harbour Mind Plus',
    metadata: {},
    availablePackages: packages,
    lifetime: null,
    annual: packages.find((p) => p.identifier === '$rc_annual') ?? null,
    sixMonth: null,
    threeMonth: null,
    twoMonth: null,
    monthly: packages.find((p) => p.identifier === '$rc_monthly') ?? null,
    weekly: null,
    webCheckoutUrl: null,
  };
  return { all: { default: offering }, current: offering };
}

/** CustomerInfo with the premium entitlement active for `productId`, or no entitlement at all. */
export function customerInfo(appUserId: string, productId?: string): CustomerInfo {
  const now = Date.now();
  const premium = productId
    ? ({
        identifier: 'premium',
        isActive: true,
        willRenew: true,
        periodType: 'TRIAL',
        latestPurchaseDate: new Date(now).toISOString(),
        latestPurchaseDateMillis: now,
        originalPurchaseDate: new Date(now).toISOString(),
        originalPurchaseDateMillis: now,
        expirationDate: new Date(now + 7 * DAY).toISOString(),
        expirationDateMillis: now + 7 * DAY,
        store: 'APP_STORE',
        productIdentifier: productId,
        productPlanIdentifier: null,
        isSandbox: true,
        unsubscribeDetectedAt: null,
        unsubscribeDetectedAtMillis: null,
        billingIssueDetectedAt: null,
        billingIssueDetectedAtMillis: null,
        ownershipType: 'PURCHASED',
        verification: 'NOT_REQUESTED',
      } as unknown as PurchasesEntitlementInfo)
    : undefined;
  return {
    entitlements: { all: premium ? { premium } : {}, active: premium ? { premium } : {}, verification: 'NOT_REQUESTED' as unknown },
    activeSubscriptions: productId ? [productId] : [],
    allPurchasedProductIdentifiers: productId ? [productId] : [],
    latestExpirationDate: premium?.expirationDate ?? null,
    firstSeen: new Date(now - DAY).toISOString(),
    originalAppUserId: appUserId,
    requestDate: new Date(now).toISOString(),
    allExpirationDates: productId ? { [productId]: premium?.expirationDate ?? null } : {},
    allPurchaseDates: productId ? { [productId]: premium?.latestPurchaseDate ?? null } : {},
    originalApplicationVersion: null,
    originalPurchaseDate: null,
    managementURL: null,
    nonSubscriptionTransactions: [],
    subscriptionsByProductIdentifier: {},
  } as unknown as CustomerInfo;
}

/**
 * A rejection as the plugin gives it: the native side rejects with the PurchasesError's message, its
 * PURCHASES_ERROR_CODE as the code and its fields as data (`call.reject(message, code, error, info)`),
 * which Capacitor hands to JavaScript as a CapacitorException (an Error with `code` and `data`); the
 * plugin's JavaScript then adds PurchasesError's fields to it (normalizePurchasesError): userInfo,
 * readableErrorCode, underlyingErrorMessage and userCancelled (code 1).
 */
export function purchasesError(code: string, readableErrorCode: string, message: string) {
  const data = { code, message, readableErrorCode, readable_error_code: readableErrorCode, underlyingErrorMessage: '' };
  return Object.assign(new Error(message), { code, data, userInfo: { ...data }, readableErrorCode, underlyingErrorMessage: '', userCancelled: code === '1' });
}

type Next<T> = () => Promise<T>;

export function fakeRevenueCat(packages: PurchasesPackage[] = [storePackage('hm_plus_monthly', 7.99, 'MONTHLY'), storePackage('hm_plus_yearly', 39.99, 'ANNUAL')]) {
  const calls: { method: string; options?: unknown; at: number }[] = [];
  let appUserId = '$RCAnonymousID:0b1c';
  const state = {
    configure: (() => Promise.resolve()) as Next<void>,
    offerings: (() => Promise.resolve(offeringsOf(packages))) as Next<PurchasesOfferings>,
    /** What buying does: by default the store approves and RevenueCat grants premium. */
    purchase: ((pkg: PurchasesPackage) =>
      Promise.resolve({
        productIdentifier: pkg.product.identifier,
        customerInfo: customerInfo(appUserId, pkg.product.identifier),
        transaction: { transactionIdentifier: '2000000123456789', productIdentifier: pkg.product.identifier, purchaseDate: new Date().toISOString() },
      })) as (pkg: PurchasesPackage) => Promise<MakePurchaseResult>,
    restore: (() => Promise.resolve({ customerInfo: customerInfo(appUserId, 'hm_plus_yearly') })) as Next<{ customerInfo: CustomerInfo }>,
  };
  const record = (method: string, options?: unknown) => calls.push({ method, options, at: Date.now() });
  const plugin: PurchasesPluginLike = {
    setLogLevel: (options) => {
      record('setLogLevel', options);
      return Promise.resolve();
    },
    configure: (configuration: PurchasesConfiguration) => {
      record('configure', configuration);
      if (configuration.appUserID) appUserId = configuration.appUserID;
      return state.configure();
    },
    logIn: ({ appUserID }) => {
      record('logIn', { appUserID });
      appUserId = appUserID;
      return Promise.resolve({ customerInfo: customerInfo(appUserID), created: false });
    },
    getOfferings: () => {
      record('getOfferings');
      return state.offerings();
    },
    purchasePackage: ({ aPackage }) => {
      record('purchasePackage', aPackage.product.identifier);
      return state.purchase(aPackage);
    },
    restorePurchases: () => {
      record('restorePurchases');
      return state.restore();
    },
  };
  return { plugin, state, calls, methods: () => calls.map((c) => c.method) };
}
