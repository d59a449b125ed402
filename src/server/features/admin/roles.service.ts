/**
 * Role records (spec: user_roles). One role per user; 'user' is also the default with no record.
 * Every change an admin makes is written with its audit row in one transaction.
 */
import { desc, eq } from 'drizzle-orm';
import { ADMIN_MESSAGES as M } from '#shared/admin.ts';
import { ROLE_OPTIONS, type Role } from '#shared/roles.ts';
import { can } from '#shared/policies.ts';
import type { Database } from '#server/db/client.ts';
import { user, userRoles } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction } from '#server/features/admin/admin-audit.service.ts';
import type { ActingContext } from '#server/features/admin/request-context.ts';

export function isRole(value: string): value is Role {
  return (ROLE_OPTIONS as readonly string[]).includes(value);
}

export async function findUserByEmail(db: Database, email: string) {
  const rows = await db.select().from(user).where(eq(user.email, email.trim().toLowerCase()));
  return rows.at(0);
}

/** Assigns (or modifies) a user's role. Returns whether a record already existed. */
export async function assignRole({ db, userId, role, assignedBy }: { db: Database; userId: string; role: Role; assignedBy: string | null }) {
  const existing = await db.select({ id: userRoles.id }).from(userRoles).where(eq(userRoles.userId, userId));
  await db
    .insert(userRoles)
    .values({ userId, role, assignedBy, assignedAt: new Date() })
    .onConflictDoUpdate({ target: userRoles.userId, set: { role, assignedBy, assignedAt: new Date() } });
  return { status: existing.length ? ('modified' as const) : ('assigned' as const) };
}

export async function grantRoleByEmail({ db, email, role, assignedBy = null }: { db: Database; email: string; role: Role; assignedBy?: string | null }) {
  const target = await findUserByEmail(db, email);
  if (!target) throw new AppError('not-found', `No account found for ${email}`);
  return assignRole({ db, userId: target.id, role, assignedBy });
}

/** Every role record with its person, newest first. */
export async function listRoleRecords(db: Database) {
  const rows = await db
    .select({ id: userRoles.id, userId: userRoles.userId, role: userRoles.role, assignedBy: userRoles.assignedBy, assignedAt: userRoles.assignedAt, email: user.email, name: user.name })
    .from(userRoles)
    .innerJoin(user, eq(user.id, userRoles.userId))
    .orderBy(desc(userRoles.assignedAt));
  return rows.map((r) => ({ ...r, assignedAt: r.assignedAt.toISOString() }));
}

/** An admin gives `email` the role (spec 'Assign role'): never their own account, only an existing one. */
export async function changeRole({ db, by, email, role }: { db: Database; by: ActingContext; email: string; role: Role }) {
  if (email.toLowerCase() === by.actor.email.toLowerCase()) throw new AppError('auth/forbidden', M.ownAccount, 403);
  const target = await findUserByEmail(db, email);
  if (!target) throw new AppError('not-found', M.featureLimited, 404);
  return db.transaction(async (tx) => {
    const before = (await tx.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, target.id))).at(0);
    const { status } = await assignRole({ db: tx, userId: target.id, role, assignedBy: by.actor.id });
    await logAdminAction({
      db: tx,
      by,
      entry: {
        action: status === 'assigned' ? 'role.assign' : 'role.modify',
        targetResource: 'user_roles',
        targetId: target.id,
        changes: { email: target.email, from: before?.role ?? null, to: role },
        severity: role === 'admin' ? 'critical' : 'high',
      },
    });
    return { status };
  });
}

/** Removes a role record (the person is a plain user again); never the acting admin's own. */
export async function revokeRole({ db, by, id }: { db: Database; by: ActingContext; id: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const record = (await tx.select().from(userRoles).where(eq(userRoles.id, id))).at(0);
    if (!record) throw new AppError('not-found', 'That role record no longer exists.', 404);
    if (!can({ userId: by.actor.id, role: by.actor.role }, 'revoke-role', record)) throw new AppError('auth/forbidden', M.cannotRevokeOwn, 403);
    await tx.delete(userRoles).where(eq(userRoles.id, id));
    await logAdminAction({ db: tx, by, entry: { action: 'role.revoke', targetResource: 'user_roles', targetId: record.userId, changes: { from: record.role, to: null }, severity: 'high' } });
  });
}
