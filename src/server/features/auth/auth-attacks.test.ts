/**
 * Attacks on sign-in, sign-up and sessions, sent as an attacker's client would send them: raw
 * request lines over a real socket (Node's fetch and URL would tidy the paths first), from
 * distinct loopback addresses so per-IP limits count each attacker apart.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import { user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { SIGN_IN_MAX_FAILURES, SIGN_UP_PER_IP } from '#server/features/auth/credentials-limiter.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { cookieHeader } from '#tests/setup/cookies.ts';
import { listen, rawRequest, type RawRequest } from '#tests/setup/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { PGLITE_ONLY } from '#tests/setup/test-db.ts';

/** The app's PUBLIC_URL: what a browser on our own pages sends as Origin. */
let ownOrigin = '';

const raw = (port: number, request: RawRequest) => rawRequest(port, { ...request, headers: { origin: ownOrigin, ...request.headers } });

describe.each(PGLITE_ONLY)('attacks on accounts over real HTTP (%s)', (kind) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    port = await listen(t);
    ownOrigin = t.config.publicUrl;
  });
  afterAll(() => t.close());

  const signInBody = (email: string, password: string) => ({ email, password });

  it('keeps a locked account locked whatever spelling of the sign-in path is used', async () => {
    await createSignedInUser(t, 'locked@example.com', 'right-password-1');
    const attacker = '127.0.0.31';
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i += 1) {
      expect((await raw(port, { path: '/api/auth/sign-in/email', body: signInBody('locked@example.com', `guess-${i}`), from: attacker })).status).toBe(401);
    }
    expect((await raw(port, { path: '/api/auth/sign-in/email', body: signInBody('locked@example.com', 'right-password-1'), from: attacker })).status).toBe(429);

    const variants = [
      '/api/auth/sign-in/./email',
      '/api/auth/x/../sign-in/email',
      '/api/auth/sign-in/%2e/email',
      '/api/auth/sign-in/%2E/email',
      '/api/auth//sign-in/email',
      '/api/auth/sign-in/email/',
      '/api/auth/sign-in/%65mail',
      '/api/auth/Sign-In/email',
      '/api/x/../auth/sign-in/email',
      `http://127.0.0.1:${port}/api/auth/sign-in/email`,
    ];
    for (const path of variants) {
      const res = await raw(port, { path, body: signInBody('locked@example.com', 'right-password-1'), from: '127.0.0.32' });
      expect([400, 404, 429], path).toContain(res.status);
      expect(res.headers['set-cookie'], path).toBeUndefined();
      expect(res.text, path).not.toContain('locked@example.com');
    }
    // Each refused spelling of an auth path is a critical security event.
    const bypasses = await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'lockout_bypass_attempt'));
    expect(bypasses.length).toBeGreaterThanOrEqual(6);
    expect(bypasses.every((e) => e.severity === 'critical')).toBe(true);
  });

  it('applies sign-up validation whatever spelling of the sign-up path is used', async () => {
    for (const path of ['/api/auth/sign-up/./email', '/api/auth/sign-up/%2e/email', `http://127.0.0.1:${port}/api/auth/sign-up/email`, '/api/auth/sign-up/email/']) {
      const res = await raw(port, { path, body: { name: '<img src=x onerror=alert(1)>', email: 'sneaky@example.com', password: 'secret-1' }, from: '127.0.0.33' });
      expect([400, 404], path).toContain(res.status);
    }
    expect(await t.database.db.select().from(user).where(eq(user.email, 'sneaky@example.com'))).toHaveLength(0);
  });

  it('judges at most 10 of 25 wrong passwords sent at once', async () => {
    await createSignedInUser(t, 'parallel@example.com', 'right-password-2');
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => raw(port, { path: '/api/auth/sign-in/email', body: signInBody('parallel@example.com', `guess-${i}`), from: '127.0.0.34' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(SIGN_IN_MAX_FAILURES);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
    // The counter stays honest afterwards: the right password is still refused.
    expect((await raw(port, { path: '/api/auth/sign-in/email', body: signInBody('parallel@example.com', 'right-password-2'), from: '127.0.0.35' })).status).toBe(429);
  });

  it('limits account-exists answers per IP', async () => {
    await createSignedInUser(t, 'exists@example.com', 'right-password-3');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      statuses.push((await raw(port, { path: '/api/auth/sign-up/email', body: { name: 'Probe Person', email: 'exists@example.com', password: 'secret-1' }, from: '127.0.0.36' })).status);
    }
    expect(statuses.filter((s) => s === 409)).toHaveLength(SIGN_UP_PER_IP);
    expect(statuses.slice(SIGN_UP_PER_IP).every((s) => s === 429)).toBe(true);
    const limited = await t.database.db
      .select()
      .from(securityAuditLog)
      .where(and(eq(securityAuditLog.eventType, 'rate_limit_exceeded'), eq(securityAuditLog.ipAddress, '127.0.0.36')));
    expect(limited.length).toBeGreaterThan(0);
  });

  it('never hands the session token to a browser, and gives it to a native client that asks for a bearer session', async () => {
    await createSignedInUser(t, 'tokens@example.com', 'right-password-4');
    const browser = await raw(port, { path: '/api/auth/sign-in/email', body: signInBody('tokens@example.com', 'right-password-4'), from: '127.0.0.37' });
    expect(browser.status).toBe(200);
    expect(browser.headers['set-auth-token']).toBeUndefined();
    expect(JSON.parse(browser.text)).not.toHaveProperty('token');
    const cookie = cookieHeader(browser.headers['set-cookie']);
    const sessionToken = decodeURIComponent(/better-auth\.session_token=([^.;]+)/.exec(cookie)?.[1] ?? '');
    expect(sessionToken.length).toBeGreaterThan(10);

    for (const path of ['/api/auth/get-session', '/api/auth/list-sessions']) {
      const res = await raw(port, { method: 'GET', path, headers: { cookie }, from: '127.0.0.37' });
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(sessionToken);
      expect(res.text, path).not.toContain('"token"');
      expect(res.headers['set-auth-token'], path).toBeUndefined();
    }

    const native = await raw(port, { path: '/api/auth/sign-in/email', headers: { [SESSION_TRANSPORT_HEADER]: 'bearer' }, body: signInBody('tokens@example.com', 'right-password-4'), from: '127.0.0.38' });
    expect(native.status).toBe(200);
    expect(native.headers['set-cookie']).toBeUndefined();
    const bearer = String(native.headers['set-auth-token'] ?? '');
    expect(bearer.length).toBeGreaterThan(10);
    const me = await raw(port, { method: 'GET', path: '/api/me', headers: { authorization: `Bearer ${bearer}` } });
    expect(JSON.parse(me.text).user.email).toBe('tokens@example.com');
    // The app has its token (set-auth-token); no answer body repeats it (issue 33).
    const session = await raw(port, { method: 'GET', path: '/api/auth/get-session', headers: { authorization: `Bearer ${bearer}` } });
    expect(JSON.parse(session.text).user.email).toBe('tokens@example.com');
    expect(session.text).not.toContain('"token"');
  });

  it('refuses NUL and other control characters in sign-in and sign-up with the spec messages, never 500', async () => {
    const bodies = [
      { path: '/api/auth/sign-in/email', body: { email: 'nul\u0000@example.com', password: 'secret-1' } },
      { path: '/api/auth/sign-up/email', body: { name: 'Nul Person', email: 'nul\u0000@example.com', password: 'secret-1' } },
      { path: '/api/auth/sign-up/email', body: { name: 'Nul\u0000Person', email: 'nul@example.com', password: 'secret-1' } },
    ];
    for (const { path, body } of bodies) {
      const res = await raw(port, { path, body, from: '127.0.0.39' });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(res.text).error.message).toMatch(/\S/);
    }
  });
});
