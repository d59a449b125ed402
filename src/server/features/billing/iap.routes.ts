/**
 * App Store endpoints: the account token the iOS app gives StoreKit, receipt validation (bearer
 * session) and Server Notifications v2.
 */
import type { FastifyInstance } from 'fastify';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { withContracts } from '#server/api-contracts.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { appStoreNotificationBody, webhookResponse } from '#shared/contracts/billing.ts';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { AVAILABLE_PRODUCT_IDS, getAppAccountToken, type AppStoreBilling } from '#server/features/billing/app-store-billing.ts';
import { recordingForgedWebhooks } from '#server/features/billing/forged-webhook.ts';
import { BILLING_UNAVAILABLE, getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import { routeServer } from '#server/serve-route.ts';

export function iapRoutes(app: FastifyInstance, { auth, db, appStore }: { auth: Auth; db: Database; appStore: AppStoreBilling | undefined }): void {
  const serve = routeServer(app, { auth, db });
  /** The app asks once per signed-in account and passes it to StoreKit's purchase(options: [.appAccountToken(…)]). */
  serve(billingApi.appAccountToken, async ({ viewer }) => ({ appAccountToken: await getAppAccountToken({ db, userId: viewer.user.id }) }));

  serve(billingApi.validateReceipt, async ({ viewer, body }) => {
    const productId = body.productId ?? '';
    if (!(AVAILABLE_PRODUCT_IDS as readonly string[]).includes(productId)) {
      throw new AppError('validation/invalid-input', BILLING_MESSAGES.invalidProduct(AVAILABLE_PRODUCT_IDS), 400);
    }
    const signed = body.signedTransaction ?? body.receiptData;
    if (!signed) throw new AppError('validation/invalid-input', BILLING_MESSAGES.noReceipt, 400);
    if (!appStore) throw new AppError('billing/unavailable', BILLING_UNAVAILABLE, 503);
    await appStore.validate({ userId: viewer.user.id, signedTransaction: signed, productId });
    const entitlement = await getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
    if (!entitlement.subscribed) throw new AppError('subscription/required', BILLING_MESSAGES.notActivated, 402);
    return { ...entitlement, entitlement: 'premium' as const };
  });

  withContracts(app).post('/api/iap/notifications', { schema: { tags: ['app-store'], body: appStoreNotificationBody, response: { 200: webhookResponse } } }, async (request) => {
    if (!appStore) throw new AppError('not-found', 'Not found.', 404);
    const { signedPayload } = request.body;
    return recordingForgedWebhooks({ db, request, provider: 'app_store' }, () => appStore.handleNotification(signedPayload));
  });
}
