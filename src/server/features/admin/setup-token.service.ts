/**
 * The one-time admin setup token (ARCHITECTURE.md: the spec let any signed-in user make
 * themselves admin). A token is printed at start while no admin exists, or by
 * `npm run cli -- setup-token`; only its hash is stored, and it works once, only while there is
 * still no admin.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, isNull } from 'drizzle-orm';
import { ADMIN_MESSAGES } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { adminSetupTokens } from '#server/db/schema/admin.ts';
import { userRoles } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';
import { assignRole } from '#server/features/roles/roles.service.ts';

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
    await tx.delete(adminSetupTokens).where(isNull(adminSetupTokens.usedAt));
    await tx.insert(adminSetupTokens).values({ tokenHash: hash(token) });
  });
  return token;
}

/** Grants admin to `userId` if `token` is the current unused token and no admin exists yet. */
export async function redeemSetupToken(db: Database, userId: string, token: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [admin] = await tx.select({ id: userRoles.id }).from(userRoles).where(eq(userRoles.role, 'admin')).limit(1);
    if (admin) throw new AppError('auth/forbidden', ADMIN_MESSAGES.setupDone, 409);
    const [current] = await tx.select().from(adminSetupTokens).where(isNull(adminSetupTokens.usedAt)).limit(1);
    const given = Buffer.from(hash(token.trim()));
    if (!current || !timingSafeEqual(Buffer.from(current.tokenHash), given)) throw new AppError('auth/forbidden', ADMIN_MESSAGES.setupTokenInvalid, 403);
    await tx.update(adminSetupTokens).set({ usedAt: new Date(), usedBy: userId }).where(eq(adminSetupTokens.id, current.id));
    await assignRole({ db: tx as unknown as Database, userId, role: 'admin', assignedBy: userId });
  });
}
