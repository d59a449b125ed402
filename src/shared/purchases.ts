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
  // The spec's user-facing in-app purchase messages (what a person sees for each cause; issue 35, item 2).
  cancelled: 'Purchase was cancelled. You can try again anytime.',
  notAllowed: 'Purchases are not allowed on this device. Please check your device settings.',
  network: 'Network error. Please check your internet connection and try again.',
  productUnavailable: 'This subscription is not available. Please try again later.',
  unableToProcess: 'Unable to process subscription. Please try again or contact support if the issue persists.',
  // The spec's native code 4 (the user-facing list has no word for it).
  paymentInvalid: 'Payment method is invalid. Please check your payment settings in the App Store.',
  // RevenueCat's codes 6, 7/13 and 20, which the spec does not word.
  alreadyPurchased: 'You already have this subscription. Tap Restore Purchases to use it on this account.',
  otherAccount: 'This purchase belongs to another Harbour Mind account. Sign in with the account you subscribed with, or contact support to move it.',
  pending: 'Your purchase is waiting for approval (for example, Ask to Buy). Premium starts as soon as it is approved.',
  notInitialized: 'RevenueCat not initialized',
  loadFailed: 'Failed to load products',
  restoreFailed: 'Failed to restore purchases',
  notActivated: 'Subscription not activated. Please try again or contact support.',
  unavailable: 'Subscriptions are not available right now. Please try again later.',
  restored: 'Purchases restored',
  nothingToRestore: 'No active subscription found',
} as const;

/** Outcomes that are not failures (changing one's mind, a parent's approval to come): shown calmly. */
export const CALM_PURCHASE_MESSAGES: ReadonlySet<string> = new Set([PURCHASE_MESSAGES.cancelled, PURCHASE_MESSAGES.pending]);

type StoreFailure = { code?: unknown; message?: unknown; userCancelled?: unknown };

/** purchaseErrorMessage's table: a PurchasesError code to its message (a Map, so no inherited key can match). */
const MESSAGE_BY_STORE_CODE: ReadonlyMap<string, string> = new Map([
  ['1', PURCHASE_MESSAGES.cancelled],
  ['3', PURCHASE_MESSAGES.notAllowed],
  ['4', PURCHASE_MESSAGES.paymentInvalid],
  ['5', PURCHASE_MESSAGES.productUnavailable],
  ['6', PURCHASE_MESSAGES.alreadyPurchased],
  ['7', PURCHASE_MESSAGES.otherAccount],
  ['10', PURCHASE_MESSAGES.network],
  ['13', PURCHASE_MESSAGES.otherAccount],
  ['20', PURCHASE_MESSAGES.pending],
  ['35', PURCHASE_MESSAGES.network],
]);

/**
 * RevenueCat's PurchasesError codes (PURCHASES_ERROR_CODE) to the spec's user-facing messages, by
 * meaning: 1 cancelled, 3 not allowed, 10 and 35 network, 5 not available, 4 payment invalid;
 * 6 already purchased, 7 and 13 the store account's receipt belongs to another app account,
 * 20 payment pending (Ask to Buy, a slow payment method); anything else 'Unable to process subscription'
 * (docs/decisions/0036-revenuecat-purchases.md). The store's own text is logged, never shown.
 */
export function purchaseErrorMessage(error: StoreFailure): string {
  // The plugin's rejection: a CapacitorException with the code, to which its JavaScript adds PurchasesError's fields.
  if (error.userCancelled === true) return PURCHASE_MESSAGES.cancelled;
  return MESSAGE_BY_STORE_CODE.get(String(error.code)) ?? PURCHASE_MESSAGES.unableToProcess;
}

/** A failed restore: another account's purchase and the network are said as such; the rest 'Failed to restore purchases'. */
export function restoreErrorMessage(error: StoreFailure): string {
  const message = purchaseErrorMessage(error);
  return message === PURCHASE_MESSAGES.otherAccount || message === PURCHASE_MESSAGES.network ? message : PURCHASE_MESSAGES.restoreFailed;
}
