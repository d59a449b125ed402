/**
 * The operator sees probing (issue 33, "Also build" 1): a member on staff routes, injection-shaped
 * inputs the validators refuse, and bulk reads past normal use reach the admin's Security Log as one
 * row per burst with a count, raise the spec's critical alert, and cannot flood the log.
 * One app and one database for the file; each attack from its own client address.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, SECURITY_MONITOR } from '#shared/admin.ts';
import type { SecurityEvent } from '#shared/contracts/admin.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';
import { configureSecurityMonitor } from '#server/features/security/security-monitor.ts';
import { findInjection, inertSample, injectionKind } from '#server/features/security/probe-patterns.ts';
import { createSignedInUser, nextIp, origin } from '#tests/setup/auth-helpers.ts';
import { listen, rawRequest } from '#tests/setup/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

/** Six staff routes a curious member might try (one does not exist). */
const ADMIN_PROBES = [
  { method: 'GET', url: '/api/admin/roles' },
  { method: 'GET', url: '/api/admin/security/events' },
  { method: 'GET', url: '/api/admin/audit' },
  { method: 'GET', url: '/api/admin/waitlist/export' },
  { method: 'POST', url: '/api/admin/roles', payload: { email: 'member@example.com', role: 'admin' } },
  { method: 'GET', url: '/api/admin/users' },
] as const;

