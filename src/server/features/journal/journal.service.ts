/**
 * Stores the sealed journal (issue 18; decision 0031). Compare-and-set on every write: a device says
 * which change it is replacing, and if another device's change got there first it gets that change
 * back to merge, so two devices converge and no edit is dropped without either knowing.
 *
 * Each account's journal is capped in records and in sealed characters (JOURNAL_STORAGE; decision
 * 0044). A write that adds a record or grows the journal is checked against both under a per-account
 * lock, so parallel writes cannot pass the cap together; a change that does not grow it (an edit of
 * the same length, a deletion's small marker) is always taken, so a full journal stays editable.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { JOURNAL_STORAGE } from '#shared/journal-keys.ts';
import type { Database } from '#server/db/client.ts';
import { journalKeyrings, journalRecords } from '#server/db/schema/journal.ts';

type StoredRecord = { id: string; seq: number; iv: string; data: string };
/** Which cap a refused write would pass. */
export type JournalLimit = 'records' | 'bytes';
export type JournalLimits = { recordsMax: number; charsMax: number };
const columns = { id: journalRecords.id, seq: journalRecords.seq, iv: journalRecords.iv, data: journalRecords.data };

export async function getKeyring(db: Database, userId: string) {
  return (await db.select({ keyring: journalKeyrings.keyring }).from(journalKeyrings).where(eq(journalKeyrings.userId, userId))).at(0)?.keyring ?? null;
}

/** The first keyring wins: a second device setting up at the same moment is told to unlock instead. */
export async function createKeyring(db: Database, userId: string, keyring: Record<string, unknown>): Promise<boolean> {
  const rows = await db.insert(journalKeyrings).values({ userId, keyring }).onConflictDoNothing().returning({ userId: journalKeyrings.userId });
  return rows.length === 1;
}

/** JSON with every object's keys in order: jsonb hands objects back with its own key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  return JSON.stringify(value);
}

/** The generation of a stored keyring's data key (keyrings made before rotation existed carry none: 1). */
const generationOf = (keyring: Record<string, unknown> | null | undefined): number => (typeof keyring?.generation === 'number' ? keyring.generation : 1);

