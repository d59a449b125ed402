/**
 * Billing API: subscription state, checkout (Stripe or the in-app sandbox), cancel/resume,
 * manage (Stripe Customer Portal or the sandbox page) and the Stripe webhook. BILLING_MODE decides
 * which exist: the sandbox routes only in `sandbox`, web checkout not at all in `none`.
 */
import type { FastifyInstance } from 'fastify';
import { BILLING_MESSAGES, PLAN_DETAILS, PLANS, RESTORE_LIMIT, type Plan } from '#shared/billing.ts';
import { webhookResponse } from '#shared/contracts/billing.ts';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { withContracts } from '#server/api-contracts.ts';
import type { Auth, Viewer } from '#server/auth.ts';
import type { BillingMode } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { billingProviders } from '#server/features/billing/billing-providers.ts';
import { recordingForgedWebhooks } from '#server/features/billing/forged-webhook.ts';
import { completeSandboxCheckout, getSandboxCheckout } from '#server/features/billing/sandbox-billing.ts';
import type { StripeBilling } from '#server/features/billing/stripe-billing.ts';
import { enforceRateLimit, type RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { BILLING_UNAVAILABLE, getEntitlement, getSubscription, isTrialEligible } from '#server/features/billing/subscriptions.service.ts';
import { routeServer } from '#server/serve-route.ts';

type Deps = { auth: Auth; db: Database; mode: BillingMode; stripe: StripeBilling | undefined; limits: RateLimitStore };

/** What a provider's own failure (Stripe down, a refused call) becomes: logged here, worded for the person. */
function providerFailure(request: { log: { error: (details: object, message: string) => void } }, what: string, error: unknown, answer: AppError): AppError {
  if (error instanceof AppError) return error;
  request.log.error({ err: { message: error instanceof Error ? error.message : String(error) } }, `${what} failed`);
  return answer;
}

export async function billingRoutes(app: FastifyInstance, { auth, db, mode, stripe, limits }: Deps): Promise<void> {
  const { seller, keeperOf } = billingProviders({ db, mode, stripe });
  const serve = routeServer(app, { auth, db });
  /** BILLING_MODE=none: no web checkout at all (App-Store-only deployments). */
  const unavailable = () => new AppError('billing/unavailable', BILLING_UNAVAILABLE, 503);
  const products = mode === 'none' ? 0 : stripe ? stripe.products : PLANS.length;
  /** GET /api/subscription's answer: the entitlement, how the web sells, and how many plans it can sell. */
  const subscriptionOf = async (viewer: Viewer) => ({ ...(await getEntitlement({ db, userId: viewer.user.id, role: viewer.role })), mode, products });
  /** The subscription a change applies to, and its keeper; refused when there is none, or it is changed in a store's app, or the web sells nothing. */
  const changeable = async (userId: string) => {
    const row = await getSubscription(db, userId);
    if (!row) throw new AppError('not-found', 'You do not have a subscription.');
    const keeper = keeperOf(row);
    if (keeper.changedElsewhere) throw keeper.changedElsewhere();
    if (!seller) throw unavailable();
    return { row, keeper };
  };

  serve(billingApi.subscription, ({ viewer }) => subscriptionOf(viewer));

  // Diagnostics' 'Force Restore Purchases' (web): the subscription re-read from its provider.
  serve(billingApi.restore, async ({ viewer, request }, reply) => {
    await enforceRateLimit(limits, reply, `billing-restore:${viewer.user.id}`, request.ip, RESTORE_LIMIT);
    const row = await getSubscription(db, viewer.user.id);
    // No subscription yet: the web's seller may know of one this server missed (a lost webhook).
    const provider = row ? keeperOf(row) : seller;
    try {
      await provider?.restore(viewer.user.id, row);
    } catch (error) {
      throw providerFailure(request, 'restore', error, new AppError('billing/unavailable', BILLING_MESSAGES.genericError, 503));
    }
    return subscriptionOf(viewer);
  });

  serve(billingApi.checkout, async ({ viewer, body, request }) => {
    const { plan } = body;
    if (!seller) throw unavailable();
    const entitlement = await getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
    if (entitlement.subscription && entitlement.subscribed) throw new AppError('billing/already-subscribed', 'You already have an active subscription.', 409);
    const withTrial = await isTrialEligible(db, viewer.user.id);
    const notice = withTrial ? undefined : BILLING_MESSAGES.repeatTrial;
    try {
      const session = await seller.checkout({ userId: viewer.user.id, email: viewer.user.email, plan, withTrial });
      return { url: session.url, trial: withTrial, notice };
    } catch (error) {
      throw providerFailure(request, 'checkout', error, new AppError('billing/checkout-failed', BILLING_MESSAGES.checkoutFailed, 502));
    }
  });

  serve(billingApi.cancel, async ({ viewer, body }) => {
    const { cancel } = body;
    const { row, keeper } = await changeable(viewer.user.id);
    await keeper.setCancelAtPeriodEnd(row, cancel);
    return getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
  });

  serve(billingApi.portal, async ({ viewer }) => {
    const { row, keeper } = await changeable(viewer.user.id);
    return keeper.portal(row);
  });

  if (mode === 'sandbox') {
    serve(billingApi.sandboxSession, async ({ viewer, params }) => {
      const { id } = params;
      const session = await getSandboxCheckout({ db, userId: viewer.user.id, sessionId: id });
      const plan = session.plan as Plan;
      return { id: session.id, plan, label: PLAN_DETAILS[plan].label, priceText: PLAN_DETAILS[plan].priceText, withTrial: session.withTrial };
    });
    serve(billingApi.sandboxComplete, async ({ viewer, params }) => {
      const { id } = params;
      await completeSandboxCheckout({ db, userId: viewer.user.id, sessionId: id });
      return { redirect: `/account?session_id=${id}` };
    });
  }

  // Stripe needs the exact bytes it signed: parse this one route's body as a raw buffer.
  // Its body is documented by Stripe, not here: we read only the signed bytes.
  await app.register((scope, _options, registered) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
      done(null, body);
    });
    withContracts(scope).post('/api/billing/stripe/webhook', { schema: { tags: ['billing'], response: { 200: webhookResponse } } }, async (request) => {
      if (!stripe) throw new AppError('not-found', 'Not found.', 404);
      const signature = request.headers['stripe-signature'];
      const result = await recordingForgedWebhooks({ db, request, provider: 'stripe' }, () =>
        stripe.handleWebhook(request.body as Buffer, typeof signature === 'string' ? signature : undefined),
      );
      return { received: true, ...result };
    });
    registered();
  });
}