describe.each(testDatabaseKinds())('probing reaches the Security Log (%s)', (kind) => {
  let t: TestApp;
  const admin = { cookie: '', userId: '' };
  const member = { cookie: '', userId: '' };
  const editor = { cookie: '', userId: '' };
  // One window for the whole file: a burst must not be split by the clock crossing a window edge mid-test.
  const now = Math.floor(Date.now() / SECURITY_MONITOR.probeWindowMs) * SECURITY_MONITOR.probeWindowMs + 1000;

  beforeAll(async () => {
    t = await createTestApp({ kind });
    configureSecurityMonitor(t.database.db, { now: () => now });
    Object.assign(admin, await createSignedInUser(t, 'probe-admin@example.com'));
    Object.assign(member, await createSignedInUser(t, 'member@example.com'));
    Object.assign(editor, await createSignedInUser(t, 'probe-editor@example.com'));
    await assignRole({ db: t.database.db, userId: admin.userId, role: 'admin', assignedBy: null });
    await assignRole({ db: t.database.db, userId: editor.userId, role: 'editor', assignedBy: null });
  });
  afterAll(() => t.close());

  const as = (who: { cookie: string }, ip: string) => (probe: { method: string; url: string; payload?: object }) =>
    t.app.inject({ method: probe.method as 'GET', url: probe.url, payload: probe.payload, headers: { ...origin(t), cookie: who.cookie }, remoteAddress: ip });
  /** The Security Log as the admin's Security tab reads it. */
  const securityLog = async (eventType?: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/security/events${eventType ? `?eventType=${eventType}` : ''}`, headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    return res.json<{ events: SecurityEvent[] }>().events;
  };
  const rowsOf = (eventType: string, ip: string) => t.database.db.select().from(securityAuditLog).where(and(eq(securityAuditLog.eventType, eventType), eq(securityAuditLog.ipAddress, ip)));

  it('logs a member trying six admin routes as one admin_privilege_escalation with count 6, shown in the admin’s Security tab', async () => {
    const ip = nextIp();
    const member6 = as(member, ip);
    for (const probe of ADMIN_PROBES) {
      const res = await member6(probe);
      expect([403, 404], probe.url).toContain(res.statusCode);
      if (res.statusCode === 403) expect(res.json().error.message).toBe(ADMIN_MESSAGES.forbidden);
    }
    const listed = (await securityLog('admin_privilege_escalation')).filter((e) => e.ipAddress === ip);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ eventType: 'admin_privilege_escalation', severity: 'high', userEmail: 'member@example.com', details: { count: 6, reason: 'role-check', role: 'user' } });
    // The unfiltered list (the tab's default) has it too, and the spec's critical alert was raised.
    expect((await securityLog()).some((e) => e.id === listed[0]?.id)).toBe(true);
    const alerts = (await securityLog('security_alert')).filter((e) => e.details.alertType === 'admin_privilege_escalation');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.severity).toBe('critical');
  });

  it('keeps a flood to one row per source: 60 more probes only raise the count', async () => {
    const ip = nextIp();
    const probe = as(member, ip);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i += 1) statuses.push((await probe(ADMIN_PROBES[i % ADMIN_PROBES.length])).statusCode);
    // The threat score (0.5 a probe) passes 10 on the 21st: the IP is then blocked from role changes (429), the rest still refused.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => [403, 404, 429].includes(s))).toBe(true);
    const rows = await rowsOf('admin_privilege_escalation', ip);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.details.count).toBe(statuses.filter((s) => s !== 429).length);
    expect((await rowsOf('ip_blocked', ip))[0]?.details).toMatchObject({ reason: 'high_threat_score' });
    // Still one alert for the type in the hour.
    expect((await securityLog('security_alert')).filter((e) => e.details.alertType === 'admin_privilege_escalation')).toHaveLength(1);
  });

  it('counts an editor on admin-only routes, an admin giving their own account a role, and nothing an admin may do', async () => {
    const editorIp = nextIp();
    expect((await as(editor, editorIp)({ method: 'GET', url: '/api/admin/roles' })).statusCode).toBe(403);
    expect((await as(editor, editorIp)({ method: 'GET', url: '/api/admin/meditations' })).statusCode).toBe(200);
    expect((await rowsOf('admin_privilege_escalation', editorIp))[0]?.details).toMatchObject({ count: 1, role: 'editor', route: '/api/admin/roles' });

    // A member's write without our Origin is refused by the CSRF guard before the role check: still a probe.
    const crossIp = nextIp();
    const cross = await t.app.inject({ method: 'DELETE', url: '/api/admin/waitlist', headers: { cookie: member.cookie }, remoteAddress: crossIp });
    expect(cross.statusCode).toBe(403);
    expect((await rowsOf('admin_privilege_escalation', crossIp))[0]?.details).toMatchObject({ count: 1, reason: 'cross-site', role: 'user' });

    const adminIp = nextIp();
    const asAdmin = as(admin, adminIp);
    for (const url of ['/api/admin/roles', '/api/admin/audit', '/api/admin/security/events', '/api/admin/waitlist']) expect((await asAdmin({ method: 'GET', url })).statusCode).toBe(200);
    expect(await rowsOf('admin_privilege_escalation', adminIp)).toHaveLength(0);
    const token = (await asAdmin({ method: 'GET', url: '/api/admin/csrf' })).json<{ token: string }>().token;
    const own = await t.app.inject({ method: 'POST', url: '/api/admin/roles', headers: { ...origin(t), cookie: admin.cookie, 'x-csrf-token': token }, payload: { email: 'probe-admin@example.com', role: 'editor' }, remoteAddress: adminIp });
    expect(own.statusCode).toBe(403);
    expect((await rowsOf('admin_privilege_escalation', adminIp))[0]?.details).toMatchObject({ count: 1, reason: 'own-account' });
  });

  it('gives sources past the per-window cap one shared row, so a botnet cannot flood the log either', async () => {
    const before = (await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'admin_privilege_escalation'))).length;
    const extra = 6;
    // Sources so far this window in the tests above: 5 (two members' addresses, the editor's, the cross-site one, the admin's own-account).
    const sources = SECURITY_MONITOR.probeSourcesPerWindow - 5 + extra;
    for (let i = 0; i < sources; i += 1) expect((await as(member, `203.0.113.${i + 1}`)({ method: 'GET', url: '/api/admin/audit' })).statusCode).toBe(403);
    const rows = await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'admin_privilege_escalation'));
    expect(rows.length - before).toBe(sources - extra + 1);
    const shared = rows.filter((r) => r.ipAddress === null);
    expect(shared).toHaveLength(1);
    expect(shared[0]?.details).toMatchObject({ sources: 'many', count: extra });
  });

  it('logs refused inputs that look like SQL, script or path traversal, kept inert, one row per kind of probe and source', async () => {
    const ip = nextIp();
    const port = await listen(t);
    const sqlId = await t.app.inject({ method: 'GET', url: "/api/meditations/1'%20OR%20'1'='1", remoteAddress: ip });
    expect(sqlId.statusCode).toBe(400);
    const union = await t.app.inject({ method: 'GET', url: '/api/meditations/x%20UNION%20SELECT%20password%20FROM%20account--', remoteAddress: ip });
    expect(union.statusCode).toBe(400);
    const script = await t.app.inject({ method: 'POST', url: '/api/waitlist', headers: origin(t), payload: { name: '<script>alert(1)</script>', email: 'x@example.com' }, remoteAddress: ip });
    expect(script.statusCode).toBe(400);
    // A raw path (Node's URL would resolve the dots first), refused by the request-target check.
    const traversal = await rawRequest(port, { method: 'GET', path: '/api/meditations/../../../etc/passwd', from: '127.0.0.61' });
    expect(traversal.status).toBe(400);

    const rows = await rowsOf('injection_attempt', ip);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.details).toMatchObject({ count: 3, kind: 'sql' });
    expect(JSON.stringify(rows[0]?.details)).not.toMatch(/['<>]/);
    const pathRows = await rowsOf('injection_attempt', '127.0.0.61');
    expect(pathRows[0]?.details).toMatchObject({ count: 1, kind: 'path' });
    const alert = (await securityLog('security_alert')).filter((e) => e.details.alertType === 'injection_attempt').at(0);
    expect(alert?.severity).toBe('critical');

    // A token in the path or a secret-named query field never reaches the log, not even as a sample.
    const token = 'Zq8vK2mW4nR7tY1uP3sA6dF9';
    expect((await rawRequest(port, { method: 'GET', path: `/api/auth/reset-password/${token}/../../../etc/passwd`, from: '127.0.0.62' })).status).toBe(400);
    const tokenRows = await rowsOf('injection_attempt', '127.0.0.62');
    expect(tokenRows[0]?.details).toMatchObject({ kind: 'path' });
    expect(JSON.stringify(tokenRows)).not.toContain(token);
    const secretIp = nextIp();
    expect((await t.app.inject({ method: 'GET', url: "/api/meditations/not-a-uuid?token=x'%20OR%20'1'='1", remoteAddress: secretIp })).statusCode).toBe(400);
    expect(await rowsOf('injection_attempt', secretIp)).toHaveLength(0);

    // Ordinary mistakes are not attacks: a mistyped id, an empty name.
    const typoIp = nextIp();
    expect((await t.app.inject({ method: 'GET', url: '/api/meditations/not-a-uuid', remoteAddress: typoIp })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/waitlist', headers: origin(t), payload: { name: '', email: 'y@example.com' }, remoteAddress: typoIp })).statusCode).toBe(400);
    expect(await rowsOf('injection_attempt', typoIp)).toHaveLength(0);
  });

  it('classifies payloads, never reads secret fields and stores only an inert copy', () => {
    const attacks = {
      sql: ["' OR '1'='1", '1 AND 1234=1234', "x'; DROP TABLE user;--"],
      script: ['<img src=x onerror=alert(1)>', 'javascript:alert(1)'],
      path: ['..%2f..%2fetc%2fpasswd', '%252e%252e/secret'],
    };
    for (const [kind, payloads] of Object.entries(attacks)) for (const payload of payloads) expect(injectionKind(payload), payload).toBe(kind);
    for (const innocent of ["Seán O'Brien", 'Mary-Jane and 2 friends', 'morning calm', 'select a meditation from the list', 'a@example.com']) expect(injectionKind(innocent), innocent).toBeUndefined();
    expect(findInjection({ body: { password: "' OR '1'='1", name: 'Sam' } })).toBeUndefined();
    expect(findInjection({ body: { profile: { name: '<script>x</script>' } } })).toMatchObject({ kind: 'script', field: 'body.profile.name' });
    const sample = inertSample(`<script>alert("x")</script>${'a'.repeat(200)}`);
    expect(sample).not.toMatch(/[<>"]/);
    expect(sample.length).toBeLessThan(200);
  });

  it('logs a burst of exports past normal use as data_exfiltration_attempt, once per burst with a count', async () => {
    const ip = nextIp();
    const asAdmin = as(admin, ip);
    const reads = SECURITY_MONITOR.exportsAbove + 3;
    for (let i = 0; i < reads; i += 1) expect((await asAdmin({ method: 'GET', url: '/api/admin/waitlist/export' })).statusCode).toBe(200);
    const rows = await rowsOf('data_exfiltration_attempt', ip);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ severity: 'high', userEmail: 'probe-admin@example.com' });
    expect(rows[0]?.details).toMatchObject({ count: 3, kind: 'export', route: '/api/admin/waitlist/export' });
    expect((await securityLog('security_alert')).filter((e) => e.details.alertType === 'data_exfiltration_attempt')).toHaveLength(1);
  });
});
