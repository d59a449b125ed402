/** Account › Your data (issue 18): download everything the server holds, or delete the account. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { accountApi } from '#shared/contracts/account.routes.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { accountDeletedMail, deleteAccount, deletionInfo, exportAccountData, sendDeletedMail } from '#server/features/account/account-data.service.ts';
import type { StripeBilling } from '#server/features/billing/stripe-billing.ts';
import { enforceRateLimit, type RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import type { Mailer } from '#server/mail.ts';
import { sendAppleRevocations, type AppleSignIn } from '#server/features/auth/apple-revocations.ts';
import { routeServer } from '#server/serve-route.ts';

type Deps = { auth: Auth; db: Database; stripe: StripeBilling | undefined; limits: RateLimitStore; mailer: Mailer; publicUrl: string; apple?: AppleSignIn };

/** An export reads every table about the person: a few an hour is plenty for someone keeping a copy. */
const EXPORTS = { perWindow: 5, windowMs: 60 * 60 * 1000 };
/** Password guesses through deletion count like any other. */
const DELETE_ATTEMPTS = { perWindow: 5, windowMs: 15 * 60 * 1000 };

/**
 * The session cookies, expired (their row is already gone with the account), under the names and
 * attributes better-auth itself sets them with (its __Secure- prefix over https included).
 */
async function expireSessionCookies(auth: Auth, reply: FastifyReply) {
  const { authCookies } = await auth.$context;
  const expired = ({ name, attributes }: { name: string; attributes: { path?: string; secure?: boolean; sameSite?: string } }) =>
    `${name}=; Path=${attributes.path ?? '/'}; Max-Age=0; HttpOnly; SameSite=${attributes.sameSite ?? 'lax'}${attributes.secure ? '; Secure' : ''}`;
  reply.header('set-cookie', [expired(authCookies.sessionToken), expired(authCookies.sessionData)]);
}

export function accountDataRoutes(app: FastifyInstance, { auth, db, stripe, limits, mailer, publicUrl, apple }: Deps): void {
  const serve = routeServer(app, { auth, db });

  serve(accountApi.export, async ({ viewer, request }, reply) => {
    await enforceRateLimit(limits, reply, `account-export:${viewer.user.id}`, request.ip, EXPORTS);
    const now = new Date();
    reply.header('content-disposition', `attachment; filename="harbour-mind-data-${now.toISOString().slice(0, 10)}.json"`);
    return exportAccountData({ db, userId: viewer.user.id, now });
  });

  serve(accountApi.deletion, ({ viewer }) => deletionInfo(db, viewer.user.id));

  serve(accountApi.delete, async ({ viewer, body, request }, reply) => {
    await enforceRateLimit(limits, reply, `account-delete:${viewer.user.id}`, request.ip, DELETE_ATTEMPTS);
    const context = await auth.$context;
    let result;
    try {
      result = await deleteAccount({
        db,
        userId: viewer.user.id,
        sessionId: viewer.session.id,
        password: body.password,
        verifyPassword: (hash, password) => context.password.verify({ hash, password }),
        cancelStripe: stripe ? (id) => stripe.cancelNow(id) : undefined,
        apple,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'auth/wrong-password') {
        await logSecurityEvent({ db, eventType: 'failed_login', severity: 'medium', userId: viewer.user.id, userEmail: viewer.user.email, ipAddress: request.ip, details: { reason: 'account deletion with a wrong password' } });
      }
      throw error;
    }
    await expireSessionCookies(auth, reply);
    request.log.info({ appStore: result.appStoreSubscription }, 'account deleted');
    // The account is gone; what is owed to Apple goes now, and what Apple does not take waits for the job (decision 0064).
    if (apple && result.appleRevocations.length > 0) {
      await sendAppleRevocations({ db, apple, log: request.log, ids: result.appleRevocations }).catch((error: unknown) =>
        request.log.error({ err: { message: error instanceof Error ? error.message : String(error) } }, 'Apple token revocation left to the job'),
      );
    }
    await sendDeletedMail(mailer, accountDeletedMail({ to: result.email, name: result.name, appStoreSubscription: result.appStoreSubscription, publicUrl }), request.log);
    return { deleted: true as const, appStoreSubscription: result.appStoreSubscription };
  });
}
