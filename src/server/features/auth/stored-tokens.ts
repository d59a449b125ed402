/**
 * Provider tokens stored before sealing was turned on (decision 0064: better-auth's encryptOAuthTokens)
 * are sealed at start, so no Apple or Google token stays in the database as it came. Each value is
 * replaced only if it is still the plain one read, so processes starting together cannot undo each
 * other's work.
 */
import { and, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { account } from '#server/db/schema/auth.ts';
import { looksSealed, type TokenSealer } from '#server/features/auth/apple-tokens.ts';

const TOKEN_COLUMNS = ['accessToken', 'refreshToken'] as const;

/** A value better-auth would not take for sealed (looksSealed, in SQL): neither its envelope nor bare hex. So a start reads only what is left to seal. */
const plain = (column: AnyColumn): SQL => sql`(${column} is not null and ${column} not like '$ba$%' and ${column} !~ '^([0-9a-fA-F]{2})+$')`;

/** Seals every plain access and refresh token in `account`; returns how many values it sealed. */
export async function sealStoredProviderTokens({ db, sealer }: { db: Database; sealer: TokenSealer }): Promise<number> {
  const rows = await db
    .select({ id: account.id, accessToken: account.accessToken, refreshToken: account.refreshToken })
    .from(account)
    .where(or(plain(account.accessToken), plain(account.refreshToken)));
  let sealed = 0;
  for (const row of rows) {
    for (const column of TOKEN_COLUMNS) {
      const plain = row[column];
      if (!plain || looksSealed(plain)) continue;
      const done = await db
        .update(account)
        .set({ [column]: await sealer.seal(plain) })
        .where(and(eq(account.id, row.id), eq(account[column], plain)))
        .returning({ id: account.id });
      sealed += done.length;
    }
  }
  return sealed;
}
