/** The beta waitlist (spec: waitlist_entries). */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { stampedAt } from './columns.ts';

export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    reason: text('reason'),
    createdAt: stampedAt('created_at'),
  },
  // One entry per address whatever its case: the database enforces it (23505 on a duplicate).
  // The admin's table pages by (created_at, id), newest first (a backward scan; see security_audit_log).
  (t) => [uniqueIndex('waitlist_entries_email_lower_idx').on(sql`lower(${t.email})`), index('waitlist_entries_created_id_idx').on(t.createdAt, t.id)],
);
