import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '#server/app.ts';
import { requirePolicy, requireUser } from '#server/auth.ts';
import { grantRoleByEmail } from '#server/features/admin/roles.service.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

describe('requireUser / requirePolicy hooks', () => {
  let t: TestApp;
  let app: App;
  beforeAll(async () => {
    t = await createTestApp();
    // A second app over the same database, with probe routes guarded by the hooks.
    app = await buildApp({ config: t.config, database: t.database, logger: false });
    app.get('/api/probe/user', { preHandler: requireUser(app.auth, t.database.db) }, (req) => Promise.resolve({ id: req.viewer!.user.id, role: req.viewer!.role }));
    app.get('/api/probe/admin', { preHandler: requirePolicy(app.auth, t.database.db, 'admin') }, () => Promise.resolve({ ok: true }));
    app.get('/api/probe/editor', { preHandler: requirePolicy(app.auth, t.database.db, 'staff') }, () => Promise.resolve({ ok: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('answers 401 to anonymous requests and 403 to the wrong role', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/probe/user' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/probe/admin' })).json().error.message).toBe('User not authenticated');

    const { cookie } = await createSignedInUser(t, 'role@example.com');
    expect((await app.inject({ method: 'GET', url: '/api/probe/user', headers: { cookie } })).json().role).toBe('user');
    const denied = await app.inject({ method: 'GET', url: '/api/probe/admin', headers: { cookie } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('Access denied. Admin privileges required.');

    await grantRoleByEmail({ db: t.database.db, email: 'role@example.com', role: 'editor' });
    expect((await app.inject({ method: 'GET', url: '/api/probe/editor', headers: { cookie } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/probe/admin', headers: { cookie } })).statusCode).toBe(403);

    await grantRoleByEmail({ db: t.database.db, email: 'role@example.com', role: 'admin' });
    expect((await app.inject({ method: 'GET', url: '/api/probe/admin', headers: { cookie } })).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json().role).toBe('admin');
  });

  it('rejects a forged or expired session cookie', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/probe/user', headers: { cookie: 'better-auth.session_token=forged.value' } });
    expect(res.statusCode).toBe(401);
  });
});
