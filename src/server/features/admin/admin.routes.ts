/**
 * The admin dashboard's API: who may see what (status), the one-time setup, CSRF tokens, role
 * management, the audit and security logs, and the sandbox-only test-account tools. Every route
 * checks the role on the server (onRequest, before the body is read); the page only mirrors it.
 */
import type { FastifyInstance } from 'fastify';
import { ADMIN, ADMIN_MESSAGES as M } from '#shared/admin.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { can } from '#shared/policies.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { listAdminAudit } from '#server/features/admin/admin-audit.service.ts';
import { createTestAccounts, listSecurityEvents, resetTestAccountPasswords, securityStats } from '#server/features/admin/admin.service.ts';
import { issueCsrfToken } from '#server/features/admin/csrf.service.ts';
import { auditContextOf } from '#server/features/admin/request-context.ts';
import { guardRoleChange } from '#server/features/admin/role-change-guard.ts';
import { changeRole, listRoleRecords, revokeRole } from '#server/features/admin/roles.service.ts';
import { adminExists, redeemSetupToken } from '#server/features/admin/setup-token.service.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { routeServer } from '#server/serve-route.ts';

type Deps = { auth: Auth; db: Database; limits: RateLimitStore; sandbox: boolean };

export function adminRoutes(app: FastifyInstance, { auth, db, limits, sandbox }: Deps): void {
  const serve = routeServer(app, { auth, db });
  // Role changes: the CSRF token and the per-admin rate limit, after the admin check and before the body is validated.
  const roleChange = { preValidation: guardRoleChange({ db, limits }) };
  // ARCHITECTURE.md: test tools must not reach real users.
  const sandboxOnly = () => {
    if (!sandbox) throw new AppError('auth/forbidden', M.sandboxOnly, 403);
  };

  /** What the dashboard needs to decide its screens (the server decides access on every call). */
  serve(adminApi.status, async ({ viewer }) => {
    const { role } = viewer;
    return { role, isAdmin: can(viewer, 'administer'), canManageMeditations: can(viewer, 'run-catalogue'), adminExists: await adminExists(db), sandbox, authMode: 'server-session' };
  });

  serve(adminApi.setup, async ({ body, request }) => {
    const by = auditContextOf(request);
    try {
      await redeemSetupToken({ db, by, token: body.token });
    } catch (error) {
      // A wrong token is a guess (the monitor blocks the IP after repeated guesses); 'admin exists' is not.
      const reason = error instanceof AppError && error.status === 409 ? 'admin-exists' : 'invalid-token';
      await logSecurityEvent({ db, eventType: 'admin_setup_failed', severity: 'high', userId: by.actor.id, userEmail: by.actor.email, ipAddress: request.ip, details: { reason } });
      throw error;
    }
    return { role: 'admin' as const, message: M.setupGranted };
  });

  serve(adminApi.csrf, async ({ viewer }) => {
    const { token, expiresAt } = await issueCsrfToken(db, viewer.user.id);
    return { token, expiresAt: expiresAt.toISOString() };
  });

  serve(adminApi.roles, async () => ({ roles: await listRoleRecords(db) }));

  serve(
    adminApi.assignRole,
    async ({ body, request }) => {
      const { status } = await changeRole({ db, by: auditContextOf(request), email: body.email, role: body.role });
      return { status, message: status === 'assigned' ? M.roleAssigned : M.roleModified };
    },
    roleChange,
  );

  serve(
    adminApi.revokeRole,
    async ({ params, request }) => {
      await revokeRole({ db, by: auditContextOf(request), id: params.id });
      return { message: M.roleRevoked };
    },
    roleChange,
  );

  serve(adminApi.audit, async ({ query }) => ({ events: await listAdminAudit({ db, severity: query.severity, limit: ADMIN.auditShown }) }));

  serve(adminApi.securityEvents, async ({ query }) => ({ events: await listSecurityEvents({ db, ...query }) }));

  serve(adminApi.securityStats, async () => securityStats({ db }));

  serve(adminApi.createTestAccounts, async ({ request }) => {
    sandboxOnly();
    return createTestAccounts({ db, auth, by: auditContextOf(request) });
  });

  serve(adminApi.resetTestPasswords, async ({ request }) => {
    sandboxOnly();
    return resetTestAccountPasswords({ db, auth, by: auditContextOf(request) });
  });
}
