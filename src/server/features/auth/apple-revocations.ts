/**
 * Keeping and revoking Sign in with Apple's refresh tokens (issue 35, item 7; decision 0064).
 *
 * - Sign-in from the apps: the app's authorization code is exchanged for a refresh token, kept sealed
 *   (apple_refresh_tokens). The web's redirect flow keeps its own in account.refresh_token, sealed by
 *   better-auth (encryptOAuthTokens).
 * - Account deletion: in the deletion's transaction every such token becomes a row owed to Apple
 *   (apple_token_revocations, with nothing that says whose it was), sent right after the deletion;
 *   Apple being unreachable never holds the deletion back.
 * - A job in every process retries what is still owed, with backoff, claiming rows so two processes
 *   never send the same one at once; after a week it gives up and says so in the Security Log.
 */
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { Auth } from '#server/auth.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { account, appleRefreshTokens, appleTokenRevocations } from '#server/db/schema/auth.ts';
import { exchangeAppleCode, jwtClaims, loadAppleSigningKey, looksSealed, revokeAppleToken, tokenSealer, type AppleSigningKey, type TokenSealer } from '#server/features/auth/apple-tokens.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { startBackgroundJob } from '#server/background-job.ts';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/** What the server knows of Sign in with Apple: its two clients, the signing key (when configured) and the sealer. */
export type AppleSignIn = {
  /** The apps' client: the bundle id their identity tokens and codes are made for. */
  bundleId: string;
  /** The web's client: the Services ID of the redirect flow. */
  webClientId: string;
  /** Without it nothing can be exchanged or revoked (configWarnings says so at start). */
  key: AppleSigningKey | undefined;
  sealer: TokenSealer;
};

/** Sign in with Apple as configured, or undefined when it is off. A key file that cannot be read stops the start. */
export async function appleSignInFor(config: Pick<Config, 'oauth' | 'appLinks'>, auth: Auth): Promise<AppleSignIn | undefined> {
  const apple = config.oauth.apple;
  if (!apple) return undefined;
  const signing = config.oauth.appleSigningKey;
  return {
    bundleId: apple.appBundleIdentifier ?? config.appLinks.appId,
    webClientId: apple.clientId,
    key: signing ? loadAppleSigningKey(signing) : undefined,
    // The key better-auth seals the web flow's tokens with, so both are opened the same way.
    sealer: tokenSealer((await auth.$context).secretConfig),
  };
}

/** How long a claimed revocation is left to its process before another may take it. */
const LEASE_MS = 5 * 60_000;
/** Waits between tries: a minute, doubling, at most six hours. */
const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
/** After a week of failures the revocation is given up (and logged): the token is deleted with it. */
export const GIVE_UP_AFTER_MS = 7 * 86_400_000;
const BATCH = 50;

/**
 * After the apps' Sign in with Apple succeeded for `userId`: exchanges the app's authorization code for
 * the refresh token and keeps it sealed beside the person's Apple sign-in. A failure is logged and
 * leaves the sign-in as it is (the person is signed in either way; the next sign-in tries again).
 */
export async function keepAppleRefreshToken({ db, apple, userId, identityToken, code, log }: { db: Database; apple: AppleSignIn; userId: string; identityToken: string; code: string; log: Log }): Promise<boolean> {
  if (!apple.key) return false;
  // better-auth has just verified this token (signature, issuer, audience, expiry, nonce).
  const sub = jwtClaims(identityToken)?.sub;
  if (typeof sub !== 'string') return false;
  const signIn = (
    await db
      .select({ id: account.id })
      .from(account)
      .where(and(eq(account.userId, userId), eq(account.providerId, 'apple'), eq(account.accountId, sub)))
  ).at(0);
  if (!signIn) return false;
  try {
    const refreshToken = await apple.sealer.seal(await exchangeAppleCode({ key: apple.key, clientId: apple.bundleId, code, sub }));
    const updatedAt = new Date();
    await db
      .insert(appleRefreshTokens)
      .values({ accountId: signIn.id, clientId: apple.bundleId, refreshToken, updatedAt })
      .onConflictDoUpdate({ target: appleRefreshTokens.accountId, set: { clientId: apple.bundleId, refreshToken, updatedAt } });
    return true;
  } catch (error) {
    log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'Apple refresh token not kept (the next sign-in tries again)');
    return false;
  }
}

/**
 * In the deletion's transaction: every Apple token the person's sign-ins hold becomes a revocation owed
 * to Apple. Returns the rows' ids, for sending them right after the transaction commits.
 */
