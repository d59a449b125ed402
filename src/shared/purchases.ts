/**
 * In-app purchases in the native apps (issue 19, item 4; spec 'Purchase flow (iOS)' and the error
 * catalogue's 'Purchases and checkout'): the constants, mock products and messages, once.
 */
import { PLAN_DETAILS, PLANS, type Plan } from '#shared/billing.ts';
import { PRICES_GBP, PRODUCT_IDS, TRIAL_DAYS } from '#shared/constants.ts';

/** The entitlement RevenueCat's dashboard attaches to both products (spec: entitlement name premium). */
export const PREMIUM_ENTITLEMENT = 'premium';

/** Spec §9 'Product refresh wait 1 s': before listing or buying, the store gets a second to refresh its products. */
export const PRODUCT_REFRESH_WAIT_MS = 1000;

/** A product as the apps show it: the store's (or, in sandbox, a mock with the same prices). */
export type StoreProduct = { id: string; plan: Plan; title: string; description: string; price: string; currency: string; priceAmount: number };

/** Spec 'Mock products (web and sandbox fallback)': the same prices, both with the 7-day trial. */
export const MOCK_PRODUCTS: readonly StoreProduct[] = PLANS.map((plan) => ({
  id: PRODUCT_IDS[plan],
  plan,
  title: PLAN_DETAILS[plan].label,
  description: `${TRIAL_DAYS}-day free trial, then ${PLAN_DETAILS[plan].priceText}`,
  price: `£${PRICES_GBP[plan].toFixed(2)}`,
  currency: 'GBP',
  priceAmount: PRICES_GBP[plan],
}));

/**
 * Spec §9: 'Sandbox is detected when the host name contains localhost, sandbox, testflight or the
 * build tool's name'. Inside the apps the page's own host is always localhost (capacitor://localhost,
 * https://localhost), so the apps ask this of the server they talk to.
 */
export function isSandboxHost(hostname: string): boolean {
  return /localhost|sandbox|testflight|vite/i.test(hostname);
}

export const PURCHASE_MESSAGES = {
  network: 'Network error during purchase. Please check your internet connection and try again.',
  cancelled: 'Purchase was cancelled by user',
  notAllowed: 'Purchases are not allowed on this device. Check Settings > Screen Time > Content & Privacy Restrictions',
  paymentInvalid: 'Payment method is invalid. Please check your payment settings in the App Store.',
  productUnavailable: 'This subscription is not available. Please ensure the app is up to date.',
  failed: (message: string) => `Subscription purchase failed: ${message}`,
  notInitialized: 'RevenueCat not initialized',
  loadFailed: 'Failed to load products',
  restoreFailed: 'Failed to restore purchases',
  notActivated: 'Subscription not activated. Please try again or contact support.',
  unavailable: 'Subscriptions are not available right now. Please try again later.',
  restored: 'Purchases restored',
  nothingToRestore: 'No active subscription found',
} as const;

/**
 * RevenueCat's PurchasesError codes (PURCHASES_ERROR_CODE) to the spec's messages, by meaning. The
 * spec's numbering (1 network, 2 cancel) is the original app's native store plugin's; RevenueCat
 * numbers them differently (1 cancelled, 2 store problem, 10 network, 35 offline), while 3, 4 and 5
 * mean the same in both (docs/decisions/0036-revenuecat-purchases.md).
 */
export function purchaseErrorMessage(error: { code?: unknown; message?: unknown; userCancelled?: unknown }): string {
  // The plugin's rejection: a CapacitorException with the code, to which its JavaScript adds PurchasesError's fields.
  if (error.userCancelled === true) return PURCHASE_MESSAGES.cancelled;
  switch (String(error.code)) {
    case '1':
      return PURCHASE_MESSAGES.cancelled;
    case '10':
    case '35':
      return PURCHASE_MESSAGES.network;
    case '3':
      return PURCHASE_MESSAGES.notAllowed;
    case '4':
      return PURCHASE_MESSAGES.paymentInvalid;
    case '5':
      return PURCHASE_MESSAGES.productUnavailable;
    default:
      return PURCHASE_MESSAGES.failed(typeof error.message === 'string' && error.message ? error.message : 'unknown error');
  }
}
