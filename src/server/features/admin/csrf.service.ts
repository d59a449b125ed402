/**
 * CSRF tokens for role changes (spec 'CSRF token'): 15 minutes of life, per user, stored hashed.
 * Cookies are SameSite=Lax already; this is the spec's second lock on the most sensitive action.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { ADMIN } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { csrfTokens } from '#server/db/schema/admin.ts';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueCsrfToken(db: Database, userId: string, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + ADMIN.csrfLifeMs);
  await db.delete(csrfTokens).where(and(eq(csrfTokens.userId, userId), lt(csrfTokens.expiresAt, new Date(now))));
  await db.insert(csrfTokens).values({ userId, tokenHash: hash(token), expiresAt });
  return { token, expiresAt };
}

export async function validateCsrfToken(db: Database, userId: string, token: string | undefined, now = Date.now()): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const [row] = await db
    .select({ id: csrfTokens.id })
    .from(csrfTokens)
    .where(and(eq(csrfTokens.userId, userId), eq(csrfTokens.tokenHash, hash(token)), gt(csrfTokens.expiresAt, new Date(now))));
  return Boolean(row);
}
