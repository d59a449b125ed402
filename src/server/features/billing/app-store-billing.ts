/**
 * App Store billing: StoreKit 2 signed transactions and App Store Server Notifications v2,
 * verified with Apple's official library (SignedDataVerifier) against Apple's root certificates,
 * then written through the same syncSubscription() as every other provider.
 *
 * Whose purchase is it? The app passes the user's `appAccountToken` (a UUID from
 * GET /api/iap/app-account-token) to StoreKit, Apple signs it into the transaction, and
 * validation requires it to equal the signed-in user's token. The first validation binds the
 * original transaction to that user in `app_store_transactions`; notifications find the owner
 * there, whatever other providers later write to `subscribers`.
 */
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import {
  Environment,
  NotificationTypeV2,
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
  type JWSTransactionDecodedPayload,
} from '@apple/app-store-server-library';
import { BILLING_MESSAGES, planFromProductId } from '#shared/billing.ts';
import { PRODUCT_IDS } from '#shared/constants.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { user } from '#server/db/schema/auth.ts';
import { appStoreTransactions } from '#server/db/schema/billing.ts';
import { AppError } from '#server/errors.ts';
import { ForgedWebhookError } from '#server/features/billing/forged-webhook.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { eq } from 'drizzle-orm';

export const AVAILABLE_PRODUCT_IDS = [PRODUCT_IDS.monthly, PRODUCT_IDS.yearly] as const;

type AppStoreConfig = NonNullable<Config['appStore']>;

/** The UUID the iOS app hands StoreKit as `appAccountToken` for this user's purchases. */
export async function getAppAccountToken({ db, userId }: { db: Database; userId: string }): Promise<string> {
  const row = (await db.select({ appAccountToken: user.appAccountToken }).from(user).where(eq(user.id, userId))).at(0);
  if (!row) throw new AppError('auth/unauthenticated', BILLING_MESSAGES.notAuthenticated, 401);
  return row.appAccountToken;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUIDs compare case-insensitively (StoreKit may send either case). */
const sameUuid = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Verification failures that mean "not signed by Apple" (bad signature, chain or format), as
 * opposed to a genuine Apple payload meant for another app or environment.
 */
function isForgery(error: unknown): boolean {
  if (!(error instanceof VerificationException)) return true;
  return ![VerificationStatus.INVALID_APP_IDENTIFIER, VerificationStatus.INVALID_ENVIRONMENT, VerificationStatus.RETRYABLE_VERIFICATION_FAILURE].includes(error.status);
}

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

  /** The account an original transaction is bound to, if any. */
  async function findOwner(originalTransactionId: string): Promise<string | undefined> {
    const rows = await db.select({ userId: appStoreTransactions.userId }).from(appStoreTransactions).where(eq(appStoreTransactions.originalTransactionId, originalTransactionId));
    return rows.at(0)?.userId;
  }

  /** Binds the purchase to the user unless it is bound already; returns the owner either way. */
  async function bind(originalTransactionId: string, userId: string, appAccountToken: string): Promise<string> {
    await db.insert(appStoreTransactions).values({ originalTransactionId, userId, appAccountToken }).onConflictDoNothing();
    const owner = await findOwner(originalTransactionId);
    // The insert above (or an earlier one) bound it: a missing row means the database lost a committed write.
    if (!owner) throw new Error(`App Store transaction ${originalTransactionId} has no owner after binding`);
    return owner;
  }

  return {
    /** POST /api/iap/validate-receipt: the app sends the StoreKit 2 signed transaction after a purchase or restore. */
    async validate({ userId, signedTransaction, productId }: { userId: string; signedTransaction: string; productId: string }) {
      const tx = await verifyTransaction(signedTransaction);
      if (tx.productId !== productId) throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('the transaction is for a different product'), 400);
      const originalTransactionId = tx.originalTransactionId ?? tx.transactionId;
      if (!originalTransactionId) throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('the transaction has no transaction id'), 400);
      // Without a token nothing says whose purchase this is: refuse rather than guess.
      if (!tx.appAccountToken) {
        throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('the purchase is not linked to an account; please update the app and restore purchases'), 400);
      }
      const token = await getAppAccountToken({ db, userId });
      if (!sameUuid(tx.appAccountToken, token)) {
        throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('the transaction belongs to another account'), 403);
      }
      const owner = await bind(originalTransactionId, userId, token);
      if (owner !== userId) throw new AppError('validation/invalid-input', BILLING_MESSAGES.validateFailed('this purchase is already linked to another account'), 409);
      return syncTransaction(userId, tx);
    },

    /** POST /api/iap/notifications: Apple tells us about renewals, expiries, refunds and auto-renew changes. */
    async handleNotification(signedPayload: string) {
      const notification = await verifiedPart('notification', () => verifier.verifyAndDecodeNotification(signedPayload));
      const signedTx = notification.data?.signedTransactionInfo;
      if (!signedTx) return { handled: false, type: notification.notificationType };
      const tx = await verifiedPart('transaction', () => verifier.verifyAndDecodeTransaction(signedTx));
      const signedRenewal = notification.data?.signedRenewalInfo;
      const renewal = signedRenewal ? await verifiedPart('renewal info', () => verifier.verifyAndDecodeRenewalInfo(signedRenewal)) : undefined;
      const originalTransactionId = tx.originalTransactionId ?? tx.transactionId;
      if (!originalTransactionId) return { handled: false, type: notification.notificationType };
      let ownerId = await findOwner(originalTransactionId);
      // A purchase the app never got to validate (crash, lost network): Apple's signed token names the account.
      if (!ownerId && tx.appAccountToken && UUID.test(tx.appAccountToken)) {
        const tokenOwner = (await db.select({ id: user.id, appAccountToken: user.appAccountToken }).from(user).where(eq(user.appAccountToken, tx.appAccountToken.toLowerCase()))).at(0);
        if (tokenOwner) ownerId = await bind(originalTransactionId, tokenOwner.id, tokenOwner.appAccountToken);
      }
      if (!ownerId) return { handled: false, type: notification.notificationType };
      const revoked = notification.notificationType === NotificationTypeV2.REFUND || notification.notificationType === NotificationTypeV2.REVOKE;
      await syncTransaction(ownerId, tx, { autoRenew: renewal ? renewal.autoRenewStatus === 1 : undefined, revoked });
      return { handled: true, type: notification.notificationType };
    },
  };
}

/**
 * One signed part of a notification. Not signed by Apple → ForgedWebhookError (a security event);
 * Apple's but for another app or environment → a plain 400. Either way the reply says the same.
 */
async function verifiedPart<T>(part: string, verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    if (isForgery(error)) throw new ForgedWebhookError('Invalid notification signature', `${part}: ${forgeryReason(error)}`);
    throw new AppError('validation/invalid-input', 'Invalid notification signature', 400);
  }
}

/** A short, secret-free reason for the security log. */
function forgeryReason(error: unknown): string {
  if (error instanceof VerificationException) return `verification status ${error.status} (${VerificationStatus[error.status]})`;
  return 'not a verifiable JWS';
}

export type AppStoreBilling = ReturnType<typeof createAppStoreBilling>;
