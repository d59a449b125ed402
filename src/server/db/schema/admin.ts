/**
 * Administration tables: the server-side admin audit log (the spec kept it in
 * the browser), CSRF tokens for role changes, and the one-time admin setup token.
 */
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { Severity } from '#shared/admin.ts';
import { ownerId, user } from '#server/db/schema/auth.ts';
import { stampedAt, timestampTz } from './columns.ts';

export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminUserId: text('admin_user_id').references(() => user.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email'),
    action: text('action').notNull(),
    targetResource: text('target_resource').notNull(),
    targetId: text('target_id'),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    userAgent: text('user_agent'),
    severity: text('severity').$type<Severity>().notNull().default('medium'),
    createdAt: stampedAt('created_at'),
  },
  (t) => [
    index('admin_audit_log_created_at_idx').on(t.createdAt),
    index('admin_audit_log_severity_idx').on(t.severity, t.createdAt),
    check('admin_audit_log_severity_check', sql`${t.severity} in ('critical', 'high', 'medium', 'low')`),
  ],
);

/** Spec 'CSRF token record': stored hashed; 15 minutes of life. */
export const csrfTokens = pgTable(
  'csrf_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestampTz('expires_at').notNull(),
  },
  (t) => [index('csrf_tokens_user_idx').on(t.userId)],
);

/** The one-time admin setup token (hashed). A new one replaces any unused one. */
export const adminSetupTokens = pgTable('admin_setup_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: stampedAt('created_at'),
  usedAt: timestampTz('used_at'),
  usedBy: text('used_by').references(() => user.id, { onDelete: 'set null' }),
});
