/**
 * Plain values built from a request for the admin services, which never see Fastify: the signed-in
 * viewer, and who is acting (with address and browser) for the audit log.
 */
import type { FastifyRequest } from 'fastify';
import type { Role } from '#shared/roles.ts';
import { viewerOf } from '#server/auth.ts';
import type { AuditContext } from '#server/features/admin/admin-audit.service.ts';

type Actor = { id: string; email: string; role: Role };
/** An audit context whose actor is known (every admin route is signed in). */
export type ActingContext = AuditContext & { actor: Actor };

export function auditContextOf(request: FastifyRequest): ActingContext {
  const { user, role } = viewerOf(request);
  return {
    actor: { id: user.id, email: user.email, role },
    ip: request.ip,
    userAgent: (request.headers['user-agent'] ?? '').slice(0, 300) || null,
  };
}
