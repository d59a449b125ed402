/**
 * The admin audit log, kept on the server (the spec's browser-only log could be erased by the
 * person it records). Every admin action writes who, what, target, changes and when — in the
 * transaction of the change it records, so there is never a change without its row or a row
 * without its change.
 */
import { desc, eq } from 'drizzle-orm';
import type { Severity } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { redactDetails } from '#server/features/security/security-audit.service.ts';

/** Who acted and from where: a plain value the route builds from its request (see request-context.ts). */
export type AuditContext = {
  actor: { id: string; email: string } | null;
  ip: string;
  userAgent: string | null;
};

export type AdminAction = {
  action: string;
  targetResource: string;
  targetId?: string | null;
  changes?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  severity?: Severity;
};

/** Writes one audit row. Pass the transaction (`tx`) of the change being recorded as `db`. */
export async function logAdminAction({ db, by, entry }: { db: Database; by: AuditContext; entry: AdminAction }): Promise<void> {
  await db.insert(adminAuditLog).values({
    adminUserId: by.actor?.id ?? null,
    adminEmail: by.actor?.email ?? null,
    action: entry.action,
    targetResource: entry.targetResource,
    targetId: entry.targetId ?? null,
    changes: redactDetails(entry.changes ?? {}),
    metadata: redactDetails({ ip: by.ip, ...entry.metadata }),
    userAgent: by.userAgent,
    severity: entry.severity ?? 'medium',
  });
}

/** The newest audit rows, dates as ISO strings (the wire format of the audit contract). */
export async function listAdminAudit({ db, severity, limit }: { db: Database; severity?: Severity; limit: number }) {
  const rows = await db
    .select()
    .from(adminAuditLog)
    .where(severity ? eq(adminAuditLog.severity, severity) : undefined)
    .orderBy(desc(adminAuditLog.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
