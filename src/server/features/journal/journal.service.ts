/**
 * Stores the sealed journal (issue 18; decision 0031). Compare-and-set on every write: a device says
 * which change it is replacing, and if another device's change got there first it gets that change
 * back to merge, so two devices converge and no edit is dropped without either knowing.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { journalKeyrings, journalRecords } from '#server/db/schema/journal.ts';

type StoredRecord = { id: string; seq: number; iv: string; data: string };
const columns = { id: journalRecords.id, seq: journalRecords.seq, iv: journalRecords.iv, data: journalRecords.data };

export async function getKeyring(db: Database, userId: string) {
  return (await db.select({ keyring: journalKeyrings.keyring }).from(journalKeyrings).where(eq(journalKeyrings.userId, userId))).at(0)?.keyring ?? null;
}

/** The first keyring wins: a second device setting up at the same moment is told to unlock instead. */
export async function createKeyring(db: Database, userId: string, keyring: Record<string, unknown>): Promise<boolean> {
  const rows = await db.insert(journalKeyrings).values({ userId, keyring }).onConflictDoNothing().returning({ userId: journalKeyrings.userId });
  return rows.length === 1;
}

/**
 * A new passphrase: only the passphrase's wrap may change. The recovery wrap must stay as it is, so a
 * stolen session cannot swap in keys of its own and lock the person out of their entries.
 */
export async function replacePassphrase(db: Database, userId: string, keyring: { recovery: unknown }): Promise<'replaced' | 'missing' | 'recovery-changed'> {
  const current = await getKeyring(db, userId);
  if (!current) return 'missing';
  if (JSON.stringify(current.recovery) !== JSON.stringify(keyring.recovery)) return 'recovery-changed';
  await db.update(journalKeyrings).set({ keyring, updatedAt: new Date() }).where(eq(journalKeyrings.userId, userId));
  return 'replaced';
}

export async function listRecords(db: Database, userId: string, after: number, limit: number) {
  const rows = await db
    .select(columns)
    .from(journalRecords)
    .where(and(eq(journalRecords.userId, userId), gt(journalRecords.seq, after)))
    .orderBy(asc(journalRecords.seq))
    .limit(limit + 1);
  const records = rows.slice(0, limit);
  return { records, last: records.at(-1)?.seq ?? after, more: rows.length > limit };
}

export async function recordExists(db: Database, userId: string, id: string): Promise<boolean> {
  return (await db.select({ id: journalRecords.id }).from(journalRecords).where(and(eq(journalRecords.userId, userId), eq(journalRecords.id, id)))).length > 0;
}

/** Writes if `baseSeq` is still the record's change number (null: the record must be new); else returns what is there now. */
export async function writeRecord(
  db: Database,
  userId: string,
  id: string,
  { iv, data, baseSeq }: { iv: string; data: string; baseSeq: number | null },
): Promise<{ ok: true; seq: number } | { ok: false; current: StoredRecord | null }> {
  const written =
    baseSeq === null
      ? await db.insert(journalRecords).values({ userId, id, iv, data }).onConflictDoNothing().returning({ seq: journalRecords.seq })
      : await db
          .update(journalRecords)
          .set({ iv, data, seq: sql`nextval('journal_change_seq')`, storedAt: new Date() })
          .where(and(eq(journalRecords.userId, userId), eq(journalRecords.id, id), eq(journalRecords.seq, baseSeq)))
          .returning({ seq: journalRecords.seq });
  if (written.length === 1) return { ok: true, seq: written[0].seq };
  const current = (await db.select(columns).from(journalRecords).where(and(eq(journalRecords.userId, userId), eq(journalRecords.id, id)))).at(0) ?? null;
  return { ok: false, current };
}

/** For the data export: how much of a journal the server holds (it cannot say more). */
export async function journalSummary(db: Database, userId: string) {
  const [row] = await db.select({ records: sql<number>`count(*)::int` }).from(journalRecords).where(eq(journalRecords.userId, userId));
  return { encryptedRecords: row.records, hasKeyring: (await getKeyring(db, userId)) !== null };
}
