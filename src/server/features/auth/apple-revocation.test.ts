/**
 * Sign in with Apple's tokens revoked at account deletion (issue 35, item 7; decision 0064), against a
 * local fake of Apple's token and revoke endpoints that checks every client secret's ES256 signature
 * (tests/fakes/apple-id-server.ts) and the fake of Apple's published keys for the identity tokens.
 * The app keeps the refresh token from the app's authorization code, sealed; deletion revokes it; an
 * unreachable Apple never holds a deletion back, and the job sends it later.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { account, appleRefreshTokens, appleTokenRevocations, user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { appleSignInFor, GIVE_UP_AFTER_MS, sendAppleRevocations, type AppleSignIn } from '#server/features/auth/apple-revocations.ts';
import { sealStoredProviderTokens } from '#server/features/auth/stored-tokens.ts';
import { buildUser } from '#tests/factories.ts';
import { appleClaims, sha256Hex } from '#tests/fakes/fake-id-token-keys.ts';
import { nextIp, origin } from '#tests/setup/auth-helpers.ts';
import { createCookieJar } from '#tests/setup/cookies.ts';
import { useFakeApple } from '#tests/setup/fake-apple.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const NONCE = 'f3c1a9e07b2d4c6a8e5f1b3d7c9a0e2f';
const BUNDLE_ID = 'app.harbourmind';
const SERVICES_ID = 'app.harbourmind.web';
const silent = { info: () => {}, warn: () => {}, error: () => {} };

const fake = useFakeApple();

beforeEach(() => {
  fake.apple.down = false;
  fake.apple.refusedSecrets.length = 0;
});

describe.each(testDatabaseKinds())('Sign in with Apple’s tokens on %s', (kind) => {
  let t: TestApp;
  let appleSignIn: AppleSignIn;
  beforeAll(async () => {
    t = await createTestApp({ kind, env: fake.env(SERVICES_ID) });
    const configured = await appleSignInFor(t.config, t.app.auth);
    if (!configured) throw new Error('Sign in with Apple is not configured');
    appleSignIn = configured;
  });
  afterAll(() => t.close());

  /** What the iOS app sends after Sign in with Apple: the identity token for `sub`, its nonce, and the authorization code Apple gave the app. */
  const postAppleSignIn = (sub: string, email: string, authorizationCode: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      headers: { ...origin(t), 'x-session-transport': 'bearer' },
      payload: { provider: 'apple', idToken: { token: fake.keys.sign(appleClaims({ nonce: sha256Hex(NONCE), sub, email })), nonce: NONCE, authorizationCode } },
      remoteAddress: nextIp(),
    });

  /** The iOS app's Sign in with Apple, with a code Apple made for the same person. */
  async function signInOnIphone(sub: string, email: string) {
    const res = await postAppleSignIn(sub, email, fake.apple.issueCode({ clientId: BUNDLE_ID, sub, email }));
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
    return { bearer: String(res.headers['set-auth-token']), userId: row.id };
  }

  const deleteAccount = (bearer: string) =>
    t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { ...origin(t), authorization: `Bearer ${bearer}` }, payload: { confirmation: 'DELETE' }, remoteAddress: nextIp() });

  const keptTokens = async (userId: string) =>
    t.database.db
      .select({ clientId: appleRefreshTokens.clientId, sealed: appleRefreshTokens.refreshToken })
      .from(appleRefreshTokens)
      .innerJoin(account, eq(account.id, appleRefreshTokens.accountId))
      .where(eq(account.userId, userId));

  describe('Sign in with Apple from the apps keeps Apple’s refresh token, sealed', () => {
    it('exchanges the app’s authorization code (client secret signed ES256 for the bundle id) and stores the token only sealed', async () => {
      const { userId } = await signInOnIphone('001111.aaaa.0001', 'kept@example.com');
      const issued = fake.apple.refreshTokens.at(-1);
      expect(issued?.clientId).toBe(BUNDLE_ID);
      expect(fake.apple.refusedSecrets).toEqual([]);
      const kept = await keptTokens(userId);
      expect(kept).toHaveLength(1);
      expect(kept[0].clientId).toBe(BUNDLE_ID);
      // Not the token, nor anything holding it; the sealer opens it back.
      expect(kept[0].sealed).not.toContain(String(issued?.token));
      expect(kept[0].sealed).toMatch(/^[0-9a-f]+$|^\$ba\$/);
      expect(await appleSignIn.sealer.open(kept[0].sealed)).toBe(issued?.token);
      // Nowhere else in the database either.
      const dump = JSON.stringify(await t.database.db.select().from(account).where(eq(account.userId, userId)));
      expect(dump).not.toContain(String(issued?.token));
    });

    it('a code made for another person is not kept on this account (Apple’s answer names someone else)', async () => {
      const other = fake.apple.issueCode({ clientId: BUNDLE_ID, sub: '009999.other.0001' });
      const res = await postAppleSignIn('001111.bbbb.0002', 'swap@example.com', other);
      // The person is signed in; only the token is not kept.
      expect(res.statusCode).toBe(200);
      const [row] = await t.database.db.select().from(user).where(eq(user.email, 'swap@example.com'));
      expect(await keptTokens(row.id)).toEqual([]);
    });
  });

  describe('Deleting an account revokes its Apple tokens', () => {
    it('deletion sends Apple the kept refresh token with a good client secret, and nothing is left owed', async () => {
      const { bearer, userId } = await signInOnIphone('001111.cccc.0003', 'revoke@example.com');
      const issued = fake.apple.refreshTokens.at(-1);
      const res = await deleteAccount(bearer);
      expect(res.statusCode, res.body).toBe(200);
      expect(await t.database.db.select().from(user).where(eq(user.id, userId))).toEqual([]);
      expect(fake.apple.revocations).toContainEqual({ clientId: BUNDLE_ID, token: issued?.token, tokenTypeHint: 'refresh_token' });
      expect(fake.apple.refusedSecrets).toEqual([]);
      expect(await t.database.db.select().from(appleTokenRevocations)).toEqual([]);
    });

    it('with Apple unreachable the deletion completes; the revocation waits sealed and the job sends it when Apple is back', async () => {
      const { bearer, userId } = await signInOnIphone('001111.dddd.0004', 'outage@example.com');
      const issued = fake.apple.refreshTokens.at(-1);
      const before = fake.apple.revocations.length;
      fake.apple.down = true;
      const res = await deleteAccount(bearer);
      expect(res.statusCode, res.body).toBe(200);
      expect(await t.database.db.select().from(user).where(eq(user.id, userId))).toEqual([]);
      const [owed] = await t.database.db.select().from(appleTokenRevocations);
      expect(owed).toMatchObject({ clientId: BUNDLE_ID, attempts: 1, lastError: expect.stringContaining('503') });
      expect(owed.token).not.toContain(String(issued?.token));
      expect(fake.apple.revocations).toHaveLength(before);

      // Not due yet: the job leaves it.
      expect(await sendAppleRevocations({ db: t.database.db, apple: appleSignIn, log: silent, now: new Date(owed.nextAttemptAt.getTime() - 1) })).toMatchObject({ revoked: 0, retry: 0 });
      fake.apple.down = false;
      expect(await sendAppleRevocations({ db: t.database.db, apple: appleSignIn, log: silent, now: owed.nextAttemptAt })).toMatchObject({ revoked: 1 });
      expect(fake.apple.revocations.at(-1)).toEqual({ clientId: BUNDLE_ID, token: issued?.token, tokenTypeHint: 'refresh_token' });
      expect(await t.database.db.select().from(appleTokenRevocations)).toEqual([]);
    });

    it('after a week of failures the revocation is given up and the Security Log says so (without the token)', async () => {
      const { bearer } = await signInOnIphone('001111.eeee.0005', 'giveup@example.com');
      fake.apple.down = true;
      expect((await deleteAccount(bearer)).statusCode).toBe(200);
      const [owed] = await t.database.db.select().from(appleTokenRevocations);
      const later = new Date(owed.createdAt.getTime() + GIVE_UP_AFTER_MS);
      expect(await sendAppleRevocations({ db: t.database.db, apple: appleSignIn, log: silent, now: later })).toMatchObject({ abandoned: 1 });
      expect(await t.database.db.select().from(appleTokenRevocations)).toEqual([]);
      const events = await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'apple_revocation_failed'));
      expect(events).toMatchObject([{ severity: 'high', userId: null, userEmail: null, details: { clientId: BUNDLE_ID } }]);
    });
  });

  describe('The web’s Sign in with Apple (redirect flow)', () => {
    it('keeps the Services ID’s refresh token sealed by better-auth, and deletion revokes it for the Services ID', async () => {
      const jar = createCookieJar();
      const start = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/social', headers: origin(t), payload: { provider: 'apple', callbackURL: '/' }, remoteAddress: nextIp() });
      expect(start.statusCode, start.body).toBe(200);
      jar.remember(start.headers['set-cookie']);
      const authorize = new URL(start.json<{ url: string }>().url);
      const code = fake.apple.issueCode({ clientId: SERVICES_ID, sub: '001111.ffff.0006', email: 'web.apple@example.com', nonce: authorize.searchParams.get('nonce') ?? undefined });
      const back = await t.app.inject({ method: 'GET', url: `/api/auth/callback/apple?code=${encodeURIComponent(code)}&state=${encodeURIComponent(authorize.searchParams.get('state') ?? '')}`, headers: { cookie: jar.header() }, remoteAddress: nextIp() });
      expect(back.statusCode, back.body).toBe(302);
      expect(back.headers.location).not.toMatch(/error/);
      jar.remember(back.headers['set-cookie']);
      const issued = fake.apple.refreshTokens.at(-1);
      expect(issued?.clientId).toBe(SERVICES_ID);
      const [row] = await t.database.db.select().from(user).where(eq(user.email, 'web.apple@example.com'));
      const [signIn] = await t.database.db.select().from(account).where(eq(account.userId, row.id));
      expect(signIn.refreshToken).toEqual(expect.any(String));
      expect(signIn.refreshToken).not.toContain(String(issued?.token));
      expect(await appleSignIn.sealer.open(String(signIn.refreshToken))).toBe(issued?.token);

      const res = await t.app.inject({ method: 'POST', url: '/api/account/delete', headers: { ...origin(t), cookie: jar.header() }, payload: { confirmation: 'DELETE' }, remoteAddress: nextIp() });
      expect(res.statusCode, res.body).toBe(200);
      expect(fake.apple.revocations).toContainEqual({ clientId: SERVICES_ID, token: issued?.token, tokenTypeHint: 'refresh_token' });
      expect(fake.apple.refusedSecrets).toEqual([]);
    });
  });

  describe('tokens stored before sealing was turned on', () => {
    it('are sealed at start: none stays as it came, and each opens back to itself', async () => {
      const person = await buildUser(t, { email: 'before.sealing@example.com' });
      const plain = { accessToken: 'ya29.plain-access-token-from-before', refreshToken: '1//plain-refresh-token-from-before' };
      await t.database.db.insert(account).values({ id: 'acct-before-sealing', userId: person.id, providerId: 'google', accountId: 'g-before', ...plain });
      expect(await sealStoredProviderTokens({ db: t.database.db, sealer: appleSignIn.sealer })).toBe(2);
      const [row] = await t.database.db.select().from(account).where(eq(account.id, 'acct-before-sealing'));
      expect(JSON.stringify(row)).not.toContain('plain-');
      expect(await appleSignIn.sealer.open(String(row.accessToken))).toBe(plain.accessToken);
      expect(await appleSignIn.sealer.open(String(row.refreshToken))).toBe(plain.refreshToken);
      // A second pass finds nothing left to seal.
      expect(await sealStoredProviderTokens({ db: t.database.db, sealer: appleSignIn.sealer })).toBe(0);
    });
  });
});
