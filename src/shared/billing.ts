/**
 * Subscription rules shared by server (authoritative) and web (display only).
 * Spec: 'Subscription active' = status active or trialing, and period end absent or in the future.
 */
import { PRICES_GBP, PRODUCT_IDS, TRIAL_DAYS } from '#shared/constants.ts';

export const PLANS = ['monthly', 'yearly'] as const;
export type Plan = (typeof PLANS)[number];
export const isPlan = (value: string | null | undefined): value is Plan => (PLANS as readonly (string | null | undefined)[]).includes(value);

/** play_store: Google Play through RevenueCat's webhook (the Android app). */
export type Provider = 'stripe' | 'app_store' | 'play_store' | 'sandbox' | 'comped';

/** Why the provider's last charge failed, in the spec's error codes' terms (subscription/card-declined, subscription/payment-failed). */
export const PAYMENT_ERRORS = ['card-declined', 'payment-failed'] as const;
export type PaymentError = (typeof PAYMENT_ERRORS)[number];

/** The one entitlement check. */
export function isSubscriptionActive(sub: { status: string; currentPeriodEnd: Date | string | null } | null | undefined, now: Date = new Date()): boolean {
  if (!sub) return false;
  if (sub.status !== 'active' && sub.status !== 'trialing') return false;
  if (!sub.currentPeriodEnd) return true;
  return new Date(sub.currentPeriodEnd).getTime() > now.getTime();
}

export function planFromProductId(productId: string): Plan | undefined {
  if (productId === PRODUCT_IDS.monthly) return 'monthly';
  if (productId === PRODUCT_IDS.yearly) return 'yearly';
  return undefined;
}

/**
 * The plan a store's product id names. Google Play subscriptions reach RevenueCat as
 * `product:base-plan` (e.g. hm_plus_monthly:monthly): the part before the colon is the product.
 */
export function planFromStoreProductId(productId: string | null | undefined): Plan | undefined {
  return planFromProductId((productId ?? '').split(':')[0] ?? '');
}

export const PLAN_DETAILS: Record<Plan, { label: string; price: number; per: string; priceText: string }> = {
  monthly: { label: 'Premium Monthly', price: PRICES_GBP.monthly, per: 'month', priceText: `£${PRICES_GBP.monthly.toFixed(2)} / month` },
  yearly: { label: 'Premium Yearly', price: PRICES_GBP.yearly, per: 'year', priceText: `£${PRICES_GBP.yearly.toFixed(2)} / year` },
};


/**
 * 'Force Restore Purchases' asks the billing provider each time: a few a minute per account, so one
 * account cannot spend the provider's API allowance that every checkout and webhook shares.
 */
export const RESTORE_LIMIT = { perWindow: 5, windowMs: 60_000 } as const;

export const BILLING_MESSAGES = {
  repeatTrial: 'You have already used your free trial. Proceeding with regular subscription.',
  checkoutFailed: 'Failed to create checkout session. Please try again.',
  genericError: 'An error occurred. Please try again.',
  invalidEmail: 'Please enter a valid email address.',
  verifying: 'Verifying subscription...',
  verified: 'Subscription verified successfully!',
  welcomeTitle: 'Welcome to Premium!',
  welcomeBody: 'Your free trial has started...',
  verifyTimeout: "We couldn't confirm your subscription yet. If you completed payment, it can take a minute: refresh this page, or contact support if it doesn't appear.",
  invalidProduct: (ids: readonly string[]) => `Invalid product ID. Available products: ${ids.join(', ')}`,
  noReceipt: 'No receipt data available from iOS transaction',
  notActivated: 'Subscription not activated. Please try again or contact support.',
  validateFailed: (message: string) => `Failed to validate receipt: ${message}`,
  notAuthenticated: 'User not authenticated',
  notEntitled: 'This meditation is part of your subscription. Start your journey by subscribing to listen.',
} as const;

export const CHECKOUT_POLL_INTERVAL_MS = 2000;
export const CHECKOUT_POLL_TIMEOUT_MS = 30_000;

/** The stores that sell inside the apps (the platform layer's `purchases.store`). */
type AppStore = 'app_store' | 'play_store';

/**
 * The auto-renewal terms shown beside the store's offer inside the apps (App Review 3.1.2; Play's
 * subscriptions policy; issue 35, item 3): the price per period in words, the trial, when payment is
 * taken, and how to cancel, from the prices and trial above. One sentence each, in order.
 */
export function autoRenewalTerms(store: AppStore): string[] {
  const account = store === 'app_store' ? 'your Apple Account' : 'your Google Play account';
  const where = store === 'app_store' ? 'in Settings › your name › Subscriptions' : 'in the Play Store under Payments & subscriptions › Subscriptions';
  return [
    `Renews automatically at £${PRICES_GBP.monthly.toFixed(2)} a month until cancelled (Premium Monthly), or at £${PRICES_GBP.yearly.toFixed(2)} a year (Premium Yearly).`,
    `New subscribers start with a ${TRIAL_DAYS}-day free trial: cancel before it ends and you pay nothing.`,
    `Payment is charged to ${account} when the trial ends (at purchase if you have had a trial), and each renewal within 24 hours before the current period ends.`,
    `Cancel any time, at least 24 hours before the period ends, ${where}; you keep Premium until the end of the period you paid for.`,
  ];
}

/** The button App Review looks for (guideline 3.1.1), on /subscribe and in Account inside the apps. */
export const RESTORE_PURCHASES_LABEL = 'Restore Purchases';

