/**
 * App Store endpoints: the account token the iOS app gives StoreKit, receipt validation (bearer
 * session) and Server Notifications v2.
 */
import type { FastifyInstance } from 'fastify';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireUser, viewerOf, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { appAccountTokenResponse, appStoreNotificationBody, validateReceiptBody, validateReceiptResponse, webhookResponse } from '#shared/contracts/billing.ts';
import { AVAILABLE_PRODUCT_IDS, getAppAccountToken, type AppStoreBilling } from '#server/features/billing/app-store-billing.ts';
import { recordingForgedWebhooks } from '#server/features/billing/forged-webhook.ts';
import { BILLING_UNAVAILABLE, getEntitlement } from '#server/features/billing/subscriptions.service.ts';

export function iapRoutes(app: FastifyInstance, { auth, db, appStore }: { auth: Auth; db: Database; appStore: AppStoreBilling | undefined }): void {
  /** The app asks once per signed-in account and passes it to StoreKit's purchase(options: [.appAccountToken(…)]). */
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);
  api.get('/api/iap/app-account-token', { onRequest: signedIn, schema: { tags: ['app-store'], response: { 200: appAccountTokenResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { appAccountToken: await getAppAccountToken({ db, userId: viewerOf(request).user.id }) };
  });

  api.post('/api/iap/validate-receipt', { onRequest: signedIn, schema: { tags: ['app-store'], body: validateReceiptBody, response: { 200: validateReceiptResponse } } }, async (request) => {
    const { body } = request;
    const productId = body.productId ?? '';
    if (!(AVAILABLE_PRODUCT_IDS as readonly string[]).includes(productId)) {
      throw new AppError('validation/invalid-input', BILLING_MESSAGES.invalidProduct(AVAILABLE_PRODUCT_IDS), 400);
    }
    const signed = body.signedTransaction ?? body.receiptData;
    if (!signed) throw new AppError('validation/invalid-input', BILLING_MESSAGES.noReceipt, 400);
    if (!appStore) throw new AppError('billing/unavailable', BILLING_UNAVAILABLE, 503);
    const viewer = viewerOf(request);
    await appStore.validate({ userId: viewer.user.id, signedTransaction: signed, productId });
    const entitlement = await getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
    if (!entitlement.subscribed) throw new AppError('subscription/required', BILLING_MESSAGES.notActivated, 402);
    return { ...entitlement, entitlement: 'premium' as const };
  });

  api.post('/api/iap/notifications', { schema: { tags: ['app-store'], body: appStoreNotificationBody, response: { 200: webhookResponse } } }, async (request) => {
    if (!appStore) throw new AppError('not-found', 'Not found.', 404);
    const { signedPayload } = request.body;
    return recordingForgedWebhooks({ db, request, provider: 'app_store' }, () => appStore.handleNotification(signedPayload));
  });
}
