/**
 * The admin dashboard's reads (the security log and its statistics) and the sandbox-only test-account
 * tools. Dates leave as ISO strings, the wire format of the admin contracts.
 */
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { ADMIN, type SecurityEventType, type Severity } from '#shared/admin.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { logAdminAction } from '#server/features/admin/admin-audit.service.ts';
import type { ActingContext } from '#server/features/admin/request-context.ts';
import { assignRole, findUserByEmail } from '#server/features/admin/roles.service.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { countBlockedIps } from '#server/features/security/security-monitor.ts';

/** The sandbox test accounts (documented in the README; only ever created in sandbox mode). */
const TEST_ACCOUNTS = [
  { email: 'sandbox-user@harbourmind.test', name: 'Sandbox User', role: 'user', subscribed: false },
  { email: 'sandbox-subscriber@harbourmind.test', name: 'Sandbox Subscriber', role: 'user', subscribed: true },
  { email: 'sandbox-editor@harbourmind.test', name: 'Sandbox Editor', role: 'editor', subscribed: false },
] as const;
const TEST_ACCOUNT_PASSWORD = 'harbour-sandbox-1';

const withIsoDate = <T extends { createdAt: Date }>(row: T) => ({ ...row, createdAt: row.createdAt.toISOString() });

export async function listSecurityEvents({ db, severity, eventType }: { db: Database; severity?: Severity; eventType?: SecurityEventType }) {
  const filters = [severity ? eq(securityAuditLog.severity, severity) : undefined, eventType ? eq(securityAuditLog.eventType, eventType) : undefined].filter(Boolean);
  const rows = await db
    .select()
    .from(securityAuditLog)
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(securityAuditLog.createdAt))
    .limit(ADMIN.securityLimit);
  return rows.map(withIsoDate);
}

/** The Security Log cards: alerts in 24 h, critical ones, high/critical threats in the last hour, blocked IPs. */
export async function securityStats({ db, now = Date.now() }: { db: Database; now?: number }) {
  const dayAgo = new Date(now - 24 * 3600_000);
  const hourAgo = new Date(now - 3600_000);
  const count = async (where: ReturnType<typeof and>) => (await db.select({ n: sql<number>`count(*)::int` }).from(securityAuditLog).where(where)).at(0)?.n ?? 0;
  const [totalAlerts24h, criticalAlerts, recentThreats1h, blockedIps, recent] = await Promise.all([
    count(gte(securityAuditLog.createdAt, dayAgo)),
    count(and(gte(securityAuditLog.createdAt, dayAgo), eq(securityAuditLog.severity, 'critical'))),
    count(and(gte(securityAuditLog.createdAt, hourAgo), inArray(securityAuditLog.severity, ['critical', 'high']))),
    countBlockedIps({ db }),
    db.select().from(securityAuditLog).orderBy(desc(securityAuditLog.createdAt)).limit(ADMIN.recentEvents),
  ]);
  return { totalAlerts24h, criticalAlerts, recentThreats1h, blockedIps, recent: recent.map(withIsoDate) };
}

/** Creates the sandbox accounts that are missing (verified, with their role and subscription). */
export async function createTestAccounts({ db, auth, by }: { db: Database; auth: Auth; by: ActingContext }) {
  const results = [];
  for (const account of TEST_ACCOUNTS) {
    const existing = await findUserByEmail(db, account.email);
    const userId = existing?.id ?? (await auth.api.signUpEmail({ body: { email: account.email, password: TEST_ACCOUNT_PASSWORD, name: account.name } })).user.id;
    await db.update(user).set({ emailVerified: true }).where(eq(user.id, userId));
    if (account.role !== 'user') await assignRole({ db, userId, role: account.role, assignedBy: by.actor.id });
    if (account.subscribed) {
      await syncSubscription({ db, userId, snapshot: { provider: 'comped', status: 'active', plan: 'comped', currentPeriodEnd: new Date(Date.now() + 30 * 24 * 3600_000), environment: 'sandbox' } });
    }
    results.push({ email: account.email, role: account.role, subscribed: account.subscribed, status: existing ? ('exists' as const) : ('created' as const) });
  }
  await logAdminAction({ db, by, entry: { action: 'test-accounts.create', targetResource: 'user', changes: { accounts: results.map((r) => r.email) }, severity: 'low' } });
  return { success: true as const, error: null, results, password: TEST_ACCOUNT_PASSWORD };
}

/** Puts the sandbox accounts' password back to the documented one. */
export async function resetTestAccountPasswords({ db, auth, by }: { db: Database; auth: Auth; by: ActingContext }) {
  const context = await auth.$context;
  const hashed = await context.password.hash(TEST_ACCOUNT_PASSWORD);
  const results = [];
  for (const account of TEST_ACCOUNTS) {
    const target = await findUserByEmail(db, account.email);
    if (!target) {
      results.push({ email: account.email, status: 'missing' as const });
      continue;
    }
    await context.internalAdapter.updatePassword(target.id, hashed);
    results.push({ email: account.email, status: 'reset' as const });
  }
  await logAdminAction({ db, by, entry: { action: 'test-accounts.reset-passwords', targetResource: 'user', changes: { accounts: results.map((r) => r.email) }, severity: 'medium' } });
  return { success: true as const, error: null, results };
}
