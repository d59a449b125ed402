import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, session, user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { browser, createSignedInUser, origin, signIn, signUp, verifyFromOutbox } from '#tests/setup/auth-helpers.ts';
import { waitForMail } from '#tests/setup/outbox.ts';
import { captureLog, createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('accounts API on %s', (kind) => {
  let t: TestApp;
  const { lines: logLines, stream } = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ kind, logger: { level: 'debug', stream } });
  });
  afterAll(() => t.close());

  const events = async (type: string) => t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, type));
  const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

  it('validates sign-up on the server with the spec messages and creates nothing', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: 'Sam', email: '', password: 'secret1' }, 'Please fill in all fields'],
      [{ name: 'Sam', email: 'a@b.co', password: '' }, 'Please fill in all fields'],
      [{ name: '   ', email: 'a@b.co', password: 'secret1' }, 'Please enter a full name'],
      [{ name: '<script>x</script>', email: 'a@b.co', password: 'secret1' }, 'Name contains invalid content'],
      [{ name: 'Sam', email: 'not-an-email', password: 'secret1' }, 'Please enter a valid email address'],
      [{ name: 'Sam', email: 'a@b.co', password: '12345' }, 'Password must be at least 6 characters long'],
    ];
    for (const [body, message] of cases) {
      const res = await signUp(t, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    expect(await t.database.db.select().from(user)).toHaveLength(0);
  });

  it('signs up, requires verification, then signs in with a secure session cookie', async () => {
    const res = await signUp(t, { name: 'Ava Green', email: 'Ava@Example.com', password: 'harbour-1' });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(user).where(eq(user.email, 'ava@example.com'));
    expect(row.emailVerified).toBe(false);
    expect(row.name).toBe('Ava Green');
    expect((await events('user_signup')).some((e) => e.userEmail === 'ava@example.com')).toBe(true);

    const early = await signIn(t, 'ava@example.com', 'harbour-1');
    expect(early.statusCode).toBe(403);
    expect(early.json().error.message).toBe('Please verify your email address before signing in');

    const verified = await verifyFromOutbox(t, 'ava@example.com');
    expect(verified.statusCode).toBeLessThan(400);

    const ava = browser(t);
    const ok = await ava.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email: 'ava@example.com', password: 'harbour-1' } });
    expect(ok.statusCode).toBe(200);
    const setCookie = ([] as string[]).concat(ok.headers['set-cookie'] ?? []).join('\n');
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/); // plain http in tests; Secure is added over https

    const who = await ava.inject({ method: 'GET', url: '/api/me' });
    expect(who.json()).toMatchObject({ user: { email: 'ava@example.com', name: 'Ava Green', emailVerified: true }, role: 'user', providers: ['credential'] });
    expect(JSON.stringify(who.json())).not.toMatch(/password|token/i);
    expect((await events('user_login')).length).toBeGreaterThan(0);
  });

  it('refuses a second account for the same e-mail, whatever its case', async () => {
    await signUp(t, { name: 'Ben Stone', email: 'ben@example.com', password: 'harbour-1' });
    const again = await signUp(t, { name: 'Ben Again', email: 'BEN@example.com', password: 'harbour-2' });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect(again.json().error.message).toBe('An account with this email already exists. Please sign in instead.');
  });

  it('answers a wrong password and an unknown account alike, and records the failure', async () => {
    await createSignedInUser(t, 'cara@example.com', 'right-pass-1');
    for (const [email, password] of [
      ['cara@example.com', 'wrong-pass'],
      ['nobody@example.com', 'whatever1'],
    ]) {
      const res = await signIn(t, email, password);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe('Invalid email or password');
    }
    expect((await events('failed_login')).filter((e) => e.userEmail === 'cara@example.com')).toHaveLength(1);
  });

  it('validates sign-in input', async () => {
    expect((await signIn(t, '', '')).json().error.message).toBe('Please fill in all fields');
    expect((await signIn(t, 'bad-email', 'x')).json().error.message).toBe('Please enter a valid email address');
  });

  it('limits failed sign-ins to 10 per 5 minutes per account, with Retry-After', async () => {
    await createSignedInUser(t, 'dan@example.com', 'right-pass-1');
    // Ten failures from ten different addresses: the account's own counter trips.
    for (let i = 0; i < 10; i += 1) {
      const res = await signIn(t, 'dan@example.com', `wrong-${i}`, {}, `192.0.2.${i + 1}`);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await signIn(t, 'dan@example.com', 'right-pass-1', {}, '192.0.2.99');
    expect(blocked.statusCode).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(200);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(blocked.json().error.message).toBe(`Please wait ${retryAfter} seconds before trying again.`);
    expect((await events('rate_limit_exceeded')).length).toBeGreaterThan(0);
  });

  it('limits failed sign-ins per IP across accounts, and a success clears only the account counter', async () => {
    await createSignedInUser(t, 'gus@example.com', 'right-pass-1');
    const ip = '203.0.113.50';
    for (let i = 0; i < 10; i += 1) expect((await signIn(t, `stranger${i}@example.com`, 'nope-nope', {}, ip)).statusCode).toBe(401);
    expect((await signIn(t, 'gus@example.com', 'right-pass-1', {}, ip)).statusCode).toBe(429);
    expect((await signIn(t, 'gus@example.com', 'right-pass-1', {}, '203.0.113.51')).statusCode).toBe(200);
  });

  it('resets a password by e-mail and signs out every other session', async () => {
    const { cookie } = await createSignedInUser(t, 'eve@example.com', 'old-pass-1');
    expect((await me(cookie)).json().user.email).toBe('eve@example.com');

    const request = await t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers: origin(t), payload: { email: 'eve@example.com', redirectTo: '/reset-password' } });
    expect(request.statusCode).toBe(200);
    expect((await events('password_reset_requested')).some((e) => e.userEmail === 'eve@example.com')).toBe(true);
    const mail = await waitForMail(t.dataDir, 'eve@example.com', /Reset your Harbour Mind password/);
    const link = new URL(mail.links.find((l) => l.includes('/reset-password'))!);
    const followed = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    const location = new URL(String(followed.headers.location), t.config.publicUrl);
    expect(location.pathname).toBe('/reset-password');
    const token = location.searchParams.get('token')!;
    expect(token).toBeTruthy();

    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: origin(t), payload: { token, newPassword: 'new-pass-1' } });
    expect(reset.statusCode).toBe(200);
    expect((await me(cookie)).json().user).toBeNull();
    expect((await signIn(t, 'eve@example.com', 'old-pass-1')).statusCode).toBe(401);
    expect((await signIn(t, 'eve@example.com', 'new-pass-1')).statusCode).toBe(200);

    const reused = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: origin(t), payload: { token, newPassword: 'again-pass-1' } });
    expect(reused.statusCode).toBe(400);
  });

  it('signs out by revoking the session on the server', async () => {
    const { cookie, userId } = await createSignedInUser(t, 'fay@example.com');
    expect(await t.database.db.select().from(session).where(eq(session.userId, userId))).toHaveLength(1);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { ...origin(t), cookie } });
    expect(out.statusCode).toBe(200);
    expect(await t.database.db.select().from(session).where(eq(session.userId, userId))).toHaveLength(0);
    expect((await me(cookie)).json().user).toBeNull();
  });

  it('changes a password only with the current one and the spec length, and lists sessions without tokens', async () => {
    const { cookie, userId } = await createSignedInUser(t, 'hal@example.com', 'old-pass-1');
    const change = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/change-password', headers: { ...origin(t), cookie }, payload });
    const [before] = await t.database.db.select().from(account).where(eq(account.userId, userId));
    const short = await change({ currentPassword: 'old-pass-1', newPassword: '12345' });
    expect([short.statusCode, short.json().error.message]).toEqual([400, 'Password must be at least 6 characters long']);
    const wrong = await change({ currentPassword: 'not-it', newPassword: 'new-pass-2' });
    expect(wrong.json().error.message).toBe('Your current password is not correct.');
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);

    const sessions = await t.app.inject({ method: 'GET', url: '/api/auth/list-sessions', headers: { cookie } });
    expect(sessions.statusCode).toBe(200);
    expect(sessions.body).not.toMatch(/"token"/);
    expect(sessions.json()).toHaveLength(1);

    const [after] = await t.database.db.select().from(account).where(eq(account.userId, userId));
    expect(after.password).toBe(before.password);
    const ok = await change({ currentPassword: 'old-pass-1', newPassword: 'new-pass-2', revokeOtherSessions: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).not.toMatch(/"token"/);
    const [changed] = await t.database.db.select().from(account).where(eq(account.userId, userId));
    expect(changed.password).not.toBe(before.password);
  });

  it('ignores a client-supplied IP header', async () => {
    const res = await signIn(t, 'fay@example.com', 'wrong-pass', { 'x-hm-client-ip': '203.0.113.9' }, '198.51.100.251');
    expect(res.statusCode).toBe(401);
    const [latest] = (await events('failed_login')).filter((e) => e.userEmail === 'fay@example.com');
    expect(latest.ipAddress).toBe('198.51.100.251');
  });

  it('says which social providers are configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth-providers' });
    expect(res.json()).toEqual({ google: false, apple: false });
  });

  it('never writes a password, token or session id to the logs', async () => {
    const all = logLines.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const secret of ['harbour-1', 'right-pass-1', 'old-pass-1', 'new-pass-1', 'token=']) expect(all).not.toContain(secret);
    const sessions = await t.database.db.select({ token: session.token }).from(session);
    for (const s of sessions) expect(all).not.toContain(s.token);
  });
});
