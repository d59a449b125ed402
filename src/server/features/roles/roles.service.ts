/** Role records (spec: user_roles). One role per user; 'user' is also the default with no record. */
import { eq } from 'drizzle-orm';
import { ROLE_OPTIONS, type Role } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { user, userRoles } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';

export function isRole(value: string): value is Role {
  return (ROLE_OPTIONS as readonly string[]).includes(value);
}

export async function findUserByEmail(db: Database, email: string) {
  const [row] = await db.select().from(user).where(eq(user.email, email.trim().toLowerCase()));
  return row;
}

/** Assigns (or modifies) a user's role. Returns whether a record already existed. */
export async function assignRole({ db, userId, role, assignedBy }: { db: Database; userId: string; role: Role; assignedBy: string | null }) {
  const [existing] = await db.select({ id: userRoles.id }).from(userRoles).where(eq(userRoles.userId, userId));
  await db
    .insert(userRoles)
    .values({ userId, role, assignedBy, assignedAt: new Date() })
    .onConflictDoUpdate({ target: userRoles.userId, set: { role, assignedBy, assignedAt: new Date() } });
  return { status: existing ? ('modified' as const) : ('assigned' as const) };
}

export async function grantRoleByEmail({ db, email, role, assignedBy = null }: { db: Database; email: string; role: Role; assignedBy?: string | null }) {
  const target = await findUserByEmail(db, email);
  if (!target) throw new AppError('not-found', `No account found for ${email}`);
  return assignRole({ db, userId: target.id, role, assignedBy });
}
