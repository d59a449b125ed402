/**
 * The one-time admin setup token (ARCHITECTURE.md: the spec let any signed-in user make
 * themselves admin). A token is printed at start while no admin exists, or by
 * `npm run cli -- setup-token`; only its hash is stored, and it works once, only while there is
 * still no admin.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ADMIN_MESSAGES } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { adminSetupTokens } from '#server/db/schema/admin.ts';
import { userRoles } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction } from '#server/features/admin/admin-audit.service.ts';
import type { ActingContext } from '#server/features/admin/request-context.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function adminExists(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: userRoles.id }).from(userRoles).where(eq(userRoles.role, 'admin')).limit(1);
  return Boolean(row);
}

/** Issues a fresh token, replacing any unused one; undefined once an admin exists. */
export async function issueSetupToken(db: Database): Promise<string | undefined> {
  if (await adminExists(db)) return undefined;
  const token = `hm-setup-${randomBytes(24).toString('base64url')}`;
  await db.transaction(async (tx) => {
    await lockSetup(tx);
    await tx.delete(adminSetupTokens).where(isNull(adminSetupTokens.usedAt));
    await tx.insert(adminSetupTokens).values({ tokenHash: hash(token) });
  });
  return token;
}

/**
 * Serialises issuing and redeeming across connections and processes (transaction-scoped
 * advisory lock), so there is never more than one unused token, and the "no admin yet" check
 * cannot be passed by two redemptions of two different tokens at once.
 */
const SETUP_LOCK_KEY = 0x68_6d_73_74; // 'hmst'
const lockSetup = (tx: Pick<Database, 'execute'>) => tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK_KEY})`);

/**
 * Grants admin to the acting user if `token` is the current unused token and no admin exists yet.
 * The token is claimed by one conditional update (`used_at is null`) in the same transaction as
 * the role grant and its audit row: of several concurrent redemptions exactly one claims it, the
 * others match no row (issue 12). The lookup is by SHA-256 hash, so its timing says nothing about the token.
 */
export async function redeemSetupToken({ db, by, token }: { db: Database; by: ActingContext; token: string }): Promise<void> {
  const userId = by.actor.id;
  await db.transaction(async (tx) => {
    await lockSetup(tx);
    if (await adminExists(tx)) throw new AppError('admin/setup-done', ADMIN_MESSAGES.setupDone, 409);
    const claimed = await tx
      .update(adminSetupTokens)
      .set({ usedAt: new Date(), usedBy: userId })
      .where(and(eq(adminSetupTokens.tokenHash, hash(token.trim())), isNull(adminSetupTokens.usedAt)))
      .returning({ id: adminSetupTokens.id });
    if (!claimed.length) throw new AppError('auth/forbidden', ADMIN_MESSAGES.setupTokenInvalid, 403);
    await assignRole({ db: tx, userId, role: 'admin', assignedBy: userId });
    await logAdminAction({ db: tx, by, entry: { action: 'admin.setup', targetResource: 'user_roles', targetId: userId, changes: { role: 'admin' }, severity: 'critical' } });
  });
}