export async function queueAppleRevocations(tx: Tx, { userId, apple, now }: { userId: string; apple: AppleSignIn; now: Date }): Promise<string[]> {
  const signIns = await tx
    .select({ id: account.id, refreshToken: account.refreshToken, appToken: appleRefreshTokens.refreshToken, appClientId: appleRefreshTokens.clientId })
    .from(account)
    .leftJoin(appleRefreshTokens, eq(appleRefreshTokens.accountId, account.id))
    .where(and(eq(account.userId, userId), eq(account.providerId, 'apple')));
  const owed: { clientId: string; token: string }[] = [];
  for (const row of signIns) {
    if (row.appToken && row.appClientId) owed.push({ clientId: row.appClientId, token: row.appToken });
    // The web's token, sealed by better-auth; one kept before sealing was turned on is sealed now.
    if (row.refreshToken) owed.push({ clientId: apple.webClientId, token: looksSealed(row.refreshToken) ? row.refreshToken : await apple.sealer.seal(row.refreshToken) });
  }
  if (owed.length === 0) return [];
  const rows = await tx
    .insert(appleTokenRevocations)
    .values(owed.map((o) => ({ ...o, nextAttemptAt: now, createdAt: now })))
    .returning({ id: appleTokenRevocations.id });
  return rows.map((r) => r.id);
}

export type RevocationCounts = { revoked: number; gone: number; retry: number; abandoned: number };

/**
 * Sends the revocations that are due (or only `ids`, right after a deletion). Each is claimed first
 * (its next attempt moved a lease ahead, rows another process holds skipped), so no two processes send
 * the same one at once.
 */
export async function sendAppleRevocations({ db, apple, log, ids, now = new Date() }: { db: Database; apple: AppleSignIn; log: Log; ids?: string[]; now?: Date }): Promise<RevocationCounts> {
  const counts: RevocationCounts = { revoked: 0, gone: 0, retry: 0, abandoned: 0 };
  if (!apple.key || ids?.length === 0) return counts;
  const t = appleTokenRevocations;
  const due = db
    .select({ id: t.id })
    .from(t)
    .where(and(lte(t.nextAttemptAt, now), ids ? inArray(t.id, ids) : undefined))
    .orderBy(t.nextAttemptAt)
    .limit(BATCH)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(t)
    .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
    .where(inArray(t.id, due))
    .returning();
  for (const row of claimed) {
    let outcome: Awaited<ReturnType<typeof revokeAppleToken>>;
    try {
      outcome = await revokeAppleToken({ key: apple.key, clientId: row.clientId, token: await apple.sealer.open(row.token) });
    } catch (error) {
      // The token cannot be opened (the auth secret changed): it can never be sent; give it up now.
      outcome = { retry: `the sealed token cannot be opened (${error instanceof Error ? error.message : String(error)})` };
      row.createdAt = new Date(0);
    }
    if (outcome === 'revoked' || outcome === 'gone') {
      counts[outcome] += 1;
      await db.delete(t).where(eq(t.id, row.id));
      continue;
    }
    const attempts = row.attempts + 1;
    if (now.getTime() - row.createdAt.getTime() >= GIVE_UP_AFTER_MS) {
      counts.abandoned += 1;
      await db.delete(t).where(eq(t.id, row.id));
      log.error({ clientId: row.clientId, attempts, reason: outcome.retry }, 'Apple token revocation given up');
      await logSecurityEvent({ db, eventType: 'apple_revocation_failed', severity: 'high', details: { clientId: row.clientId, attempts, reason: outcome.retry } });
      continue;
    }
    counts.retry += 1;
    await db
      .update(t)
      .set({ attempts, lastError: outcome.retry, nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)) })
      .where(eq(t.id, row.id));
    log.warn({ clientId: row.clientId, attempts, reason: outcome.retry }, 'Apple token revocation failed; will retry');
  }
  return counts;
}

/** Every process runs the job each minute (and once soon after start); the claim gives each row to one of them. */
export function startAppleRevocations({ db, apple, log, everyMs = 60_000, firstAfterMs = 5_000 }: { db: Database; apple: AppleSignIn; log: Log; everyMs?: number; firstAfterMs?: number }): () => Promise<void> {
  return startBackgroundJob({
    log,
    failure: 'Apple token revocations not sent; will retry',
    everyMs,
    firstAfterMs,
    run: async () => {
      const counts = await sendAppleRevocations({ db, apple, log });
      if (counts.revoked + counts.gone + counts.abandoned > 0) log.info({ ...counts }, 'Apple token revocations sent');
    },
  });
}