/** The account's keyring read inside a transaction that holds the journal's per-account lock (writes, rotation and reset take it). */
async function lockedKeyring(tx: Pick<Database, 'execute' | 'select'>, userId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`journal:${userId}`}))`);
  return (await tx.select({ keyring: journalKeyrings.keyring }).from(journalKeyrings).where(eq(journalKeyrings.userId, userId))).at(0)?.keyring ?? null;
}

/**
 * A new passphrase (or the same one under a stronger KDF: decision 0061): only the passphrase's wrap may
 * change. The recovery wrap, the data key's generation and the earlier keys must stay as they are, so a
 * stolen session cannot swap in keys of its own and lock the person out of their entries this way.
 */
export async function replacePassphrase(db: Database, userId: string, keyring: { recovery: unknown; generation?: number; previous?: unknown }): Promise<'replaced' | 'missing' | 'recovery-changed'> {
  return db.transaction(async (tx) => {
    const current = await lockedKeyring(tx, userId);
    if (!current) return 'missing' as const;
    const same = (a: unknown, b: unknown) => canonical(a ?? null) === canonical(b ?? null);
    if (!same(current.recovery, keyring.recovery) || generationOf(current) !== generationOf(keyring) || !same(current.previous, keyring.previous)) return 'recovery-changed' as const;
    await tx.update(journalKeyrings).set({ keyring, updatedAt: new Date() }).where(eq(journalKeyrings.userId, userId));
    return 'replaced' as const;
  });
}

/**
 * A rotation (issue 36, item 3; decision 0061): the keyring of the next generation replaces the current one in
 * one statement, under the lock record writes take, so from the moment it commits every write sealed under an
 * older key is refused. Only exactly the next generation is taken: of two devices rotating at once, one wins
 * and the other is told the key changed. The records are sealed again afterwards (the keyring carries the old
 * keys, so none is unreadable meanwhile).
 */
export async function rotateKeyring(db: Database, userId: string, keyring: Record<string, unknown> & { generation: number }): Promise<'rotated' | 'missing' | 'stale'> {
  return db.transaction(async (tx) => {
    const current = await lockedKeyring(tx, userId);
    if (!current) return 'missing' as const;
    if (keyring.generation !== generationOf(current) + 1) return 'stale' as const;
    await tx.update(journalKeyrings).set({ keyring, updatedAt: new Date() }).where(eq(journalKeyrings.userId, userId));
    return 'rotated' as const;
  });
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

/** How much of the account's journal the server holds: records and sealed characters (base64 is ASCII: one byte each). */
async function usageOf(db: Pick<Database, 'select'>, userId: string): Promise<{ records: number; chars: number }> {
  const [row] = await db
    .select({ records: sql<number | string>`count(*)::int`, chars: sql<number | string>`coalesce(sum(octet_length(${journalRecords.data})), 0)::bigint` })
    .from(journalRecords)
    .where(eq(journalRecords.userId, userId));
  return { records: Number(row.records), chars: Number(row.chars) };
}

/**
 * Writes if `baseSeq` is still the record's change number (null: the record must be new); else returns
 * what is there now. A write that would take the journal past a cap is refused with the cap's name.
 */
export async function writeRecord(
  db: Database,
  userId: string,
  id: string,
  { iv, data, baseSeq, generation = 1 }: { iv: string; data: string; baseSeq: number | null; generation?: number },
  limits: JournalLimits = JOURNAL_STORAGE,
): Promise<{ ok: true; seq: number } | { ok: false; current: StoredRecord | null } | { ok: false; full: JournalLimit } | { ok: false; keyGeneration: number }> {
  return db.transaction(async (tx) => {
    // One write at a time per account (for the cap, and against a rotation); other accounts' writes do not wait (a hash collision only serialises two).
    const keyring = await lockedKeyring(tx, userId);
    // Sealed under a key that is not the keyring's current one (a device that has not seen a rotation): refused (decision 0061).
    if (keyring && generation !== generationOf(keyring)) return { ok: false as const, keyGeneration: generationOf(keyring) };
    const found = (await tx.select({ ...columns, chars: sql<number>`octet_length(${journalRecords.data})` }).from(journalRecords).where(and(eq(journalRecords.userId, userId), eq(journalRecords.id, id)))).at(0);
    const current = found ? { id: found.id, seq: found.seq, iv: found.iv, data: found.data } : null;
    if (baseSeq === null ? current !== null : current?.seq !== baseSeq) return { ok: false as const, current };
    const growth = data.length - (found ? found.chars : 0);
    if (!found || growth > 0) {
      const usage = await usageOf(tx, userId);
      if (!found && usage.records >= limits.recordsMax) return { ok: false as const, full: 'records' as const };
      if (usage.chars + growth > limits.charsMax) return { ok: false as const, full: 'bytes' as const };
    }
    const [written] = found
      ? await tx
          .update(journalRecords)
          .set({ iv, data, seq: sql`nextval('journal_change_seq')`, storedAt: new Date() })
          .where(and(eq(journalRecords.userId, userId), eq(journalRecords.id, id), eq(journalRecords.seq, found.seq)))
          .returning({ seq: journalRecords.seq })
      : await tx.insert(journalRecords).values({ userId, id, iv, data }).returning({ seq: journalRecords.seq });
    return { ok: true as const, seq: written.seq };
  });
}

/**
 * "Start a new journal" (issue 36, item 3): deletes the account's keyring and every record, in one
 * transaction, so no device can unlock the old journal again and a new one can be set up. Shared links are
 * sealed under keys of their own and stay until they expire or are revoked. Answers how many records went.
 */
export async function resetJournal(db: Database, userId: string): Promise<{ deletedRecords: number }> {
  return db.transaction(async (tx) => {
    // The same per-account lock as writes: a write racing the reset lands before it (and goes) or finds no journal.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`journal:${userId}`}))`);
    const deleted = await tx.delete(journalRecords).where(eq(journalRecords.userId, userId)).returning({ id: journalRecords.id });
    await tx.delete(journalKeyrings).where(eq(journalKeyrings.userId, userId));
    return { deletedRecords: deleted.length };
  });
}

/** For the data export: how much of a journal the server holds (it cannot say more). */
export async function journalSummary(db: Database, userId: string) {
  const [row] = await db.select({ records: sql<number>`count(*)::int` }).from(journalRecords).where(eq(journalRecords.userId, userId));
  return { encryptedRecords: row.records, hasKeyring: (await getKeyring(db, userId)) !== null };
}
