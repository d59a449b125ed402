/**
 * Sign in with Apple on Android (issue 35, item 4; decision 0071), over the real routes and better-auth's
 * real Apple redirect flow: the system browser's steps (start, Apple's answer at better-auth's callback,
 * return) are requests with that browser's cookie jar; Apple's token endpoint and keys are the local fakes.
 * The app's step (redeem) carries no cookie and gets its session in `set-auth-token`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLE_IN_BROWSER_MESSAGES } from '#shared/native-sign-in.ts';
import { nativeSignInFlows, session, user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { buildUser } from '#tests/factories.ts';
import { nextIp, signIn } from '#tests/setup/auth-helpers.ts';
import { createCookieJar, type CookieJar } from '#tests/setup/cookies.ts';
import { useFakeApple } from '#tests/setup/fake-apple.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const SERVICES_ID = 'app.harbourmind.web';
const APP_ORIGIN = 'https://localhost';

const fake = useFakeApple();

/** The app's proof key: a verifier it keeps, and the challenge it sends (RFC 7636, S256). */
function proofKey() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe.each(testDatabaseKinds())('Sign in with Apple on Android on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind, env: fake.env(SERVICES_ID) });
  });
  afterAll(() => t.close());

  const returnLink = (location: string | undefined) => {
    const url = new URL(String(location));
    expect(`${url.origin}${url.pathname}`).toBe(new URL('/apple-sign-in', t.config.publicUrl).href);
    return url.searchParams;
  };

  /**
   * The system browser's part: start with the challenge, Apple's page (the fake's code for this person),
   * better-auth's callback, then the return step. Gives where the browser was sent last, and its jar.
   */
  async function throughTheBrowser(challenge: string, person: { sub: string; email: string } | { appleError: string }, jar: CookieJar = createCookieJar()) {
    const ip = nextIp();
    const start = await t.app.inject({ method: 'GET', url: `/api/native/apple/start?challenge=${challenge}`, headers: { cookie: jar.header() }, remoteAddress: ip });
    expect(start.statusCode, start.body).toBe(302);
    jar.remember(start.headers['set-cookie']);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.origin).toBe('https://appleid.apple.com');
    expect(authorize.searchParams.get('client_id')).toBe(SERVICES_ID);
    const state = authorize.searchParams.get('state') ?? '';
    const answer =
      'appleError' in person
        ? `error=${person.appleError}&state=${encodeURIComponent(state)}`
        : `code=${encodeURIComponent(fake.apple.issueCode({ clientId: SERVICES_ID, sub: person.sub, email: person.email, nonce: authorize.searchParams.get('nonce') ?? undefined }))}&state=${encodeURIComponent(state)}`;
    const callback = await t.app.inject({ method: 'GET', url: `/api/auth/callback/apple?${answer}`, headers: { cookie: jar.header() }, remoteAddress: ip });
    expect(callback.statusCode, callback.body).toBe(302);
    jar.remember(callback.headers['set-cookie']);
    const back = new URL(String(callback.headers.location), t.config.publicUrl);
    expect(back.pathname).toBe('/api/native/apple/return');
    const returned = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie: jar.header() }, remoteAddress: ip });
    expect(returned.statusCode, returned.body).toBe(302);
    jar.remember(returned.headers['set-cookie']);
    return { link: returnLink(returned.headers.location), jar };
  }

  /** The app's part: no cookie, its WebView's origin, bearer transport. */
  const redeem = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/native/apple/redeem', headers: { origin: APP_ORIGIN, 'x-session-transport': 'bearer' }, payload, remoteAddress: nextIp() });

  it('signs the app in: the return link’s code and the app’s verifier give a bearer session, and the browser is signed out again', async () => {
    const { verifier, challenge } = proofKey();
    const { link, jar } = await throughTheBrowser(challenge, { sub: '001111.android.0001', email: 'android.apple@example.com' });
    const code = link.get('code');
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The system browser keeps no session: its cookie was cleared and the session is gone.
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: jar.header() } })).json()).toMatchObject({ user: null });

    const res = await redeem({ code, verifier });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    const bearer = String(res.headers['set-auth-token']);
    expect(res.json()).toEqual({ user: { id: expect.any(String), email: 'android.apple@example.com', name: expect.any(String) } });
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${bearer}` } });
    expect(me.json()).toMatchObject({ user: { email: 'android.apple@example.com' }, providers: ['apple'] });
    // One session, the app's; the sign-in is in the Security Log like any other.
    const [person] = await t.database.db.select().from(user).where(eq(user.email, 'android.apple@example.com'));
    expect(await t.database.db.select({ id: session.id }).from(session).where(eq(session.userId, person.id))).toHaveLength(1);
    const logged = await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.userId, person.id));
    expect(logged.map((e) => [e.eventType, (e.details as { via?: string }).via])).toContainEqual(['user_login', 'system-browser']);

    // A code works once.
    const again = await redeem({ code, verifier });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: { message: APPLE_IN_BROWSER_MESSAGES.expired } });
  });

  it('opens the account the person already has with that address (confirmed), and keeps its password', async () => {
    const existing = await buildUser(t, { email: 'has.password@example.com', password: 'calm-waters-1' });
    const { verifier, challenge } = proofKey();
    const { link } = await throughTheBrowser(challenge, { sub: '001111.android.0002', email: 'has.password@example.com' });
    const res = await redeem({ code: link.get('code'), verifier });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(existing.id);
    expect((await signIn(t, 'has.password@example.com', 'calm-waters-1')).statusCode).toBe(200);
  });

  it('is worth nothing to whoever catches the link: a wrong verifier burns the code, and the right one then finds nothing', async () => {
    const { verifier, challenge } = proofKey();
    const { link } = await throughTheBrowser(challenge, { sub: '001111.android.0003', email: 'caught@example.com' });
    const thief = await redeem({ code: link.get('code'), verifier: proofKey().verifier });
    expect(thief.statusCode).toBe(400);
    expect(thief.headers['set-auth-token']).toBeUndefined();
    expect((await redeem({ code: link.get('code'), verifier })).statusCode).toBe(400);
  });

  it('a code older than two minutes is refused', async () => {
    const { verifier, challenge } = proofKey();
    const { link } = await throughTheBrowser(challenge, { sub: '001111.android.0004', email: 'late@example.com' });
    await t.database.db.update(nativeSignInFlows).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(nativeSignInFlows.challenge, challenge));
    const res = await redeem({ code: link.get('code'), verifier });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { message: APPLE_IN_BROWSER_MESSAGES.expired } });
  });

  it('closing Apple’s page comes back to the app as cancelled, with no code and no session', async () => {
    const { challenge } = proofKey();
    const { link, jar } = await throughTheBrowser(challenge, { appleError: 'user_cancelled_authorize' });
    expect(Object.fromEntries(link)).toEqual({ error: 'cancelled' });
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: jar.header() } })).json()).toMatchObject({ user: null });
  });

  it('never hands over a session the browser already had: someone signed in on the web there gets "failed", not a code for their account', async () => {
    const owner = await buildUser(t, { email: 'web.owner@example.com', password: 'calm-waters-1' });
    const jar = createCookieJar();
    const signedIn = await signIn(t, 'web.owner@example.com', 'calm-waters-1');
    jar.remember(signedIn.headers['set-cookie']);
    const { challenge } = proofKey();
    // Started by someone else (their challenge), opened in the owner's browser, and Apple's page closed.
    const { link } = await throughTheBrowser(challenge, { appleError: 'user_cancelled_authorize' }, jar);
    expect(link.get('code')).toBeNull();
    // The return step with the owner's session and no Apple answer at all (the flow id guessed or reused).
    const { challenge: other } = proofKey();
    const start = await t.app.inject({ method: 'GET', url: `/api/native/apple/start?challenge=${other}`, remoteAddress: nextIp() });
    const [flow] = await t.database.db.select().from(nativeSignInFlows).where(eq(nativeSignInFlows.challenge, other));
    expect(start.statusCode).toBe(302);
    const returned = await t.app.inject({ method: 'GET', url: `/api/native/apple/return?flow=${flow.id}`, headers: { cookie: jar.header() }, remoteAddress: nextIp() });
    expect(Object.fromEntries(returnLink(returned.headers.location))).toEqual({ error: 'failed' });
    expect(await t.database.db.select().from(nativeSignInFlows).where(eq(nativeSignInFlows.id, flow.id))).toEqual([]);
    expect(owner.id).toEqual(expect.any(String));
  });

  it('refuses what is not a proof key or a code, before anything is written', async () => {
    for (const challenge of ['', 'short', `${'a'.repeat(43)}%00`, 'a'.repeat(44)]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/native/apple/start?challenge=${challenge}`, remoteAddress: nextIp() });
      expect(res.statusCode, challenge).toBe(400);
    }
    for (const flow of ['%00', `${'a'.repeat(31)}%00`, 'a'.repeat(33), '..%2F..']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/native/apple/return?flow=${flow}`, remoteAddress: nextIp() });
      expect(res.statusCode, flow).toBe(400);
    }
    for (const payload of [{}, { code: 'x', verifier: 'y' }, { code: 'a'.repeat(43), verifier: 'b'.repeat(42) }, { code: 'a'.repeat(43), verifier: 'b'.repeat(43), extra: 1 }]) {
      const res = await redeem(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: { message: APPLE_IN_BROWSER_MESSAGES.expired } });
    }
  });
});

describe('Sign in with Apple on Android without Apple configured', () => {
  it('sends the browser straight back to the app with "unavailable"', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: `/api/native/apple/start?challenge=${proofKey().challenge}` });
      expect(res.statusCode).toBe(302);
      expect(new URL(String(res.headers.location)).searchParams.get('error')).toBe('unavailable');
      expect(await t.database.db.select().from(nativeSignInFlows)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});


