/**
 * App Store endpoints: the account token the iOS app gives StoreKit, receipt validation (bearer
 * session) and Server Notifications v2.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { requireUser, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import type { AppAccountTokenResponse } from '#shared/contracts/billing.ts';
import { AVAILABLE_PRODUCT_IDS, getAppAccountToken, type AppStoreBilling } from '#server/features/billing/app-store-billing.ts';
import { recordingForgedWebhooks } from '#server/features/billing/forged-webhook.ts';
import { BILLING_UNAVAILABLE, getEntitlement } from '#server/features/billing/subscriptions.service.ts';

const validateBody = z.object({
  /** StoreKit 2 signed transaction (JWS). `receiptData` is accepted as the same value for older app builds. */
  signedTransaction: z.string().max(20_000).optional(),
  receiptData: z.string().max(20_000).optional(),
  productId: z.string().max(100).optional(),
});

const notificationBody = z.object({ signedPayload: z.string().min(1).max(50_000) });

export function iapRoutes(app: FastifyInstance, { auth, db, appStore }: { auth: Auth; db: Database; appStore: AppStoreBilling | undefined }): void {
  /** The app asks once per signed-in account and passes it to StoreKit's purchase(options: [.appAccountToken(…)]). */
  app.get('/api/iap/app-account-token', { preHandler: requireUser(auth, db) }, async (request, reply): Promise<AppAccountTokenResponse> => {
    reply.header('cache-control', 'no-store');
    return { appAccountToken: await getAppAccountToken({ db, userId: request.viewer!.user.id }) };
  });

  app.post('/api/iap/validate-receipt', { preHandler: requireUser(auth, db) }, async (request) => {
    const body = validateBody.parse(request.body ?? {});
    const productId = body.productId ?? '';
    if (!(AVAILABLE_PRODUCT_IDS as readonly string[]).includes(productId)) {
      throw new AppError('validation/invalid-input', BILLING_MESSAGES.invalidProduct(AVAILABLE_PRODUCT_IDS), 400);
    }
    const signed = body.signedTransaction ?? body.receiptData;
    if (!signed) throw new AppError('validation/invalid-input', BILLING_MESSAGES.noReceipt, 400);
    if (!appStore) throw new AppError('billing/unavailable', BILLING_UNAVAILABLE, 503);
    const viewer = request.viewer!;
    await appStore.validate({ userId: viewer.user.id, signedTransaction: signed, productId });
    const entitlement = await getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
    if (!entitlement.subscribed) throw new AppError('subscription/required', BILLING_MESSAGES.notActivated, 402);
    return { ...entitlement, entitlement: 'premium' };
  });

  app.post('/api/iap/notifications', async (request) => {
    if (!appStore) throw new AppError('not-found', 'Not found.', 404);
    const { signedPayload } = notificationBody.parse(request.body ?? {});
    return recordingForgedWebhooks({ db, request, provider: 'app_store' }, () => appStore.handleNotification(signedPayload));
  });
}
