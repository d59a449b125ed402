/**
 * The admin dashboard's API: who may see what (status), the one-time setup, CSRF tokens, role
 * management, the audit and security logs, and the sandbox-only test-account tools. Every route
 * checks the role on the server (onRequest, before the body is read); the page only mirrors it.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ADMIN, ADMIN_MESSAGES as M } from '#shared/admin.ts';
import {
  adminStatusResponse,
  auditQuery,
  auditResponse,
  csrfResponse,
  resetPasswordsResponse,
  roleBody,
  roleChangeResponse,
  roleIdParams,
  roleRevokeResponse,
  rolesResponse,
  securityEventsQuery,
  securityEventsResponse,
  securityStatsResponse,
  setupBody,
  setupResponse,
  testAccountsResponse,
} from '#shared/contracts/admin.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireRole, requireUser, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { listAdminAudit } from '#server/features/admin/admin-audit.service.ts';
import { createTestAccounts, listSecurityEvents, resetTestAccountPasswords, securityStats } from '#server/features/admin/admin.service.ts';
import { issueCsrfToken } from '#server/features/admin/csrf.service.ts';
import { auditContextOf } from '#server/features/admin/request-context.ts';
import { viewerOf } from '#server/auth.ts';
import { guardRoleChange } from '#server/features/admin/role-change-guard.ts';
import { changeRole, listRoleRecords, revokeRole } from '#server/features/admin/roles.service.ts';
import { adminExists, redeemSetupToken } from '#server/features/admin/setup-token.service.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';

type Deps = { auth: Auth; db: Database; limits: RateLimitStore; sandbox: boolean };

const tags = ['admin'];
/** Admin state changes by the minute: never cached. */
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

export function adminRoutes(app: FastifyInstance, { auth, db, limits, sandbox }: Deps): void {
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);
  const admin = requireRole(auth, db, ['admin']);
  const roleChange = { onRequest: admin, preValidation: guardRoleChange({ db, limits }) };
  // ARCHITECTURE.md: test tools must not reach real users.
  const sandboxOnly = () => {
    if (!sandbox) throw new AppError('auth/forbidden', M.sandboxOnly, 403);
  };

  /** What the dashboard needs to decide its screens (the server decides access on every call). */
  api.get('/api/admin/status', { onRequest: signedIn, schema: { tags, response: { 200: adminStatusResponse } } }, async (request, reply) => {
    noStore(reply);
    const { role } = viewerOf(request);
    return { role, isAdmin: role === 'admin', canManageMeditations: role === 'admin' || role === 'editor', adminExists: await adminExists(db), sandbox, authMode: 'server-session' };
  });

  api.post('/api/admin/setup', { onRequest: signedIn, schema: { tags, body: setupBody, response: { 200: setupResponse } } }, async (request) => {
    const by = auditContextOf(request);
    try {
      await redeemSetupToken({ db, by, token: request.body.token });
    } catch (error) {
      // A wrong token is a guess (the monitor blocks the IP after repeated guesses); 'admin exists' is not.
      const reason = error instanceof AppError && error.status === 409 ? 'admin-exists' : 'invalid-token';
      await logSecurityEvent({ db, eventType: 'admin_setup_failed', severity: 'high', userId: by.actor.id, userEmail: by.actor.email, ipAddress: request.ip, details: { reason } });
      throw error;
    }
    return { role: 'admin' as const, message: M.setupGranted };
  });

  api.get('/api/admin/csrf', { onRequest: admin, schema: { tags, response: { 200: csrfResponse } } }, async (request, reply) => {
    noStore(reply);
    const { token, expiresAt } = await issueCsrfToken(db, viewerOf(request).user.id);
    return { token, expiresAt: expiresAt.toISOString() };
  });

  api.get('/api/admin/roles', { onRequest: admin, schema: { tags, response: { 200: rolesResponse } } }, async (_request, reply) => {
    noStore(reply);
    return { roles: await listRoleRecords(db) };
  });

  api.post('/api/admin/roles', { ...roleChange, schema: { tags, body: roleBody, response: { 200: roleChangeResponse } } }, async (request) => {
    const { status } = await changeRole({ db, by: auditContextOf(request), email: request.body.email, role: request.body.role });
    return { status, message: status === 'assigned' ? M.roleAssigned : M.roleModified };
  });

  api.delete('/api/admin/roles/:id', { ...roleChange, schema: { tags, params: roleIdParams, response: { 200: roleRevokeResponse } } }, async (request) => {
    await revokeRole({ db, by: auditContextOf(request), id: request.params.id });
    return { message: M.roleRevoked };
  });

  api.get('/api/admin/audit', { onRequest: admin, schema: { tags, querystring: auditQuery, response: { 200: auditResponse } } }, async (request, reply) => {
    noStore(reply);
    return { events: await listAdminAudit({ db, severity: request.query.severity, limit: ADMIN.auditShown }) };
  });

  api.get('/api/admin/security/events', { onRequest: admin, schema: { tags, querystring: securityEventsQuery, response: { 200: securityEventsResponse } } }, async (request, reply) => {
    noStore(reply);
    return { events: await listSecurityEvents({ db, ...request.query }) };
  });

  api.get('/api/admin/security/stats', { onRequest: admin, schema: { tags, response: { 200: securityStatsResponse } } }, async (_request, reply) => {
    noStore(reply);
    return securityStats({ db });
  });

  api.post('/api/admin/test-accounts', { onRequest: admin, schema: { tags, response: { 200: testAccountsResponse } } }, async (request) => {
    sandboxOnly();
    return createTestAccounts({ db, auth, by: auditContextOf(request) });
  });

  api.post('/api/admin/test-accounts/reset-passwords', { onRequest: admin, schema: { tags, response: { 200: resetPasswordsResponse } } }, async (request) => {
    sandboxOnly();
    return resetTestAccountPasswords({ db, auth, by: auditContextOf(request) });
  });
}
