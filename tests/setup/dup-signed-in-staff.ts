/** A signed-in admin or editor for tests that reach the dashboard's routes (the role given directly, as a setup token would). */
import { assignRole } from '#server/features/admin/roles.service.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import type { TestApp } from '#tests/setup/test-app.ts';

export async function createSignedInStaff(t: TestApp, email: string, role: 'admin' | 'editor') {
  const person = await createSignedInUser(t, email);
  await assignRole({ db: t.database.db, userId: person.userId, role, assignedBy: null });
  return person;
}
