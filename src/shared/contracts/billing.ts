import { z } from 'zod';
import { PLANS } from '#shared/billing.ts';
import { hasControlCharacters } from '#shared/validation.ts';

export const checkoutBody = z.object({
  plan: z.enum(PLANS, { message: 'Please choose the monthly or yearly plan.' }),
  /** Spec: prefilled from the user; the server always uses the account's own address. */
  email: z.string().trim().optional().refine((v) => v === undefined || (v.length > 0 && v.includes('@') && !hasControlCharacters(v)), 'Please enter a valid email address.'),
});
export type CheckoutBody = z.infer<typeof checkoutBody>;

export type CheckoutResponse = { url: string; trial: boolean; notice?: string };

/** What a user may do: whether they are subscribed, may still start a trial, and their subscription. */
export type Entitlement = {
  subscribed: boolean;
  trialEligible: boolean;
  subscription: {
    status: string;
    plan: string;
    provider: string;
    currentPeriodEnd: string | null;
    trialEnd: string | null;
    cancelAtPeriodEnd: boolean;
  } | null;
};

/** GET /api/subscription and POST /api/billing/cancel. */
export type SubscriptionResponse = Entitlement & {
  /** BILLING_MODE: how the web sells (none = not at all; subscriptions come from the App Store). */
  mode: 'stripe' | 'sandbox' | 'none';
};

/** GET /api/iap/app-account-token: the UUID the iOS app passes to StoreKit as appAccountToken. */
export type AppAccountTokenResponse = { appAccountToken: string };

export const sandboxSessionParams = z.object({ id: z.string().regex(/^cs_sandbox_[0-9a-f]{24}$/, 'Unknown checkout session') });
/** `cancel` is required: an empty body must never mean "cancel my subscription". */
export const cancelBody = z.object({ cancel: z.boolean({ message: 'Please say whether to cancel (true) or resume (false) the subscription.' }) });
