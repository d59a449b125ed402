/**
 * When a check cannot run (its table is gone, the database fails), admin actions are refused with
 * the spec's words ('Security Check Failed': 'Unable to verify rate limits. Please try again.';
 * 'Database Error': 'Unable to verify admin status'), never a bare 500, and nothing changes.
 * The failures are real: the tables the checks read are dropped from a database of the test's own.
 */
import { sql, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { user, userRoles } from '#server/db/schema/auth.ts';
import { createSignedInUser, origin, createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { PGLITE_ONLY } from '#tests/setup/test-db.ts';

describe.each(PGLITE_ONLY)('admin checks that cannot run, on %s', (kind) => {
  it("refuses a role change with 'Unable to verify rate limits' when the limit cannot be counted", async () => {
    const t = await createTestApp({ kind });
    try {
      const admin = await createSignedInStaff(t, 'checks-admin@example.com', 'admin');
      const target = await createSignedInUser(t, 'checks-target@example.com');
      const token = (await t.app.inject({ method: 'GET', url: '/api/admin/csrf', headers: { cookie: admin.cookie } })).json<{ token: string }>().token;

      await t.database.db.execute(sql`drop table rate_limits`);
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/roles', headers: { cookie: admin.cookie, 'x-csrf-token': token, ...origin(t) }, payload: { email: 'checks-target@example.com', role: 'editor' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'security/check-failed', message: ERROR_TEXT['security/check-failed'] } });
      expect(ERROR_TEXT['security/check-failed']).toBe('Unable to verify rate limits. Please try again.');
      expect(await t.database.db.select().from(userRoles).where(eq(userRoles.userId, target.userId))).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it("answers admin routes with 'Unable to verify admin status' when the role cannot be read", async () => {
    const t = await createTestApp({ kind });
    try {
      const admin = await createSignedInStaff(t, 'checks-admin2@example.com', 'admin');
      await t.database.db.execute(sql`drop table user_roles cascade`);
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/roles', headers: { cookie: admin.cookie } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'admin/check-failed', message: 'Unable to verify admin status' } });
      // Still a person with an account: nothing about them was touched.
      expect(await t.database.db.select().from(user).where(eq(user.id, admin.userId))).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
