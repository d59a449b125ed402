/**
 * Issue 33, rows 1, 2, 8 and 11: how a request authenticates decides what it gets (a cookie request
 * never a token, whatever it says it is; a bearer request only what its token opens), which
 * better-auth endpoints answer at all, and where links may lead.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import { account, session, user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { practicePreferences } from '#server/db/schema/practice.ts';
import { REDIRECT_REFUSED } from '#server/features/auth/auth.routes.ts';
import { SIGN_IN_MAX_FAILURES } from '#server/features/auth/credentials-limiter.ts';
import { blockIp } from '#server/features/security/security-monitor.ts';
import { createSignedInUser, nextIp } from '#tests/setup/auth-helpers.ts';
import { cookieHeader } from '#tests/setup/cookies.ts';
import { readOutbox, waitForMail } from '#tests/setup/outbox.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { PGLITE_ONLY } from '#tests/setup/test-db.ts';

const IOS = 'capacitor://localhost';
const ANDROID = 'https://localhost';

describe.each(PGLITE_ONLY)('session transport, endpoints and redirects under attack (%s)', (kind) => {
  let t: TestApp;
  let own: string;
  beforeAll(async () => {
    t = await createTestApp({ kind });
    own = t.config.publicUrl;
  });
  afterAll(() => t.close());

  type Req = { method?: 'GET' | 'POST' | 'PUT'; url: string; headers?: Record<string, string>; payload?: unknown; from?: string };
  const send = ({ method = 'POST', url, headers = {}, payload, from = nextIp() }: Req) =>
    t.app.inject({ method, url, headers: { origin: own, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }), remoteAddress: from });

  /** Signs in as the apps do: no cookie, from the WebView's origin, asking for a bearer session. */
  async function nativeSignIn(email: string, password: string): Promise<string> {
    const res = await send({ url: '/api/auth/sign-in/email', headers: { origin: IOS, [SESSION_TRANSPORT_HEADER]: 'bearer' }, payload: { email, password } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    const token = String(res.headers['set-auth-token'] ?? '');
    expect(token.length).toBeGreaterThan(10);
    return token;
  }

  /** Every session token of the person, as stored. */
  const tokensOf = async (userId: string) => (await t.database.db.select({ token: session.token }).from(session).where(eq(session.userId, userId))).map((s) => s.token);

  describe('row 1: a cookie request never gets a token, whatever header it adds', () => {
    it('get-session and list-sessions with the cookie and x-session-transport: bearer answer no token, not even the apps\' session', async () => {
      const { cookie, userId } = await createSignedInUser(t, 'row1@example.com', 'calm-waters-1');
      await nativeSignIn('row1@example.com', 'calm-waters-1');
      const tokens = await tokensOf(userId);
      expect(tokens).toHaveLength(2);
      for (const url of ['/api/auth/get-session', '/api/auth/list-sessions']) {
        const res = await send({ method: 'GET', url, headers: { cookie, [SESSION_TRANSPORT_HEADER]: 'bearer' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).not.toContain('"token"');
        for (const token of tokens) expect(res.body, url).not.toContain(token);
        expect(res.headers['set-auth-token'], url).toBeUndefined();
      }
      expect((await send({ method: 'GET', url: '/api/auth/list-sessions', headers: { cookie } })).json()).toHaveLength(2);
    });

    it('a sign-in that carries a cookie is a cookie sign-in: a cookie, no set-auth-token, no token in the body', async () => {
      await createSignedInUser(t, 'row1b@example.com', 'calm-waters-1');
      const res = await send({ url: '/api/auth/sign-in/email', headers: { cookie: 'theme=dark', [SESSION_TRANSPORT_HEADER]: 'bearer' }, payload: { email: 'row1b@example.com', password: 'calm-waters-1' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['set-auth-token']).toBeUndefined();
      expect(cookieHeader(res.headers['set-cookie'])).toMatch(/better-auth\.session_token=/);
      expect(res.body).not.toContain('"token"');
    });

    it('the apps keep working by their bearer token, which no answer body repeats', async () => {
      const { userId } = await createSignedInUser(t, 'row1c@example.com', 'calm-waters-1');
      await createSignedInUser(t, 'row1c-other@example.com', 'calm-waters-1');
      const bearer = await nativeSignIn('row1c@example.com', 'calm-waters-1');
      const authorization = `Bearer ${bearer}`;
      const me = await send({ method: 'GET', url: '/api/me', headers: { origin: IOS, authorization } });
      expect(me.json()).toMatchObject({ user: { email: 'row1c@example.com' } });
      const tokens = await tokensOf(userId);
      for (const url of ['/api/auth/get-session', '/api/auth/list-sessions']) {
        const res = await send({ method: 'GET', url, headers: { origin: IOS, authorization, [SESSION_TRANSPORT_HEADER]: 'bearer' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).not.toContain('"token"');
        for (const token of tokens) expect(res.body, url).not.toContain(token);
      }
      const renamed = await send({ url: '/api/auth/update-user', headers: { origin: IOS, authorization }, payload: { name: 'Native Person' } });
      expect(renamed.statusCode).toBe(200);
      expect((await t.database.db.select().from(user).where(eq(user.id, userId)))[0].name).toBe('Native Person');
    });
  });

  describe('row 11: a bearer request is authenticated by its token alone', () => {
    it('a wrong bearer token beside a valid cookie is nobody, so the cross-site exemption for bearer requests opens nothing', async () => {
      const { cookie, userId } = await createSignedInUser(t, 'row11@example.com', 'calm-waters-1');
      // A token with a bad signature is one better-auth's bearer plugin ignores: the cookie used to answer instead.
      for (const bearer of ['forged.c2lnbmF0dXJl', 'not-a-real-token', 'a.b.c']) {
        const headers = { cookie, authorization: `Bearer ${bearer}`, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
        const write = await send({ method: 'PUT', url: '/api/practice/preferences', headers, payload: { showStreaks: false } });
        expect(write.statusCode, bearer).toBe(401);
        expect(await t.database.db.select().from(practicePreferences).where(eq(practicePreferences.userId, userId))).toHaveLength(0);
        expect((await send({ method: 'GET', url: '/api/me', headers })).json(), bearer).toMatchObject({ user: null });
        expect((await send({ method: 'GET', url: '/api/auth/get-session', headers })).body, bearer).toBe('null');
        const renamed = await send({ url: '/api/auth/update-user', headers, payload: { name: 'Forged Name' } });
        expect(renamed.statusCode, bearer).toBeGreaterThanOrEqual(400);
      }
      expect((await t.database.db.select().from(user).where(eq(user.id, userId)))[0].name).not.toBe('Forged Name');
    });

    it('the same cookie alone, from our own pages, still works', async () => {
      const { cookie, userId } = await createSignedInUser(t, 'row11b@example.com', 'calm-waters-1');
      const write = await send({ method: 'PUT', url: '/api/practice/preferences', headers: { cookie }, payload: { showStreaks: false } });
      expect(write.statusCode).toBe(200);
      expect(await t.database.db.select().from(practicePreferences).where(eq(practicePreferences.userId, userId))).toHaveLength(1);
    });
  });

  describe('row 2: better-auth endpoints that nobody uses are not forwarded; a password change is a counted guess', () => {
    it('verify-password, delete-user and the other unused endpoints answer 404 and change nothing', async () => {
      const { cookie, userId } = await createSignedInUser(t, 'row2@example.com', 'calm-waters-1');
      const unused: Array<[string, unknown]> = [
        ['/api/auth/verify-password', { password: 'calm-waters-1' }],
        ['/api/auth/delete-user', { password: 'calm-waters-1' }],
        ['/api/auth/change-email', { newEmail: 'taken-over@example.com' }],
        ['/api/auth/unlink-account', { providerId: 'credential' }],
        ['/api/auth/revoke-sessions', {}],
        ['/api/auth/revoke-session', { token: 'x' }],
        ['/api/auth/link-social', { provider: 'google' }],
        ['/api/auth/update-session', {}],
      ];
      for (const [url, payload] of unused) {
        const res = await send({ url, headers: { cookie }, payload });
        expect(res.statusCode, url).toBe(404);
      }
      expect((await send({ method: 'GET', url: '/api/auth/list-accounts', headers: { cookie } })).statusCode).toBe(404);
      expect(await t.database.db.select().from(user).where(eq(user.id, userId))).toHaveLength(1);
      expect(await t.database.db.select().from(account).where(eq(account.userId, userId))).toHaveLength(1);
      expect(await tokensOf(userId)).toHaveLength(1);
    });

    it('change-password: wrong current passwords are failed logins, and after the sign-in limit even the right one waits', async () => {
      const { cookie, userId } = await createSignedInUser(t, 'row2b@example.com', 'calm-waters-1');
      // Each guess from another address: the account's counter stops what no per-IP brake sees.
      const change = (currentPassword: string) => send({ url: '/api/auth/change-password', headers: { cookie }, payload: { currentPassword, newPassword: 'calm-waters-2' } });
      for (let i = 0; i < SIGN_IN_MAX_FAILURES; i += 1) expect((await change(`wrong-guess-${i}`)).statusCode).toBe(400);
      const limited = await change('calm-waters-1');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      const failed = await t.database.db.select().from(securityAuditLog).where(and(eq(securityAuditLog.eventType, 'failed_login'), eq(securityAuditLog.userId, userId)));
      expect(failed).toHaveLength(SIGN_IN_MAX_FAILURES);
      expect(failed.every((e) => (e.details as { action?: string }).action === 'change-password')).toBe(true);
      // The account's sign-in is locked too: the guesses were guesses at its password.
      const signIn = await send({ url: '/api/auth/sign-in/email', payload: { email: 'row2b@example.com', password: 'calm-waters-1' } });
      expect(signIn.statusCode).toBe(429);
    });

    it('change-password: a right password clears the count; from a blocked IP even the right one is refused', async () => {
      const { cookie } = await createSignedInUser(t, 'row2c@example.com', 'calm-waters-1');
      const change = (currentPassword: string, newPassword: string, from: string) => send({ url: '/api/auth/change-password', headers: { cookie }, payload: { currentPassword, newPassword }, from });
      expect((await change('wrong-guess', 'calm-waters-2', '203.0.113.22')).statusCode).toBe(400);
      expect((await change('calm-waters-1', 'calm-waters-2', '203.0.113.22')).statusCode).toBe(200);
      await blockIp({ db: t.database.db, ip: '203.0.113.23', reason: 'test' });
      const blocked = await change('calm-waters-2', 'calm-waters-3', '203.0.113.23');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.details).toMatchObject({ blocked: true });
    });
  });

  describe('row 8: the apps\' origins are trusted for bearer requests only, and links stay inside PUBLIC_URL', () => {
    it('request-password-reset refuses every return address outside PUBLIC_URL and mails nothing', async () => {
      await createSignedInUser(t, 'row8@example.com', 'calm-waters-1');
      const elsewhere = [
        `${ANDROID}/steal`,
        `${IOS}/reset-password`,
        'https://evil.example/reset-password',
        '//evil.example/reset-password',
        '/\\evil.example',
        '/%2F%2Fevil.example',
        `${own}@evil.example/`,
        'javascript:alert(1)',
        'evil.example/reset-password',
      ];
      for (const redirectTo of elsewhere) {
        for (const headers of [{}, { origin: IOS, [SESSION_TRANSPORT_HEADER]: 'bearer' }] as Array<Record<string, string>>) {
          const res = await send({ url: '/api/auth/request-password-reset', headers, payload: { email: 'row8@example.com', redirectTo } });
          expect(res.statusCode, redirectTo).toBe(400);
          expect(res.json().error.message).toBe(REDIRECT_REFUSED);
        }
      }
      // A line break in it is refused by the body check first, in its own words.
      expect((await send({ url: '/api/auth/request-password-reset', payload: { email: 'row8@example.com', redirectTo: '/reset-password\r\n{"level":60}' } })).statusCode).toBe(400);
      expect(readOutbox(t.dataDir).filter((m) => m.to.includes('row8@example.com'))).toHaveLength(0);
    });

    it('a reset link asked for with a path lands on PUBLIC_URL, and so does one with PUBLIC_URL itself', async () => {
      await createSignedInUser(t, 'row8b@example.com', 'calm-waters-1');
      for (const redirectTo of ['/reset-password', `${own}/reset-password`]) {
        const res = await send({ url: '/api/auth/request-password-reset', payload: { email: 'row8b@example.com', redirectTo } });
        expect(res.statusCode, redirectTo).toBe(200);
      }
      const mail = await waitForMail(t.dataDir, 'row8b@example.com', /Reset/);
      const link = new URL(mail.links.find((l) => l.includes('/api/auth/reset-password/')) ?? '');
      const followed = await send({ method: 'GET', url: link.pathname + link.search });
      expect(followed.statusCode).toBe(302);
      const landing = new URL(String(followed.headers.location), own);
      expect(landing.origin).toBe(new URL(own).origin);
      expect(landing.pathname).toBe('/reset-password');
    });

    it('links in queries and sign-in bodies are held to the same rule', async () => {
      const refused: Req[] = [
        { method: 'GET', url: `/api/auth/verify-email?token=x&callbackURL=${encodeURIComponent(`${ANDROID}/steal`)}` },
        { method: 'GET', url: `/api/auth/reset-password/abcdef?callbackURL=${encodeURIComponent(`${IOS}/x`)}` },
        { url: '/api/auth/sign-in/social', payload: { provider: 'google', callbackURL: `${ANDROID}/x` } },
        { url: '/api/auth/sign-in/social', payload: { provider: 'google', callbackURL: '/', errorCallbackURL: 'https://evil.example' } },
        { url: '/api/auth/sign-in/social', payload: { provider: 'google', callbackURL: '/', newUserCallbackURL: `${IOS}/welcome` } },
        { url: '/api/auth/send-verification-email', payload: { email: 'row8c@example.com', callbackURL: { href: '/' } } },
        { url: '/api/auth/sign-up/email', payload: { name: 'Row Eight', email: 'row8c@example.com', password: 'calm-waters-1', callbackURL: `${ANDROID}/verify` } },
      ];
      for (const request of refused) {
        const res = await send(request);
        expect(res.statusCode, request.url).toBe(400);
        expect(res.json().error.message, request.url).toBe(REDIRECT_REFUSED);
      }
      expect(await t.database.db.select().from(user).where(eq(user.email, 'row8c@example.com'))).toHaveLength(0);
    });

    it('a cookie request from an app origin is refused; the apps\' bearer requests from there are not', async () => {
      const { cookie, userId } = await createSignedInUser(t, 'row8d@example.com', 'calm-waters-1');
      for (const origin of [IOS, ANDROID]) {
        const res = await send({ url: '/api/auth/update-user', headers: { cookie, origin }, payload: { name: 'Taken Over' } });
        expect(res.statusCode, origin).toBe(403);
      }
      expect((await t.database.db.select().from(user).where(eq(user.id, userId)))[0].name).toBe('Sam Jones');
      const bearer = await nativeSignIn('row8d@example.com', 'calm-waters-1');
      for (const origin of [IOS, ANDROID]) {
        const res = await send({ url: '/api/auth/update-user', headers: { authorization: `Bearer ${bearer}`, origin }, payload: { name: 'App Person' } });
        expect(res.statusCode, origin).toBe(200);
      }
    });
  });
});
