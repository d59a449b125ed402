/**
 * The admin dashboard's API: who may see what (status), the one-time setup, CSRF tokens, role
 * management, the audit and security logs, and the sandbox-only test-account tools. Every route
 * checks the role on the server; the page only mirrors it.
 */
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN, ADMIN_MESSAGES, EVENT_TYPE_OPTIONS, ROLE_OPTIONS, SEVERITY_OPTIONS, type Role } from '#shared/admin.ts';
import { hasControlCharacters } from '#shared/validation.ts';
import { requireRole, requireUser, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { securityAuditLog, user, userRoles } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';
import { listAdminAudit, logAdminAction } from '#server/features/admin/admin-audit.service.ts';
import { issueCsrfToken, validateCsrfToken } from '#server/features/admin/csrf.service.ts';
import { adminExists, redeemSetupToken } from '#server/features/admin/setup-token.service.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { assignRole, findUserByEmail } from '#server/features/roles/roles.service.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { blockIp, countBlockedIps } from '#server/features/security/security-monitor.ts';

const M = ADMIN_MESSAGES;

const setupBody = z.object({ token: z.string().trim().min(1, M.setupTokenInvalid).max(200) });
const roleBody = z.object({ email: z.string().trim().max(254).default('').refine((v) => !hasControlCharacters(v), M.rolesRequired), role: z.string().trim().default('') });
const roleIdParams = z.object({ id: z.uuid() });
const auditQuery = z.object({ severity: z.enum(SEVERITY_OPTIONS).optional() });
const securityQuery = z.object({ severity: z.enum(SEVERITY_OPTIONS).optional(), eventType: z.enum(EVENT_TYPE_OPTIONS).optional() });

/** The sandbox test accounts (documented in the README; only ever created in sandbox mode). */
export const TEST_ACCOUNTS = [
  { email: 'sandbox-user@harbourmind.test', name: 'Sandbox User', role: 'user', subscribed: false },
  { email: 'sandbox-subscriber@harbourmind.test', name: 'Sandbox Subscriber', role: 'user', subscribed: true },
  { email: 'sandbox-editor@harbourmind.test', name: 'Sandbox Editor', role: 'editor', subscribed: false },
] as const;
export const TEST_ACCOUNT_PASSWORD = 'harbour-sandbox-1';

type Deps = { auth: Auth; db: Database; limits: RateLimitStore; sandbox: boolean };

export function adminRoutes(app: FastifyInstance, { auth, db, limits, sandbox }: Deps): void {
  const signedIn = { preHandler: requireUser(auth, db) };
  const admin = { preHandler: requireRole(auth, db, ['admin']) };

  /** What the dashboard needs to decide its screens (the server decides access on every call). */
  app.get('/api/admin/status', signedIn, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const viewer = request.viewer!;
    return { role: viewer.role, isAdmin: viewer.role === 'admin', canManageMeditations: viewer.role === 'admin' || viewer.role === 'editor', adminExists: await adminExists(db), sandbox, authMode: 'server-session' };
  });

  app.post('/api/admin/setup', signedIn, async (request) => {
    const { token } = setupBody.parse(request.body ?? {});
    const viewer = request.viewer!;
    try {
      await redeemSetupToken(db, viewer.user.id, token);
    } catch (error) {
      // A wrong token is a guess (the monitor blocks the IP after repeated guesses); 'admin exists' is not.
      const reason = error instanceof AppError && error.status === 409 ? 'admin-exists' : 'invalid-token';
      await logSecurityEvent({ db, eventType: 'admin_setup_failed', severity: 'high', userId: viewer.user.id, userEmail: viewer.user.email, ipAddress: request.ip, details: { reason } });
      throw error;
    }
    await logAdminAction(db, request, { action: 'admin.setup', targetResource: 'user_roles', targetId: viewer.user.id, changes: { role: 'admin' }, severity: 'critical' });
    return { role: 'admin', message: M.setupGranted };
  });

  app.get('/api/admin/csrf', admin, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { token, expiresAt } = await issueCsrfToken(db, request.viewer!.user.id);
    return { token, expiresAt: expiresAt.toISOString() };
  });

  app.get('/api/admin/roles', admin, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const rows = await db
      .select({ id: userRoles.id, userId: userRoles.userId, role: userRoles.role, assignedBy: userRoles.assignedBy, assignedAt: userRoles.assignedAt, email: user.email, name: user.name })
      .from(userRoles)
      .innerJoin(user, eq(user.id, userRoles.userId))
      .orderBy(desc(userRoles.assignedAt));
    return { roles: rows.map((r) => ({ ...r, assignedAt: r.assignedAt.toISOString() })) };
  });

  /**
   * CSRF and the role-change rate limit guard both assignment and revocation. Going over the limit also
   * blocks the IP for 30 minutes (spec rate-limit defaults: 10 attempts, 15 minute window, 30 minute block).
   */
  const guardRoleChange = async (request: Parameters<typeof logAdminAction>[1]) => {
    const viewer = request.viewer!;
    const token = request.headers['x-csrf-token'];
    if (!(await validateCsrfToken(db, viewer.user.id, typeof token === 'string' ? token : undefined))) {
      await logSecurityEvent({ db, eventType: 'csrf_rejected', severity: 'high', userId: viewer.user.id, userEmail: viewer.user.email, ipAddress: request.ip });
      throw new AppError('auth/forbidden', M.securityErrorBody, 403, { reason: 'csrf' });
    }
    const { count } = await limits.hit(`role-change:${viewer.user.id}`, ADMIN.roleWindowMs, request.ip);
    if (count > ADMIN.roleChangesPerWindow) {
      await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userId: viewer.user.id, userEmail: viewer.user.email, ipAddress: request.ip, details: { action: 'role-change' } });
      // The refusal stands even if the block cannot be written (logged, never a 500).
      await blockIp({ db, ip: request.ip, reason: 'role_change_limit', userId: viewer.user.id, userEmail: viewer.user.email }).catch((error: Error) =>
        request.log.warn({ err: { message: error.message } }, 'could not block the IP after the role-change limit'),
      );
      throw new AppError('rate-limit/exceeded', M.rateLimitBody, 429);
    }
  };

  app.post('/api/admin/roles', admin, async (request) => {
    await guardRoleChange(request);
    const input = roleBody.parse(request.body ?? {});
    if (!input.email || !input.role) throw new AppError('validation/invalid-input', M.rolesRequired, 400);
    if (!(ROLE_OPTIONS as readonly string[]).includes(input.role)) throw new AppError('validation/invalid-input', M.rolesRequired, 400);
    const viewer = request.viewer!;
    if (input.email.toLowerCase() === viewer.user.email.toLowerCase()) throw new AppError('auth/forbidden', M.ownAccount, 403);
    const target = await findUserByEmail(db, input.email);
    if (!target) throw new AppError('not-found', M.featureLimited, 404);
    const [before] = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, target.id));
    const { status } = await assignRole({ db, userId: target.id, role: input.role as Role, assignedBy: viewer.user.id });
    await logAdminAction(db, request, {
      action: status === 'assigned' ? 'role.assign' : 'role.modify',
      targetResource: 'user_roles',
      targetId: target.id,
      changes: { email: target.email, from: before?.role ?? null, to: input.role },
      severity: input.role === 'admin' ? 'critical' : 'high',
    });
    return { status, message: status === 'assigned' ? M.roleAssigned : M.roleModified };
  });

  app.delete('/api/admin/roles/:id', admin, async (request) => {
    await guardRoleChange(request);
    const { id } = roleIdParams.parse(request.params);
    const [record] = await db.select().from(userRoles).where(eq(userRoles.id, id));
    if (!record) throw new AppError('not-found', 'That role record no longer exists.', 404);
    if (record.userId === request.viewer!.user.id) throw new AppError('auth/forbidden', M.cannotRevokeOwn, 403);
    await db.delete(userRoles).where(eq(userRoles.id, id));
    await logAdminAction(db, request, { action: 'role.revoke', targetResource: 'user_roles', targetId: record.userId, changes: { from: record.role, to: null }, severity: 'high' });
    return { message: M.roleRevoked };
  });

  app.get('/api/admin/audit', admin, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { severity } = auditQuery.parse(request.query);
    const rows = await listAdminAudit(db, { severity, limit: ADMIN.auditShown });
    return { events: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
  });

  app.get('/api/admin/security/events', admin, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { severity, eventType } = securityQuery.parse(request.query);
    const filters = [severity ? eq(securityAuditLog.severity, severity) : undefined, eventType ? eq(securityAuditLog.eventType, eventType) : undefined].filter(Boolean);
    const rows = await db
      .select()
      .from(securityAuditLog)
      .where(filters.length ? and(...filters) : undefined)
      .orderBy(desc(securityAuditLog.createdAt))
      .limit(ADMIN.securityLimit);
    return { events: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
  });

  app.get('/api/admin/security/stats', admin, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const now = Date.now();
    const dayAgo = new Date(now - 24 * 3600_000);
    const hourAgo = new Date(now - 3600_000);
    const count = sql<number>`count(*)::int`;
    const [[total], [critical], [threats], blockedIps, recent] = await Promise.all([
      db.select({ n: count }).from(securityAuditLog).where(gte(securityAuditLog.createdAt, dayAgo)),
      db.select({ n: count }).from(securityAuditLog).where(and(gte(securityAuditLog.createdAt, dayAgo), eq(securityAuditLog.severity, 'critical'))),
      db.select({ n: count }).from(securityAuditLog).where(and(gte(securityAuditLog.createdAt, hourAgo), inArray(securityAuditLog.severity, ['critical', 'high']))),
      countBlockedIps({ db }),
      db.select().from(securityAuditLog).orderBy(desc(securityAuditLog.createdAt)).limit(ADMIN.recentEvents),
    ]);
    return {
      totalAlerts24h: total?.n ?? 0,
      criticalAlerts: critical?.n ?? 0,
      recentThreats1h: threats?.n ?? 0,
      blockedIps,
      recent: recent.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    };
  });

  // ---- sandbox-only test tools (ARCHITECTURE.md: test tools must not reach real users)

  const sandboxOnly = () => {
    if (!sandbox) throw new AppError('auth/forbidden', M.sandboxOnly, 403);
  };

  app.post('/api/admin/test-accounts', admin, async (request) => {
    sandboxOnly();
    const results = [];
    for (const account of TEST_ACCOUNTS) {
      let target = await findUserByEmail(db, account.email);
      const created = !target;
      if (!target) {
        const response = await auth.api.signUpEmail({ body: { email: account.email, password: TEST_ACCOUNT_PASSWORD, name: account.name } });
        target = { ...(await findUserByEmail(db, response.user.email))! };
      }
      await db.update(user).set({ emailVerified: true }).where(eq(user.id, target.id));
      if (account.role !== 'user') await assignRole({ db, userId: target.id, role: account.role, assignedBy: request.viewer!.user.id });
      if (account.subscribed) {
        await syncSubscription({ db, userId: target.id, snapshot: { provider: 'comped', status: 'active', plan: 'comped', currentPeriodEnd: new Date(Date.now() + 30 * 24 * 3600_000), environment: 'sandbox' } });
      }
      results.push({ email: account.email, role: account.role, subscribed: account.subscribed, status: created ? 'created' : 'exists' });
    }
    await logAdminAction(db, request, { action: 'test-accounts.create', targetResource: 'user', changes: { accounts: results.map((r) => r.email) }, severity: 'low' });
    return { success: true, error: null, results, password: TEST_ACCOUNT_PASSWORD };
  });

  app.post('/api/admin/test-accounts/reset-passwords', admin, async (request) => {
    sandboxOnly();
    const context = await auth.$context;
    const hashed = await context.password.hash(TEST_ACCOUNT_PASSWORD);
    const results = [];
    for (const account of TEST_ACCOUNTS) {
      const target = await findUserByEmail(db, account.email);
      if (!target) {
        results.push({ email: account.email, status: 'missing' });
        continue;
      }
      await context.internalAdapter.updatePassword(target.id, hashed);
      results.push({ email: account.email, status: 'reset' });
    }
    await logAdminAction(db, request, { action: 'test-accounts.reset-passwords', targetResource: 'user', changes: { accounts: results.map((r) => r.email) }, severity: 'medium' });
    return { success: true, error: null, results };
  });
}
