/** The security log: authoritative security events (the browser keeps only a diagnostic copy). */
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { Severity } from '#shared/admin.ts';
import { stampedAt } from './columns.ts';

/** Authoritative security events (the browser keeps only a diagnostic copy). */
export const securityAuditLog = pgTable(
  'security_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventType: text('event_type').notNull(),
    severity: text('severity').$type<Severity>().notNull(),
    userId: text('user_id'),
    userEmail: text('user_email'),
    ipAddress: text('ip_address'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: stampedAt('created_at'),
  },
  (t) => [
    // Ascending keys: a btree is read backwards for `order by … desc`. (drizzle's `.desc()` makes
    // `DESC NULLS LAST`, which `order by created_at desc` — nulls first — cannot use: migration 0007.)
    index('security_audit_log_created_at_idx').on(t.createdAt),
    // The Security Log's filters, each already in page order.
    index('security_audit_log_event_type_idx').on(t.eventType, t.createdAt),
    index('security_audit_log_severity_idx').on(t.severity, t.createdAt),
    // A person's own events, for their data export and for scrubbing them when the account is deleted (issue 18).
    index('security_audit_log_user_idx').on(t.userId),
    index('security_audit_log_user_email_idx').on(sql`lower(${t.userEmail})`),
    check('security_audit_log_severity_check', sql`${t.severity} in ('critical', 'high', 'medium', 'low')`),
  ],
);
