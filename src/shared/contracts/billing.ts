import { z } from 'zod';
import { PAYMENT_ERRORS, PLANS } from '#shared/billing.ts';
import { hasControlCharacters } from '#shared/validation.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

export const checkoutBody = z.object({
  plan: z.enum(PLANS, { message: 'Please choose the monthly or yearly plan.' }),
  /** Spec: prefilled from the user; the server always uses the account's own address. */
  email: z.string().trim().optional().refine((v) => v === undefined || (v.length > 0 && v.includes('@') && !hasControlCharacters(v)), 'Please enter a valid email address.'),
});

const checkoutResponse = z.object({ url: z.string(), trial: z.boolean(), notice: z.string().optional() });

/** What a user may do: whether they are subscribed, may still start a trial, and their subscription. */
const entitlementSchema = z.object({
  subscribed: z.boolean(),
  trialEligible: z.boolean(),
  subscription: z
    .object({
      status: z.string(),
      plan: z.string(),
      provider: z.string(),
      currentPeriodEnd: z.string().nullable(),
      trialEnd: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      /** Why the last charge failed (Stripe's decline), until a charge succeeds. */
      paymentError: z.enum(PAYMENT_ERRORS).nullable(),
    })
    .nullable(),
});
export type Entitlement = z.infer<typeof entitlementSchema>;

/** GET /api/subscription. */
const subscriptionResponse = entitlementSchema.extend({
  /** BILLING_MODE: how the web sells (none = not at all; subscriptions come from the App Store). */
  mode: z.enum(['stripe', 'sandbox', 'none']),
  /** How many plans the web can sell right now (the diagnostics overlay's 'product count'). */
  products: z.number().int(),
});
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;

/** POST /api/billing/portal: where to manage the subscription (Stripe's portal or the sandbox page). */
const portalResponse = z.object({ url: z.string() });

/** GET /api/iap/app-account-token: the UUID the iOS app passes to StoreKit as appAccountToken. */
const appAccountTokenResponse = z.object({ appAccountToken: z.string() });

const validateReceiptBody = z.object({
  /** StoreKit 2 signed transaction (JWS). `receiptData` is accepted as the same value for older app builds. */
  signedTransaction: z.string().max(20_000).optional(),
  receiptData: z.string().max(20_000).optional(),
  productId: z.string().max(100).optional(),
});
/** The entitlement after a validated purchase. */
const validateReceiptResponse = entitlementSchema.extend({ entitlement: z.literal('premium') });

/** App Store Server Notifications v2. */
export const appStoreNotificationBody = z.object({ signedPayload: z.string().min(1).max(50_000) });
/** What a verified webhook did: `handled` false when it named nothing we sell or no known account. */
export const webhookResponse = z.object({ received: z.boolean().optional(), handled: z.boolean(), type: z.string().optional(), outcome: z.string().optional() });

/** RevenueCat's webhook event types (RevenueCat docs, 'Event Types and Fields'). */
const REVENUECAT_EVENT_TYPES = [
  'TEST',
  'INITIAL_PURCHASE',
  'RENEWAL',
  'CANCELLATION',
  'UNCANCELLATION',
  'NON_RENEWING_PURCHASE',
  'SUBSCRIPTION_PAUSED',
  'EXPIRATION',
  'BILLING_ISSUE',
  'PRODUCT_CHANGE',
  'TRANSFER',
  'SUBSCRIPTION_EXTENDED',
  'TEMPORARY_ENTITLEMENT_GRANT',
  'REFUND_REVERSED',
  'INVOICE_ISSUANCE',
  'VIRTUAL_CURRENCY_TRANSACTION',
  'EXPERIMENT_ENROLLMENT',
  'SUBSCRIBER_ALIAS',
] as const;
const rcId = z.string().max(200);
const rcMillis = z.number().int().nonnegative().nullish();

/**
 * POST /api/revenuecat/webhook: one RevenueCat event (the fields read here; others are dropped).
 * `app_user_id` is what the app configured RevenueCat with: the account's appAccountToken.
 * TRANSFER events name no app_user_id (they carry transferred_from/to), so it is optional.
 */
export const revenueCatWebhookBody = z.object({
  api_version: z.string().max(20).optional(),
  event: z.object({
    id: z.string().min(1).max(200),
    type: z.enum(REVENUECAT_EVENT_TYPES),
    app_user_id: rcId.optional(),
    original_app_user_id: rcId.nullish(),
    aliases: z.array(rcId).max(100).nullish(),
    product_id: rcId.nullish(),
    new_product_id: rcId.nullish(),
    entitlement_ids: z.array(rcId).max(100).nullish(),
    period_type: z.enum(['TRIAL', 'INTRO', 'NORMAL', 'PROMOTIONAL', 'PREPAID']).nullish(),
    purchased_at_ms: rcMillis,
    expiration_at_ms: rcMillis,
    event_timestamp_ms: rcMillis,
    environment: z.enum(['SANDBOX', 'PRODUCTION']),
    store: z.string().max(40).nullish(),
    cancel_reason: z.string().max(60).nullish(),
    transaction_id: rcId.nullish(),
    original_transaction_id: rcId.nullish(),
    /** BILLING_ISSUE: when the store's grace period ends (null when the store gives none). */
    grace_period_expiration_at_ms: rcMillis,
    /** TRANSFER: the app user ids the purchases left, and the ones they went to. */
    transferred_from: z.array(rcId).max(100).nullish(),
    transferred_to: z.array(rcId).max(100).nullish(),
  }),
});
export type RevenueCatEvent = z.infer<typeof revenueCatWebhookBody>['event'];

const sandboxSessionResponse = z.object({ id: z.string(), plan: z.enum(PLANS), label: z.string(), priceText: z.string(), withTrial: z.boolean() });
const sandboxCompleteResponse = z.object({ redirect: z.string() });

const sandboxSessionParams = z.object({ id: z.string().regex(/^cs_sandbox_[0-9a-f]{24}$/, 'Unknown checkout session') });
/** `cancel` is required: an empty body must never mean "cancel my subscription". */
const cancelBody = z.object({ cancel: z.boolean({ message: 'Please say whether to cancel (true) or resume (false) the subscription.' }) });

/** The billing routes' contracts, by route name (their method, path and policy: billing.routes.ts). */
export const billingSchemas = {
  subscription: { response: subscriptionResponse },
  restore: { response: subscriptionResponse },
  checkout: { body: checkoutBody, response: checkoutResponse },
  cancel: { body: cancelBody, response: entitlementSchema },
  portal: { response: portalResponse },
  sandboxSession: { params: sandboxSessionParams, response: sandboxSessionResponse },
  sandboxComplete: { params: sandboxSessionParams, response: sandboxCompleteResponse },
  appAccountToken: { response: appAccountTokenResponse },
  validateReceipt: { body: validateReceiptBody, response: validateReceiptResponse },
} satisfies SchemaTable;
