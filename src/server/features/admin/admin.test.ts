/**
 * The admin API through real HTTP requests: who may call what (every route × every kind of
 * visitor), the one-time setup, role management with CSRF and its limit, the audit and
 * security logs, and the sandbox-only tools.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES as M } from '#shared/admin.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { userRoles } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { listAdminMeditations } from '#server/features/admin/admin-meditations.service.ts';
import { issueSetupToken } from '#server/features/admin/setup-token.service.ts';
import { syncSubscription } from '#server/features/billing/subscriptions.service.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser, nextIp, origin, signIn, createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

type Who = 'anonymous' | 'user' | 'subscriber' | 'editor' | 'admin';

describe.each(testDatabaseKinds())('admin API on %s', (kind) => {
  let t: TestApp;
  const people = {} as Record<Exclude<Who, 'anonymous'>, { cookie: string; userId: string; email: string }>;

  beforeAll(async () => {
    t = await createTestApp({ kind });
    for (const who of ['user', 'subscriber', 'editor', 'admin'] as const) {
      const email = `${who}@example.com`;
      people[who] = { ...(await createSignedInUser(t, email)), email };
    }
    await syncSubscription({ db: t.database.db, userId: people.subscriber.userId, snapshot: { provider: 'comped', status: 'active', plan: 'comped', currentPeriodEnd: new Date(Date.now() + 864e5), environment: 'test' } });
    await assignRole({ db: t.database.db, userId: people.editor.userId, role: 'editor', assignedBy: null });
    await assignRole({ db: t.database.db, userId: people.admin.userId, role: 'admin', assignedBy: null });
  });
  afterAll(() => t.close());

  // Each person from their own address: refusals on staff routes are probes (probe-log.ts) and, past the
  // threat score, block their address from role changes; the matrix's refusals must not block the admin.
  const addressOf: Record<Who, string> = { anonymous: '198.18.0.1', user: '198.18.0.2', subscriber: '198.18.0.3', editor: '198.18.0.4', admin: '198.18.0.5' };
  const call = (method: string, url: string, who: Who, payload?: object, headers: Record<string, string> = {}, remoteAddress = addressOf[who]) =>
    t.app.inject({ method: method as 'GET', url, headers: { ...origin(t), ...(who === 'anonymous' ? {} : { cookie: people[who].cookie }), ...headers }, payload, remoteAddress });

  describe('authorization matrix', () => {
    const adminOnly: [string, string][] = [
      ['GET', '/api/admin/waitlist'],
      ['GET', '/api/admin/waitlist/export'],
      ['DELETE', '/api/admin/waitlist'],
      ['POST', '/api/admin/waitlist/test-data'],
      ['GET', '/api/admin/csrf'],
      ['GET', '/api/admin/roles'],
      ['POST', '/api/admin/roles'],
      ['DELETE', '/api/admin/roles/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/security/events'],
      ['GET', '/api/admin/security/stats'],
      ['POST', '/api/admin/test-accounts'],
      ['POST', '/api/admin/test-accounts/reset-passwords'],
    ];
    const staff: [string, string][] = [
      ['GET', '/api/admin/meditations'],
      ['POST', '/api/admin/meditations'],
      ['PATCH', '/api/admin/meditations/00000000-0000-4000-8000-000000000000'],
      ['DELETE', '/api/admin/meditations/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/admin/meditations/00000000-0000-4000-8000-000000000000/download'],
    ];
    const expected = (who: Who, allowed: readonly Who[]) => (who === 'anonymous' ? [401] : allowed.includes(who) ? 'allowed' : [403]);

    it.each(['anonymous', 'user', 'subscriber', 'editor', 'admin'] as const)('answers %s correctly on every admin route', async (who) => {
      for (const [routes, allowed] of [
        [adminOnly, ['admin']],
        [staff, ['admin', 'editor']],
      ] as const) {
        for (const [method, url] of routes) {
          // Read-only probes for allowed callers, so the matrix changes nothing.
          const want = expected(who, allowed);
          if (want === 'allowed' && method !== 'GET' && !url.includes('00000000')) continue;
          const res = await call(method, url, who, method === 'GET' ? undefined : {});
          // Allowed callers get past the role check (a CSRF refusal on a role change is the next lock, not the role).
          if (want === 'allowed') {
            expect(res.statusCode, `${who} ${method} ${url}`).not.toBe(401);
            if (res.statusCode === 403) expect(res.json().error.message, `${who} ${method} ${url}`).not.toBe(M.forbidden);
          }
          else {
            expect(res.statusCode, `${who} ${method} ${url}`).toBe(want[0]);
            if (res.statusCode === 403) expect(res.json().error.message).toBe(M.forbidden);
          }
        }
      }
    });

    it('tells the page who is asking, without granting anything', async () => {
      expect((await call('GET', '/api/admin/status', 'anonymous')).statusCode).toBe(401);
      expect((await call('GET', '/api/admin/status', 'user')).json()).toMatchObject({ role: 'user', isAdmin: false, canManageMeditations: false, adminExists: true, sandbox: true });
      expect((await call('GET', '/api/admin/status', 'editor')).json()).toMatchObject({ role: 'editor', isAdmin: false, canManageMeditations: true });
      expect((await call('GET', '/api/admin/status', 'admin')).json()).toMatchObject({ role: 'admin', isAdmin: true });
    });
  });

  describe('roles', () => {
    const csrf = async () => (await call('GET', '/api/admin/csrf', 'admin')).json().token as string;

    it('needs a valid CSRF token for every change', async () => {
      for (const headers of [{}, { 'x-csrf-token': 'made-up' }] as Record<string, string>[]) {
        const res = await call('POST', '/api/admin/roles', 'admin', { email: 'user@example.com', role: 'editor' }, headers);
        expect(res.statusCode).toBe(403);
        expect(res.json().error.message).toBe(M.securityErrorBody);
      }
      // Another admin's token is not yours.
      const other = await createSignedInStaff(t, 'other-admin@example.com', 'admin');
      const foreign = (await t.app.inject({ method: 'GET', url: '/api/admin/csrf', headers: { cookie: other.cookie } })).json().token;
      expect((await call('POST', '/api/admin/roles', 'admin', { email: 'user@example.com', role: 'editor' }, { 'x-csrf-token': foreign })).statusCode).toBe(403);
      const [row] = await t.database.db.select().from(userRoles).where(eq(userRoles.userId, people.user.userId));
      expect(row).toBeUndefined();
      expect((await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'csrf_rejected'))).length).toBeGreaterThanOrEqual(3);
    });

    it('applies the spec rules and messages', async () => {
      const token = await csrf();
      const post = (payload: object) => call('POST', '/api/admin/roles', 'admin', payload, { 'x-csrf-token': token });
      expect((await post({ email: '', role: 'editor' })).json().error.message).toBe(M.rolesRequired);
      expect((await post({ email: 'user@example.com', role: '' })).json().error.message).toBe(M.rolesRequired);
      expect((await post({ email: 'user@example.com', role: 'owner' })).json().error.message).toBe(M.rolesRequired);
      const own = await post({ email: 'ADMIN@example.com', role: 'user' });
      expect(own.statusCode).toBe(403);
      expect(own.json().error.message).toBe(M.ownAccount);
      const nobody = await post({ email: 'nobody@example.com', role: 'editor' });
      expect(nobody.json().error.message).toBe(M.featureLimited);

      const assigned = await post({ email: 'user@example.com', role: 'editor' });
      expect(assigned.statusCode).toBe(200);
      expect(assigned.json()).toEqual({ status: 'assigned', message: M.roleAssigned });
      const modified = await post({ email: 'user@example.com', role: 'user' });
      expect(modified.json()).toEqual({ status: 'modified', message: M.roleModified });

      const list = (await call('GET', '/api/admin/roles', 'admin')).json().roles as { id: string; email: string; userId: string; assignedBy: string }[];
      const record = list.find((r) => r.email === 'user@example.com')!;
      expect(record.assignedBy).toBe(people.admin.userId);
      const mine = list.find((r) => r.userId === people.admin.userId)!;
      const revokeOwn = await call('DELETE', `/api/admin/roles/${mine.id}`, 'admin', undefined, { 'x-csrf-token': token });
      expect(revokeOwn.statusCode).toBe(403);
      expect(revokeOwn.json().error.message).toBe(M.cannotRevokeOwn);
      const revoke = await call('DELETE', `/api/admin/roles/${record.id}`, 'admin', undefined, { 'x-csrf-token': token });
      expect(revoke.json()).toEqual({ message: M.roleRevoked });

      // Every change is in the audit log, with who did it.
      const audit = (await call('GET', '/api/admin/audit', 'admin')).json().events as { action: string; adminEmail: string; targetId: string }[];
      expect(audit.filter((e) => e.targetId === people.user.userId).map((e) => e.action)).toEqual(['role.revoke', 'role.modify', 'role.assign']);
      expect(audit[0].adminEmail).toBe('admin@example.com');
    });

    it('limits role changes per admin, and blocks the IP for 30 minutes when the limit is passed', async () => {
      const token = await csrf();
      const ip = nextIp();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await call('POST', '/api/admin/roles', 'admin', { email: 'subscriber@example.com', role: i % 2 ? 'user' : 'editor' }, { 'x-csrf-token': token }, ip)).statusCode);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      const limited = await call('POST', '/api/admin/roles', 'admin', { email: 'subscriber@example.com', role: 'user' }, { 'x-csrf-token': token }, ip);
      expect(limited.json().error.message).toBe(M.rateLimitBody);
      const [blocked] = await t.database.db.select().from(securityAuditLog).where(and(eq(securityAuditLog.eventType, 'ip_blocked'), eq(securityAuditLog.ipAddress, ip)));
      expect(blocked.details).toMatchObject({ reason: 'role_change_limit', minutes: 30 });
      expect((await call('GET', '/api/admin/security/stats', 'admin')).json().blockedIps).toBeGreaterThanOrEqual(1);
    });
  });

  describe('logs', () => {
    it('filters the audit log by severity and the security log by severity and type; counts the statistics', async () => {
      // Four real sign-ins over HTTP, each logged as user_login.
      for (const person of Object.values(people)) expect((await signIn(t, person.email, 'calm-waters-1')).statusCode).toBe(200);
      const critical = (await call('GET', '/api/admin/audit?severity=critical', 'admin')).json().events as { severity: string }[];
      expect(critical.every((e) => e.severity === 'critical')).toBe(true);
      expect((await call('GET', '/api/admin/audit?severity=nonsense', 'admin')).statusCode).toBe(400);

      const logins = (await call('GET', '/api/admin/security/events?eventType=user_login', 'admin')).json().events as { eventType: string }[];
      expect(logins.length).toBeGreaterThanOrEqual(4);
      expect(logins.every((e) => e.eventType === 'user_login')).toBe(true);
      const high = (await call('GET', '/api/admin/security/events?severity=high', 'admin')).json().events as { severity: string }[];
      expect(high.length).toBeGreaterThan(0);
      expect(high.every((e) => e.severity === 'high')).toBe(true);

      const stats = (await call('GET', '/api/admin/security/stats', 'admin')).json();
      expect(stats.totalAlerts24h).toBeGreaterThanOrEqual(logins.length);
      expect(stats.recentThreats1h).toBeGreaterThanOrEqual(high.length > 0 ? 1 : 0);
      expect(stats.recent).toHaveLength(10);
      expect(typeof stats.blockedIps).toBe('number');
    });
  });

  describe('sandbox test tools', () => {
    it('creates verified test accounts and resets their passwords', async () => {
      const created = await call('POST', '/api/admin/test-accounts', 'admin');
      expect(created.statusCode).toBe(200);
      expect(created.json().results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'created']);
      const again = await call('POST', '/api/admin/test-accounts', 'admin');
      expect(again.json().results.map((r: { status: string }) => r.status)).toEqual(['exists', 'exists', 'exists']);
      const signedIn = await signIn(t, 'sandbox-subscriber@harbourmind.test', created.json().password);
      expect(signedIn.statusCode).toBe(200);
      const reset = await call('POST', '/api/admin/test-accounts/reset-passwords', 'admin');
      expect(reset.json().results.every((r: { status: string }) => r.status === 'reset')).toBe(true);
    });
  });

  describe('catalogue edits', () => {
    it('edits title, description and transcript with validation, and deletes rows and file together', async () => {
      const meditation = await buildMeditation(t.database.db, { title: 'Before' });
      const bad = await call('PATCH', `/api/admin/meditations/${meditation.id}`, 'editor', { title: '<script>alert(1)</script>x' });
      expect(bad.statusCode).toBe(400);
      const ok = await call('PATCH', `/api/admin/meditations/${meditation.id}`, 'editor', { title: 'After', description: 'A <b>calm</b> moment', transcript: 'Breathe in.\n\nBreathe out.' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().meditation).toMatchObject({ title: 'After', description: 'A calm moment', hasTranscript: true });
      const card = (await call('GET', `/api/meditations/${meditation.id}`, 'anonymous')).json();
      expect(card.meditation.title).toBe('After');
      const deleted = await call('DELETE', `/api/admin/meditations/${meditation.id}`, 'editor');
      expect(deleted.statusCode).toBe(200);
      expect((await call('GET', `/api/meditations/${meditation.id}`, 'anonymous')).statusCode).toBe(404);
      expect((await call('DELETE', `/api/admin/meditations/${meditation.id}`, 'editor')).statusCode).toBe(404);
      const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, meditation.id));
      expect(audit.map((a) => a.action).sort()).toEqual(['meditation.delete', 'meditation.update']);
    });

    it('keeps catalogue text as typed: a lone < and & stay, real tags and control characters go, lines are kept (decision 0017)', async () => {
      const meditation = await buildMeditation(t.database.db, { title: 'Typed' });
      const ok = await call('PATCH', `/api/admin/meditations/${meditation.id}`, 'editor', {
        description: 'I <3 mornings & tea, and 5 < 6 > 4',
        transcript: 'Breathe in.\r\n\r\nA <i>slow</i> breath out.',
      });
      expect(ok.statusCode).toBe(200);
      const [saved] = await listAdminMeditations(t.database.db, meditation.id);
      expect(saved.description).toBe('I <3 mornings & tea, and 5 < 6 > 4');
      expect(saved.transcript).toBe('Breathe in.\n\nA slow breath out.');
    });

    it('marks a meditation free to try and back (decision 0025): the catalogue and playback follow, the change is audited', async () => {
      const meditation = await buildMeditation(t.database.db, { title: 'Sampler' });
      expect((await call('GET', `/api/meditations/${meditation.id}/playback`, 'anonymous')).statusCode).toBe(401);
      expect((await call('PATCH', `/api/admin/meditations/${meditation.id}`, 'editor', { free: 'yes' })).statusCode).toBe(400);
      expect((await call('PATCH', `/api/admin/meditations/${meditation.id}`, 'user', { free: true })).statusCode).toBe(403);

      const marked = await call('PATCH', `/api/admin/meditations/${meditation.id}`, 'editor', { free: true });
      expect(marked.statusCode).toBe(200);
      expect(marked.json().meditation).toMatchObject({ title: 'Sampler', free: true });
      expect((await call('GET', `/api/meditations/${meditation.id}`, 'anonymous')).json().meditation.free).toBe(true);
      const listed = (await call('GET', '/api/meditations?category=all', 'anonymous')).json().meditations as { id: string; free: boolean }[];
      expect(listed.find((m) => m.id === meditation.id)?.free).toBe(true);
      expect((await call('GET', `/api/meditations/${meditation.id}/playback`, 'anonymous')).statusCode).toBe(200);

      expect((await call('PATCH', `/api/admin/meditations/${meditation.id}`, 'editor', { free: false })).statusCode).toBe(200);
      expect((await call('GET', `/api/meditations/${meditation.id}/playback`, 'anonymous')).statusCode).toBe(401);
      const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, meditation.id));
      expect(audit.map((a) => a.changes)).toEqual(expect.arrayContaining([expect.objectContaining({ free: { from: false, to: true } }), expect.objectContaining({ free: { from: true, to: false } })]));
    });
  });
});

describe('admin setup token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('grants admin once, with the current token, and only while no admin exists', async () => {
    const first = await createSignedInUser(t, 'founder@example.com');
    const second = await createSignedInUser(t, 'someone@example.com');
    const setup = (cookie: string, token: string) => t.app.inject({ method: 'POST', url: '/api/admin/setup', headers: { cookie, ...origin(t) }, payload: { token } });

    const old = (await issueSetupToken(t.database.db))!;
    const token = (await issueSetupToken(t.database.db))!;
    expect(token).not.toBe(old);
    expect((await setup(first.cookie, old)).json().error.message).toBe(M.setupTokenInvalid); // replaced
    expect((await setup(first.cookie, 'guess')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/setup', payload: { token } })).statusCode).toBe(401);

    const granted = await setup(first.cookie, token);
    expect(granted.statusCode).toBe(200);
    const status = await t.app.inject({ method: 'GET', url: '/api/admin/status', headers: { cookie: first.cookie } });
    expect(status.json()).toMatchObject({ role: 'admin', isAdmin: true });

    const reused = await setup(second.cookie, token);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.message).toBe(M.setupDone);
    expect(await issueSetupToken(t.database.db)).toBeUndefined();
    const roles = await t.database.db.select().from(userRoles).where(eq(userRoles.role, 'admin'));
    expect(roles.map((r) => r.userId)).toEqual([first.userId]);
  });
});

describe('test tools outside sandbox mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_PRICE_MONTHLY: 'price_m', STRIPE_PRICE_YEARLY: 'price_y' } });
  });
  afterAll(() => t.close());

  it('refuses them, even to an admin', async () => {
    const admin = await createSignedInStaff(t, 'live-admin@example.com', 'admin');
    for (const url of ['/api/admin/test-accounts', '/api/admin/test-accounts/reset-passwords', '/api/admin/waitlist/test-data']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie: admin.cookie, ...origin(t) } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.message).toBe(M.sandboxOnly);
    }
  });
});
