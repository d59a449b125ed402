/**
 * RevenueCat's webhook (issue 19, item 4): Google Play purchases made in the Android app (and App
 * Store ones, which also arrive through Apple's own notifications) reach the shared entitlement.
 * Absent (404) unless REVENUECAT_WEBHOOK_AUTH is configured, as the App Store route is without Apple's set-up.
 */
import type { FastifyInstance } from 'fastify';
import { revenueCatWebhookBody, webhookResponse } from '#shared/contracts/billing.ts';
import { withContracts } from '#server/api-contracts.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { ForgedWebhookError, recordingForgedWebhooks } from '#server/features/billing/forged-webhook.ts';
import type { RevenueCatBilling } from '#server/features/billing/revenuecat-billing.ts';

export function revenueCatRoutes(app: FastifyInstance, { db, revenueCat }: { db: Database; revenueCat: RevenueCatBilling | undefined }): void {
  const api = withContracts(app);
  api.post(
    '/api/revenuecat/webhook',
    {
      // Who is asking comes before what they sent: a wrong secret is a 401 (and a security event) whatever the body.
      onRequest: async (request) => {
        if (!revenueCat) throw new AppError('not-found', 'Not found.');
        const { authorization } = request.headers;
        await recordingForgedWebhooks({ db, request, provider: 'revenuecat' }, () =>
          revenueCat.authorized(authorization)
            ? Promise.resolve()
            : Promise.reject(new ForgedWebhookError('Unauthorized', authorization ? 'Authorization header does not match' : 'no Authorization header', 'auth/unauthenticated')),
        );
      },
      schema: { tags: ['revenuecat'], body: revenueCatWebhookBody, response: { 200: webhookResponse } },
    },
    async (request) => {
      // onRequest answered 404 without it.
      if (!revenueCat) throw new AppError('not-found', 'Not found.');
      const result = await revenueCat.handleEvent(request.body.event);
      if (result.outcome === 'unknown-account') request.log.warn({ eventId: request.body.event.id, type: result.type }, 'RevenueCat event for no known account');
      if (result.outcome === 'ambiguous-account') request.log.warn({ eventId: request.body.event.id, type: result.type }, 'RevenueCat event whose aliases name more than one account: not applied');
      return result;
    },
  );
}
