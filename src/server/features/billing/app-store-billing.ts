/**
 * App Store billing: StoreKit 2 signed transactions and App Store Server Notifications v2,
 * verified with Apple's official library (SignedDataVerifier) against Apple's root certificates,
 * then written through the same syncSubscription() as every other provider.
 */
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import {
  Environment,
  NotificationTypeV2,
  SignedDataVerifier,
  VerificationException,
  type JWSTransactionDecodedPayload,
} from '@apple/app-store-server-library';
import { BILLING_MESSAGES, planFromProductId } from '#shared/billing.ts';
import { PRODUCT_IDS } from '#shared/constants.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { AppError } from '#server/errors.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { eq } from 'drizzle-orm';

export const AVAILABLE_PRODUCT_IDS = [PRODUCT_IDS.monthly, PRODUCT_IDS.yearly] as const;

type AppStoreConfig = NonNullable<Config['appStore']>;

/** DER or PEM files → DER buffers, as SignedDataVerifier expects. */
export function loadRootCertificates(files: string[]): Buffer[] {
  return files.map((file) => new X509Certificate(readFileSync(file)).raw);
}

export function createAppStoreBilling({ config, db, rootCertificates }: { config: AppStoreConfig; db: Database; rootCertificates: Buffer[] }) {
  const environment = config.environment === 'Sandbox' ? Environment.SANDBOX : Environment.PRODUCTION;
  // Online (OCSP) revocation checks need Apple's servers; they are on in production.
  const verifier = new SignedDataVerifier(rootCertificates, environment === Environment.PRODUCTION, environment, config.bundleId, config.appAppleId);

  async function verifyTransaction(signed: string): Promise<JWSTransactionDecodedPayload> {
    try {
      return await verifier.verifyAndDecodeTransaction(signed);
    } catch (error) {
      const status = error instanceof VerificationException ? error.status : undefined;
      throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed(status === undefined ? 'verification failed' : `verification status ${status}`), 400);
    }
  }

  /** Writes what a verified transaction says, for the user it belongs to. */
  async function syncTransaction(userId: string, tx: JWSTransactionDecodedPayload, extra: { autoRenew?: boolean; revoked?: boolean } = {}) {
    const plan = planFromProductId(tx.productId ?? '');
    if (!plan) throw new AppError('validation/invalid-input', BILLING_MESSAGES.invalidProduct(AVAILABLE_PRODUCT_IDS), 400);
    const expires = tx.expiresDate ? new Date(tx.expiresDate) : null;
    const revoked = extra.revoked || Boolean(tx.revocationDate);
    const status = revoked ? 'canceled' : expires && expires.getTime() <= Date.now() ? 'expired' : 'active';
    return syncSubscription({
      db,
      userId,
      snapshot: {
        provider: 'app_store',
        status,
        plan,
        providerCustomerId: tx.appAccountToken ?? null,
        providerSubscriptionId: tx.originalTransactionId ?? tx.transactionId ?? null,
        currentPeriodEnd: expires,
        trialStart: tx.offerType === 1 && tx.purchaseDate ? new Date(tx.purchaseDate) : null,
        trialEnd: tx.offerType === 1 ? expires : null,
        cancelAtPeriodEnd: extra.autoRenew === false,
        environment: tx.environment ?? config.environment,
      },
    });
  }

  return {
    /** POST /api/iap/validate-receipt: the app sends the StoreKit 2 signed transaction after a purchase or restore. */
    async validate({ userId, signedTransaction, productId }: { userId: string; signedTransaction: string; productId: string }) {
      const tx = await verifyTransaction(signedTransaction);
      if (tx.productId !== productId) throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('the transaction is for a different product'), 400);
      if (tx.appAccountToken && tx.appAccountToken.toLowerCase() !== userId.toLowerCase() && /^[0-9a-f-]{36}$/i.test(userId)) {
        throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('the transaction belongs to another account'), 403);
      }
      const [owner] = await db.select({ userId: subscribers.userId }).from(subscribers).where(eq(subscribers.providerSubscriptionId, tx.originalTransactionId ?? ''));
      if (owner && owner.userId !== userId) throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('this purchase is already linked to another account'), 409);
      return syncTransaction(userId, tx);
    },

    /** POST /api/iap/notifications: Apple tells us about renewals, expiries, refunds and auto-renew changes. */
    async handleNotification(signedPayload: string) {
      let notification;
      try {
        notification = await verifier.verifyAndDecodeNotification(signedPayload);
      } catch {
        throw new AppError('validation/invalid-input', 'Invalid notification signature', 400);
      }
      const signedTx = notification.data?.signedTransactionInfo;
      if (!signedTx) return { handled: false, type: notification.notificationType };
      const tx = await verifyTransaction(signedTx);
      const renewal = notification.data?.signedRenewalInfo ? await verifier.verifyAndDecodeRenewalInfo(notification.data.signedRenewalInfo) : undefined;
      const [owner] = await db.select({ userId: subscribers.userId }).from(subscribers).where(eq(subscribers.providerSubscriptionId, tx.originalTransactionId ?? ''));
      if (!owner) return { handled: false, type: notification.notificationType };
      const revoked = notification.notificationType === NotificationTypeV2.REFUND || notification.notificationType === NotificationTypeV2.REVOKE;
      await syncTransaction(owner.userId, tx, { autoRenew: renewal ? renewal.autoRenewStatus === 1 : undefined, revoked });
      return { handled: true, type: notification.notificationType };
    },
  };
}

export type AppStoreBilling = ReturnType<typeof createAppStoreBilling>;
