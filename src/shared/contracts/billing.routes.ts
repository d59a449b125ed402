/**
 * The billing routes (contracts: billing.ts): the signed-in person's subscription, the web's checkout
 * and its changes, the sandbox checkout (registered only when BILLING_MODE=sandbox) and the iOS app's
 * App Store calls. Not in the table: the stores' webhooks (POST /api/billing/stripe/webhook with Stripe's
 * signed raw bytes, POST /api/iap/notifications, POST /api/revenuecat/webhook), which no page calls and
 * which prove themselves by signature or token; they stay registered as they were.
 */
import type { billingSchemas } from '#shared/contracts/billing.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const billingApi = defineRoutes<typeof billingSchemas>()('billing', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  /** The entitlement, how the web sells (BILLING_MODE) and how many plans it can sell. */
  subscription: { method: 'GET', path: '/api/subscription' },
  /** Diagnostics' 'Force Restore Purchases': the subscription re-read from its provider (rate-limited). */
  restore: { method: 'POST', path: '/api/billing/restore' },
  /** Where to pay: Stripe Checkout or the sandbox page; 409 when already subscribed, 503 when the web sells nothing. */
  checkout: { method: 'POST', path: '/api/billing/checkout' },
  /** Cancel at the period's end (cancel: true) or undo it (false). */
  cancel: { method: 'POST', path: '/api/billing/cancel' },
  /** Where to manage the subscription: Stripe's portal or the sandbox page. */
  portal: { method: 'POST', path: '/api/billing/portal' },
  /** BILLING_MODE=sandbox only: the checkout session the sandbox page shows. */
  sandboxSession: { method: 'GET', path: '/api/billing/sandbox/sessions/:id' },
  /** BILLING_MODE=sandbox only: pay, as Stripe would, and where to go next. */
  sandboxComplete: { method: 'POST', path: '/api/billing/sandbox/sessions/:id/complete' },
  /** The UUID the iOS app passes to StoreKit as appAccountToken. */
  appAccountToken: { method: 'GET', path: '/api/iap/app-account-token' },
  /** A StoreKit 2 signed transaction, checked and linked to the account; 402 when it grants nothing. */
  validateReceipt: { method: 'POST', path: '/api/iap/validate-receipt' },
});
