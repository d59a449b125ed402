/**
 * The security monitor through HTTP: failed-login and rate-limit alerts, the threat score, the
 * role-change block (30 minutes, then released), setup-token guessing, critical events, and the
 * Security Log statistics that show them. Each attack comes from its own client address.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, SECURITY_MONITOR } from '#shared/admin.ts';
import { MESSAGES } from '#shared/messages.ts';
import { rateLimits, userRoles } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { issueSetupToken } from '#server/features/admin/setup-token.service.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';
import { guardedAction, sensitivePath } from '#server/features/security/ip-block-guard.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { configureSecurityMonitor, threatScore } from '#server/features/security/security-monitor.ts';
import { createSignedInUser, nextIp, origin, signIn } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';

type Stats = { totalAlerts24h: number; criticalAlerts: number; recentThreats1h: number; blockedIps: number };

describe.each(testDatabaseKinds())('security monitor on %s', (kind) => {
  let t: TestApp;
  const admin = { cookie: '', userId: '', email: 'monitor-admin@example.com' };
  const deputy = { cookie: '', userId: '', email: 'deputy-admin@example.com' };

  beforeAll(async () => {
    t = await createTestApp({ kind });
    for (const person of [admin, deputy]) {
      Object.assign(person, await createSignedInUser(t, person.email));
      await assignRole({ db: t.database.db, userId: person.userId, role: 'admin', assignedBy: null });
    }
    await createSignedInUser(t, 'victim@example.com', 'right-password-1');
    await createSignedInUser(t, 'guessed@example.com', 'right-password-2');
    await createSignedInUser(t, 'target@example.com');
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const stats = async () => (await t.app.inject({ method: 'GET', url: '/api/admin/security/stats', headers: { cookie: admin.cookie } })).json<Stats>();
  const alerts = async (alertType: string) =>
    (await db().select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'security_alert'))).filter((e) => e.details.alertType === alertType);
  const blocksOf = (ip: string) => db().select().from(securityAuditLog).where(and(eq(securityAuditLog.eventType, 'ip_blocked'), eq(securityAuditLog.ipAddress, ip)));
  const csrfToken = async (who: { cookie: string }) => (await t.app.inject({ method: 'GET', url: '/api/admin/csrf', headers: { cookie: who.cookie } })).json().token as string;
  const changeRole = (who: { cookie: string }, ip: string, token: string, role: string, email = 'target@example.com') =>
    t.app.inject({ method: 'POST', url: '/api/admin/roles', headers: { ...origin(t), cookie: who.cookie, 'x-csrf-token': token }, payload: { email, role }, remoteAddress: ip });
  const joinWaitlist = (ip: string, i: number) =>
    t.app.inject({ method: 'POST', url: '/api/waitlist', headers: origin(t), payload: { name: 'Wait Lister', email: `wait-${i}-${ip}@example.com` }, remoteAddress: ip });

  it('alerts once when an account and an IP pass 5 failed logins in the hour', async () => {
    const ip = nextIp();
    const before = await stats();
    for (let i = 0; i < SECURITY_MONITOR.failedLoginsAlertAbove; i++) expect((await signIn(t, 'guessed@example.com', `guess-${i}`, {}, ip)).statusCode).toBe(401);
    expect(await alerts('excessive_failed_logins')).toHaveLength(0);

    expect((await signIn(t, 'guessed@example.com', 'guess-6', {}, ip)).statusCode).toBe(401);
    const raised = await alerts('excessive_failed_logins');
    expect(raised.map((a) => a.details.subject).sort()).toEqual(['account', 'ip']);
    expect(raised.every((a) => a.severity === 'critical' && a.ipAddress === ip)).toBe(true);
    expect(raised.find((a) => a.details.subject === 'account')).toMatchObject({ userEmail: 'guessed@example.com', details: { count: 6, threshold: 'more than 5 failed logins for one account in 1 hour' } });

    // Once per crossing: the 7th failure raises nothing new.
    expect((await signIn(t, 'guessed@example.com', 'guess-7', {}, ip)).statusCode).toBe(401);
    expect(await alerts('excessive_failed_logins')).toHaveLength(2);
    expect((await stats()).criticalAlerts).toBe(before.criticalAlerts + 2);
  });

  it('alerts once when an IP passes 10 rate-limit violations in the hour', async () => {
    const ip = nextIp();
    let i = 0;
    for (; i < 5; i++) expect((await joinWaitlist(ip, i)).statusCode).toBe(201);
    for (let v = 0; v < SECURITY_MONITOR.rateLimitViolationsAlertAbove; v++, i++) expect((await joinWaitlist(ip, i)).statusCode).toBe(429);
    expect((await alerts('excessive_rate_limit_violations')).filter((a) => a.ipAddress === ip)).toHaveLength(0);
    expect((await joinWaitlist(ip, i++)).statusCode).toBe(429);
    expect((await joinWaitlist(ip, i++)).statusCode).toBe(429);
    const raised = (await alerts('excessive_rate_limit_violations')).filter((a) => a.ipAddress === ip);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ severity: 'critical', details: { subject: 'ip', count: 11 } });
  });

  it('weighs failed logins, rate-limit violations and suspicious activity into a threat score, alerting and blocking above 10', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await signIn(t, `nobody-${i}@example.com`, 'wrong-password', {}, ip)).statusCode).toBe(401); // 5 × 0.3 = 1.5
    for (let i = 0; i < 16; i++) await joinWaitlist(ip, 100 + i); // 11 violations × 0.4 = 4.4
    for (let i = 0; i < 8; i++) expect((await changeRole(admin, ip, 'forged-token', 'editor')).statusCode).toBe(403); // 8 × 0.5 = 4.0
    expect(await threatScore({ db: db(), ip })).toEqual({ score: 9.9, failedLogins: 5, rateLimitViolations: 11, suspiciousActivity: 8 });
    expect((await alerts('high_threat_score')).filter((a) => a.ipAddress === ip)).toHaveLength(0);

    expect((await changeRole(admin, ip, 'forged-token', 'editor')).statusCode).toBe(403); // 10.4
    const raised = (await alerts('high_threat_score')).filter((a) => a.ipAddress === ip);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ severity: 'critical', details: { score: 10.4, failedLogins: 5, rateLimitViolations: 11, suspiciousActivity: 9 } });
    expect((await blocksOf(ip)).map((e) => e.details.reason)).toEqual(['high_threat_score']);

    // The block refuses sign-in and sign-up with the spec's words, even with the right password.
    const refused = await signIn(t, 'victim@example.com', 'right-password-1', {}, ip);
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThan(SECURITY_MONITOR.blockMs / 1000 - 60);
    expect(refused.json().error.message).toBe(MESSAGES.auth.tooManyAttempts(seconds));
    expect(refused.headers['set-cookie']).toBeUndefined();
    const signUp = await t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers: origin(t), payload: { name: 'New Person', email: 'new-person@example.com', password: 'calm-waters-1' }, remoteAddress: ip });
    expect(signUp.statusCode).toBe(429);
    // Other IPs and other actions are not affected.
    expect((await signIn(t, 'victim@example.com', 'right-password-1', {}, nextIp())).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/meditations', remoteAddress: ip })).statusCode).toBe(200);
  });

  it('blocks the IP for 30 minutes after the role-change limit, shows it on the Blocked IPs card, and releases it after', async () => {
    const ip = nextIp();
    const before = await stats();
    const token = await csrfToken(admin);
    for (let i = 0; i < 10; i++) expect((await changeRole(admin, ip, token, i % 2 ? 'user' : 'editor')).statusCode).toBe(200);
    const limited = await changeRole(admin, ip, token, 'editor');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.message).toBe(ADMIN_MESSAGES.rateLimitBody);

    const [block] = await db().select().from(rateLimits).where(eq(rateLimits.key, `block:ip:${ip}`));
    expect(block.ipAddress).toBe(ip);
    const minutes = (block.blockedUntil!.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    const events = await blocksOf(ip);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ severity: 'high', userEmail: admin.email, details: { reason: 'role_change_limit', minutes: 30 } });
    expect((await stats()).blockedIps).toBe(before.blockedIps + 1);

    // The block is on the IP: another admin there is refused too, with the role manager's words.
    const deputyToken = await csrfToken(deputy);
    const refused = await changeRole(deputy, ip, deputyToken, 'editor');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(ADMIN_MESSAGES.rateLimitBody);
    const revoke = await t.app.inject({ method: 'DELETE', url: '/api/admin/roles/00000000-0000-4000-8000-000000000000', headers: { ...origin(t), cookie: deputy.cookie, 'x-csrf-token': deputyToken }, remoteAddress: ip });
    expect(revoke.statusCode).toBe(429);
    expect((await changeRole(deputy, nextIp(), deputyToken, 'editor')).statusCode).toBe(200);

    // 31 minutes later the block is over.
    const start = Date.now();
    configureSecurityMonitor(db(), { now: () => start + 31 * 60_000 });
    try {
      expect((await stats()).blockedIps).toBe(0); // every block in this file is younger than 31 minutes
      expect((await changeRole(deputy, ip, deputyToken, 'user')).statusCode).toBe(200);
      expect((await signIn(t, 'victim@example.com', 'right-password-1', {}, ip)).statusCode).toBe(200);
    } finally {
      configureSecurityMonitor(db(), { now: Date.now });
    }
  });

  it('records lockout bypass attempts and forged webhooks as critical, counting them as suspicious activity', async () => {
    const ip = nextIp();
    await logSecurityEvent({ db: db(), eventType: 'lockout_bypass_attempt', severity: 'high', ipAddress: ip, details: { route: '/api/auth/sign-in/./email' } });
    await logSecurityEvent({ db: db(), eventType: 'webhook_forged', severity: 'critical', ipAddress: ip, details: { provider: 'stripe' } });
    const rows = await db().select().from(securityAuditLog).where(eq(securityAuditLog.ipAddress, ip));
    expect(rows.map((r) => [r.eventType, r.severity]).sort()).toEqual([
      ['lockout_bypass_attempt', 'critical'],
      ['webhook_forged', 'critical'],
    ]);
    expect((await threatScore({ db: db(), ip })).suspiciousActivity).toBe(2);
    const critical = (await t.app.inject({ method: 'GET', url: '/api/admin/security/events?severity=critical&eventType=webhook_forged', headers: { cookie: admin.cookie } })).json().events;
    expect(critical.some((e: { ipAddress: string }) => e.ipAddress === ip)).toBe(true);
  });

  it('raises a critical pattern alert at more than 5 events of one type per user in 5 minutes', async () => {
    for (let i = 0; i < 6; i++) {
      await logSecurityEvent({ db: db(), eventType: 'password_reset_requested', severity: 'medium', userEmail: 'pattern@example.com', ipAddress: nextIp() });
      expect((await alerts('suspicious_pattern')).filter((a) => a.userEmail === 'pattern@example.com')).toHaveLength(i < 5 ? 0 : 1);
    }
    await logSecurityEvent({ db: db(), eventType: 'password_reset_requested', severity: 'medium', userEmail: 'pattern@example.com' });
    expect((await alerts('suspicious_pattern')).filter((a) => a.userEmail === 'pattern@example.com')).toHaveLength(1);
  });

  it('never fails or slows a request when the monitor itself fails', async () => {
    const warn = vi.fn();
    configureSecurityMonitor(db(), {
      now: () => {
        throw new Error('clock broke');
      },
      log: { warn },
    });
    const ip = nextIp();
    try {
      expect((await signIn(t, 'nobody@example.com', 'wrong-password', {}, ip)).statusCode).toBe(401);
    } finally {
      configureSecurityMonitor(db(), { now: Date.now, log: t.app.log });
    }
    expect(warn).toHaveBeenCalled();
    expect(await db().select().from(securityAuditLog).where(and(eq(securityAuditLog.eventType, 'failed_login'), eq(securityAuditLog.ipAddress, ip)))).toHaveLength(1);
  });
});

describe.each(testDatabaseKinds())('setup-token guessing on %s', (kind) => {
  const t = openForSuite(() => createTestApp({ kind }));

  it('raises a critical alert and blocks the IP after more than 5 wrong tokens; the right token is then refused too', async () => {
    const guesser = await createSignedInUser(t, 'guesser@example.com');
    const token = (await issueSetupToken(t.database.db))!;
    const ip = nextIp();
    const setup = (value: string) => t.app.inject({ method: 'POST', url: '/api/admin/setup', headers: { ...origin(t), cookie: guesser.cookie }, payload: { token: value }, remoteAddress: ip });
    const alerts = async () => (await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'security_alert'))).filter((e) => e.details.alertType === 'setup_token_guessing');

    for (let i = 0; i < SECURITY_MONITOR.setupTokenGuessesAbove; i++) expect((await setup(`hm-setup-guess-${i}`)).statusCode).toBe(403);
    expect(await alerts()).toHaveLength(0);
    expect((await setup('hm-setup-guess-last')).statusCode).toBe(403);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ severity: 'critical', ipAddress: ip, userEmail: 'guesser@example.com', details: { count: 6 } });
    const [blocked] = await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'ip_blocked'));
    expect(blocked).toMatchObject({ ipAddress: ip, details: { reason: 'setup_token_guessing' } });

    const refused = await setup(token);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MESSAGES.auth.tooManyAttempts(Number(refused.headers['retry-after'])));
    expect(await t.database.db.select().from(userRoles).where(eq(userRoles.role, 'admin'))).toHaveLength(0);
    // From elsewhere the real token still works (a block is per IP, the token is not burnt).
    const granted = await t.app.inject({ method: 'POST', url: '/api/admin/setup', headers: { ...origin(t), cookie: guesser.cookie }, payload: { token }, remoteAddress: nextIp() });
    expect(granted.statusCode).toBe(200);
    const stats = (await t.app.inject({ method: 'GET', url: '/api/admin/security/stats', headers: { cookie: guesser.cookie } })).json<Stats>();
    expect(stats.blockedIps).toBe(1);
    expect(stats.criticalAlerts).toBe(1);
  });
});

describe('which requests a block refuses', () => {
  it('finds the sensitive actions under any spelling of their path', () => {
    for (const url of [
      '/api/auth/sign-in/email',
      '/api/auth/sign-in/./email',
      '/api/auth/x/../sign-in/email',
      '/api/auth/sign-in/%2e/email',
      '/api/auth//sign-in/email/',
      '/api/auth/sign-in/%65mail',
      '/api/auth/Sign-In/email?x=1',
      'http://host.example/api/auth/sign-in/email',
      '/api/auth/sign-up/email',
      '/api/auth/sign-in/social',
    ]) {
      expect(guardedAction('POST', url), url).toBe('auth');
    }
    expect(guardedAction('POST', '/api/admin/setup')).toBe('setup');
    expect(guardedAction('POST', '/api/admin/./setup')).toBe('setup');
    expect(guardedAction('POST', '/api/admin/roles')).toBe('roles');
    expect(guardedAction('DELETE', '/api/admin/roles/abc')).toBe('roles');
    expect(guardedAction('GET', '/api/admin/roles')).toBeUndefined();
    expect(guardedAction('POST', '/api/auth/sign-out')).toBeUndefined();
    expect(guardedAction('POST', '/api/waitlist')).toBeUndefined();
    expect(sensitivePath('/api/auth/sign-in/%252e/email')).toBe('/api/auth/sign-in/email');
  });
});
