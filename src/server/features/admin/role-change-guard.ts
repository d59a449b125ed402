/**
 * The two locks on role changes, run before the body is even validated: the CSRF token (spec 'CSRF
 * token') and the per-admin rate limit. Going over the limit also blocks the IP for 30 minutes
 * (spec rate-limit defaults: 10 attempts, 15 minute window, 30 minute block).
 */
import type { FastifyRequest } from 'fastify';
import { ADMIN, ADMIN_MESSAGES as M } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { validateCsrfToken } from '#server/features/admin/csrf.service.ts';
import { viewerOf } from '#server/auth.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { blockIp } from '#server/features/security/security-monitor.ts';

/** A preValidation hook for the role routes (after requirePolicy, which sets the viewer). */
export function guardRoleChange({ db, limits }: { db: Database; limits: RateLimitStore }) {
  return async (request: FastifyRequest): Promise<void> => {
    const { user } = viewerOf(request);
    const who = { userId: user.id, userEmail: user.email, ipAddress: request.ip };
    const token = request.headers['x-csrf-token'];
    if (!(await validateCsrfToken(db, user.id, typeof token === 'string' ? token : undefined))) {
      await logSecurityEvent({ db, eventType: 'csrf_rejected', severity: 'high', ...who });
      throw new AppError('auth/forbidden', M.securityErrorBody, 403, { reason: 'csrf' });
    }
    let count: number;
    try {
      ({ count } = await limits.hit(`role-change:${user.id}`, ADMIN.roleWindowMs, request.ip));
    } catch (error) {
      // No change without its limit: refused, with the spec's 'Security Check Failed' words.
      request.log.error({ err: error }, 'role-change rate limit could not be checked');
      throw new AppError('security/check-failed', ERROR_TEXT['security/check-failed']);
    }
    if (count <= ADMIN.roleChangesPerWindow) return;
    await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', ...who, details: { action: 'role-change' } });
    // The refusal stands even if the block cannot be written (logged, never a 500).
    await blockIp({ db, ip: request.ip, reason: 'role_change_limit', userId: user.id, userEmail: user.email }).catch((error: unknown) => {
      request.log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'could not block the IP after the role-change limit');
    });
    throw new AppError('rate-limit/exceeded', M.rateLimitBody, 429);
  };
}
