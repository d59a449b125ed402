/**
 * Shared entries (issue 36, item 5; decision 0050). The server holds what the owner's device sealed
 * under a key it never receives: it can count views and forget the row, never read it. A link works
 * until it expires or its owner revokes it; either way the row (ciphertext and all) is deleted, by the
 * revocation at once, or by the sweeper soon after expiry (a read after expiry already refuses it).
 */
import { and, asc, count, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { SHARE_LINKS_MAX, type ShareExpiryDays } from '#shared/journal-share.ts';
import type { Database } from '#server/db/client.ts';
import { journalShares } from '#server/db/schema/journal.ts';
import { startBackgroundJob } from '#server/background-job.ts';

const DAY_MS = 86_400_000;
/** How often each process deletes expired links: a link's ciphertext outlives its expiry by at most this. */
const SWEEP_EVERY_MS = 15 * 60_000;
/** Rows deleted per statement, so one sweep never holds a long lock. */
const SWEEP_BATCH = 500;

const linkColumns = { id: journalShares.id, createdAt: journalShares.createdAt, expiresAt: journalShares.expiresAt, views: journalShares.views };
const asLink = (row: { id: string; createdAt: Date; expiresAt: Date; views: number }) => ({ id: row.id, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(), views: row.views });

/**
 * Stores a sealed entry for `expiresInDays`; null when the account already holds SHARE_LINKS_MAX live
 * links (counted under a per-account lock, so parallel requests cannot pass the cap together).
 */
export async function createShare({ db, userId, iv, data, expiresInDays, now = new Date() }: { db: Database; userId: string; iv: string; data: string; expiresInDays: ShareExpiryDays; now?: Date }) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`journal-share:${userId}`}))`);
    const [{ live }] = await tx.select({ live: count() }).from(journalShares).where(and(eq(journalShares.userId, userId), gt(journalShares.expiresAt, now)));
    if (live >= SHARE_LINKS_MAX) return null;
    const [row] = await tx
      .insert(journalShares)
      .values({ userId, iv, data, createdAt: now, expiresAt: new Date(now.getTime() + expiresInDays * DAY_MS) })
      .returning(linkColumns);
    return asLink(row);
  });
}

/** The owner's live links, newest first. */
export async function listShares({ db, userId, now = new Date() }: { db: Database; userId: string; now?: Date }) {
  const rows = await db
    .select(linkColumns)
    .from(journalShares)
    .where(and(eq(journalShares.userId, userId), gt(journalShares.expiresAt, now)))
    .orderBy(desc(journalShares.createdAt));
  return rows.map(asLink);
}

/**
 * A recipient opens a link: the sealed entry, counted as one more view, or null when no live link has
 * that id (never existed, revoked, or expired: the reader cannot tell which, nor whose it was).
 */
export async function readShare({ db, id, now = new Date() }: { db: Database; id: string; now?: Date }) {
  const row = (
    await db
      .update(journalShares)
      .set({ views: sql`${journalShares.views} + 1` })
      .where(and(eq(journalShares.id, id), gt(journalShares.expiresAt, now)))
      .returning({ iv: journalShares.iv, data: journalShares.data, expiresAt: journalShares.expiresAt })
  ).at(0);
  return row ? { iv: row.iv, data: row.data, expiresAt: row.expiresAt.toISOString() } : null;
}

/** Deletes the owner's link at once, ciphertext and all; false when the owner has no such link (another account's is not theirs to revoke). */
export async function revokeShare({ db, userId, id }: { db: Database; userId: string; id: string }): Promise<boolean> {
  const gone = await db
    .delete(journalShares)
    .where(and(eq(journalShares.id, id), eq(journalShares.userId, userId)))
    .returning({ id: journalShares.id });
  return gone.length > 0;
}

/** The export's view of a person's links: when, until when, how often opened (the ciphertext is useless without keys only the links hold). */
export async function sharesForExport(db: Database, userId: string) {
  const rows = await db.select(linkColumns).from(journalShares).where(eq(journalShares.userId, userId)).orderBy(asc(journalShares.createdAt));
  return rows.map(asLink);
}

/** Deletes every expired link; returns how many. */
export async function sweepExpiredShares({ db, now = new Date() }: { db: Database; now?: Date }): Promise<number> {
  let swept = 0;
  for (;;) {
    const batch = db.select({ id: journalShares.id }).from(journalShares).where(lte(journalShares.expiresAt, now)).limit(SWEEP_BATCH);
    const gone = await db.delete(journalShares).where(inArray(journalShares.id, batch)).returning({ id: journalShares.id });
    swept += gone.length;
    if (gone.length < SWEEP_BATCH) return swept;
  }
}

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * Every process sweeps now and every SWEEP_EVERY_MS (as the trial reminders run); two processes
 * sweeping together only delete the same rows once. Returns the stop function for onClose.
 */
export function startShareSweeper({ db, log, everyMs = SWEEP_EVERY_MS, firstAfterMs = 5_000 }: { db: Database; log: Log; everyMs?: number; /** The first sweep, once start-up is over. */ firstAfterMs?: number }): () => Promise<void> {
  return startBackgroundJob({
    log,
    failure: 'expired shared links not swept; will retry',
    everyMs,
    firstAfterMs,
    run: async () => {
      const swept = await sweepExpiredShares({ db });
      if (swept > 0) log.info({ swept }, 'expired shared journal links deleted');
    },
  });
}
