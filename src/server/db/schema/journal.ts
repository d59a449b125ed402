/**
 * The journal, end-to-end encrypted (issue 18; decision 0031). The server keeps only what it cannot
 * read: the account's keyring (salts, iteration count, wrapped data keys) and sealed records under
 * opaque ids. The sequence gives every stored change a number, so a device asks "what changed since
 * N" and compare-and-set writes never lose an edit silently.
 */
import { bigint, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ownerId } from './auth.ts';
import { stampedAt, timestampTz } from './columns.ts';

export const journalChangeSeq = pgSequence('journal_change_seq');

export const journalKeyrings = pgTable('journal_keyrings', {
  userId: ownerId().primaryKey(),
  keyring: jsonb('keyring').$type<Record<string, unknown>>().notNull(),
  createdAt: stampedAt('created_at'),
  updatedAt: stampedAt('updated_at'),
});

export const journalRecords = pgTable(
  'journal_records',
  {
    userId: ownerId(),
    /** Made on the device; says nothing about the entry. */
    id: uuid('id').notNull(),
    seq: bigint('seq', { mode: 'number' })
      .notNull()
      .default(sql`nextval('journal_change_seq')`),
    iv: text('iv').notNull(),
    data: text('data').notNull(),
    storedAt: stampedAt('stored_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index('journal_records_user_seq_idx').on(t.userId, t.seq)],
);

/**
 * One entry shared by link (issue 36, item 5; decision 0050): sealed on the owner's device under a key
 * that lives only in the link's fragment. The server keeps the ciphertext, when it stops working and
 * how often it was opened; a revoked or swept link's row is deleted, ciphertext and all.
 */
export const journalShares = pgTable(
  'journal_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    iv: text('iv').notNull(),
    data: text('data').notNull(),
    views: integer('views').notNull().default(0),
    createdAt: stampedAt('created_at'),
    expiresAt: timestampTz('expires_at').notNull(),
  },
  (t) => [index('journal_shares_user_idx').on(t.userId, t.createdAt), index('journal_shares_expires_idx').on(t.expiresAt)],
);
