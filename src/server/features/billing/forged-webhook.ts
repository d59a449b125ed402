/**
 * Webhooks whose signature does not verify: still a plain 400 for the caller, and a `critical`
 * security event for the admins (someone is trying to grant or change subscriptions by posting
 * provider events themselves). Shared by the Stripe webhook, App Store Server Notifications and
 * RevenueCat's webhook (whose proof is a shared Authorization header, so its refusal is a 401).
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';

/** Thrown by a provider when a webhook's signature (or certificate chain, or shared secret) does not verify. */
export class ForgedWebhookError extends AppError {
  constructor(
    message: string,
    readonly reason: string,
    code: 'validation/invalid-input' | 'auth/unauthenticated' = 'validation/invalid-input',
  ) {
    super(code, message);
  }
}

/**
 * Runs a webhook handler; on a forged signature records `webhook_forged` before the 400 (401) goes out.
 * The event names the provider, route and reason, never the body or the signature itself.
 */
export async function recordingForgedWebhooks<T>({ db, request, provider }: { db: Database; request: FastifyRequest; provider: 'stripe' | 'app_store' | 'revenuecat' }, handle: () => Promise<T>): Promise<T> {
  try {
    return await handle();
  } catch (error) {
    if (error instanceof ForgedWebhookError) {
      await logSecurityEvent({
        db,
        eventType: 'webhook_forged',
        severity: 'critical',
        ipAddress: request.ip,
        details: { provider, route: request.routeOptions.url, reason: error.reason, userAgent: request.headers['user-agent'] ?? null },
      }).catch((logError: unknown) => {
        request.log.error({ err: { message: logError instanceof Error ? logError.message : String(logError) } }, 'could not record a forged webhook');
      });
    }
    throw error;
  }
}
