/**
 * The credentials limiter's per-IP request limits through the real routes (issue 34 item 4): sign-in
 * counted whatever its outcome, Apple and Google sign-in on the same counter, and the two mails anyone
 * may have sent to an address. Each refusal is the app's 429 with Retry-After, a security event, and
 * nothing sent on to better-auth (no session, no mail).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { requestRules } from '#server/features/auth/credentials-limiter.ts';
import { createSignedInUser, origin, signIn, signUp } from '#tests/setup/auth-helpers.ts';
import { readOutbox, waitForMail } from '#tests/setup/outbox.ts';
import { captureLog, createTestApp, type TestApp } from '#tests/setup/test-app.ts';

/** A low sign-in backstop, so the test reaches it without tripping anything else first. */
const SIGN_INS_PER_MINUTE = 3;
const rules = requestRules(SIGN_INS_PER_MINUTE);

describe('credentials limits per IP, through the routes', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ config: { signInRequestsPerMinute: SIGN_INS_PER_MINUTE }, logger: { level: 'debug', stream: log.stream } });
  });
  afterAll(() => t.close());

  const limitedFor = async (ip: string, action: string) =>
    (await t.database.db.select().from(securityAuditLog).where(and(eq(securityAuditLog.eventType, 'rate_limit_exceeded'), eq(securityAuditLog.ipAddress, ip)))).filter(
      (event) => (event.details as { action?: string }).action === action,
    );
  const mailsTo = (email: string, subject: RegExp) => readOutbox(t.dataDir).filter((mail) => mail.to.includes(email) && subject.test(mail.subject));

  it('counts every sign-in from one address, successes too, with Apple and Google sign-in on the same counter', async () => {
    await createSignedInUser(t, 'busy@example.com', 'calm-waters-1');
    const ip = '203.0.113.70';
    for (let i = 0; i < SIGN_INS_PER_MINUTE; i += 1) expect((await signIn(t, 'busy@example.com', 'calm-waters-1', {}, ip)).statusCode).toBe(200);

    const refused = await signIn(t, 'busy@example.com', 'calm-waters-1', {}, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['set-cookie']).toBeUndefined();
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json().error).toMatchObject({ code: 'auth/too-many-requests', message: `Please wait ${String(retryAfter)} seconds before trying again.` });
    const social = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/social', headers: origin(t), payload: { provider: 'google', callbackURL: '/' }, remoteAddress: ip });
    expect(social.statusCode).toBe(429);
    expect(await limitedFor(ip, 'sign-in')).toHaveLength(2);

    // Another address signs in as usual.
    expect((await signIn(t, 'busy@example.com', 'calm-waters-1', {}, '203.0.113.71')).statusCode).toBe(200);
  });

  it('sends at most its limit of reset links from one address, and nothing past it', async () => {
    await createSignedInUser(t, 'forgetful@example.com', 'calm-waters-1');
    const ip = '203.0.113.72';
    const ask = (from: string) => t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers: origin(t), payload: { email: 'forgetful@example.com', redirectTo: '/reset-password' }, remoteAddress: from });
    const perWindow = rules['reset-mail'].perWindow;
    for (let i = 0; i < perWindow; i += 1) expect((await ask(ip)).statusCode).toBe(200);
    const refused = await ask(ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await limitedFor(ip, 'reset-mail')).toHaveLength(1);

    // One more from elsewhere is sent: once it has arrived, every mail asked for before it has too.
    expect((await ask('203.0.113.73')).statusCode).toBe(200);
    await expect.poll(() => mailsTo('forgetful@example.com', /Reset your Harbour Mind password/).length).toBe(perWindow + 1);
  });

  it('sends at most its limit of new confirmation links from one address, and nothing past it', async () => {
    expect((await signUp(t, { name: 'Una Confirmed', email: 'unconfirmed@example.com', password: 'calm-waters-1' })).statusCode).toBe(200);
    await waitForMail(t.dataDir, 'unconfirmed@example.com', /Confirm your e-mail/);
    const ip = '203.0.113.74';
    const ask = (from: string) => t.app.inject({ method: 'POST', url: '/api/auth/send-verification-email', headers: origin(t), payload: { email: 'unconfirmed@example.com', callbackURL: '/sign-in?verified=1' }, remoteAddress: from });
    const perWindow = rules['verification-mail'].perWindow;
    for (let i = 0; i < perWindow; i += 1) expect((await ask(ip)).statusCode).toBe(200);
    expect((await ask(ip)).statusCode).toBe(429);
    expect(await limitedFor(ip, 'verification-mail')).toHaveLength(1);

    expect((await ask('203.0.113.75')).statusCode).toBe(200);
    // The sign-up's own mail, the limit's worth, and the one from elsewhere.
    await expect.poll(() => mailsTo('unconfirmed@example.com', /Confirm your e-mail/).length).toBe(perWindow + 2);
  });

  it('logs the refusals better-auth answered as debug lines of the app, never as server errors', async () => {
    expect((await signIn(t, 'nobody-at-all', 'x', {}, '203.0.113.76')).statusCode).toBe(400);
    const lines = log.lines.map((line) => JSON.parse(line) as { level: number; source?: string; msg: string });
    // The refusals above went through better-auth's router (its hooks threw them): each a debug line of ours.
    expect(lines.filter((line) => line.source === 'better-auth' && line.level >= 50)).toEqual([]);
    expect(lines.some((line) => line.source === 'better-auth' && line.level === 20)).toBe(true);
  });
});
