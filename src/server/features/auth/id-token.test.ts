/**
 * Sign-in from the apps with an identity token (issue 19, item 3): the app signs in on the device
 * (Sign in with Apple, Google's sign-in sheet) and posts the token to better-auth's id-token sign-in.
 * The real server verifies it against the provider's published keys (here a local fake of Apple's and
 * Google's key endpoints, tests/fakes/fake-id-token-keys.ts), its issuer, audience, expiry and the nonce,
 * and answers a bearer session. Every refusal leaves no account behind.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_TOKEN_REFUSED } from '#shared/native-sign-in.ts';
import { account, user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { appleClaims, googleClaims, routeProviderKeysTo, sha256Hex, startFakeIdTokenKeys, type FakeIdTokenKeys } from '#tests/fakes/fake-id-token-keys.ts';
import { nextIp, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const NONCE = 'f3c1a9e07b2d4c6a8e5f1b3d7c9a0e2f';
const BEARER = { 'x-session-transport': 'bearer' };

let t: TestApp;
let keys: FakeIdTokenKeys;
let unroute: () => void;
beforeAll(async () => {
  keys = await startFakeIdTokenKeys();
  unroute = routeProviderKeysTo(keys.url);
  t = await createTestApp({
    env: {
      APPLE_CLIENT_ID: 'app.harbourmind.web',
      APPLE_CLIENT_SECRET: 'apple-secret-jwt',
      GOOGLE_CLIENT_ID: 'web-client.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_NATIVE_CLIENT_IDS: 'ios-client.apps.googleusercontent.com, android-client.apps.googleusercontent.com',
    },
  });
});
afterAll(async () => {
  await t.close();
  unroute();
  await keys.close();
});

const signInWith = (provider: 'apple' | 'google', idToken: Record<string, unknown>, headers: Record<string, string> = BEARER) =>
  t.app.inject({ method: 'POST', url: '/api/auth/sign-in/social', headers: { ...origin(t), ...headers }, payload: { provider, idToken }, remoteAddress: nextIp() });
const usersNamed = (email: string) => t.database.db.select().from(user).where(eq(user.email, email));

describe('Apple identity tokens from the iOS app', () => {
  it('a valid token (Apple holds the SHA-256 of the app’s nonce) makes the account and answers a bearer session, no cookie', async () => {
    const token = keys.sign(appleClaims({ nonce: sha256Hex(NONCE) }));
    const res = await signInWith('apple', { token, nonce: NONCE, user: { name: { firstName: 'Lena', lastName: 'Marsh' }, email: 'lena.apple@example.com' } });
    expect(res.statusCode, res.body).toBe(200);
    const bearer = res.headers['set-auth-token'];
    expect(bearer).toEqual(expect.any(String));
    expect(res.headers['set-cookie']).toBeUndefined();
    const [row] = await usersNamed('lena.apple@example.com');
    expect(row).toMatchObject({ name: 'Lena Marsh', emailVerified: true });
    expect(await t.database.db.select().from(account).where(eq(account.userId, row.id))).toMatchObject([{ providerId: 'apple', accountId: '001234.5e1f0c3c2b9a4d7e8f6a.0917' }]);
    const events = await t.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.userId, row.id));
    expect(events).toMatchObject([{ eventType: 'user_login', details: { method: 'apple' } }]);

    // The kept token is the session.
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${String(bearer)}` } });
    expect(me.json()).toMatchObject({ user: { email: 'lena.apple@example.com', name: 'Lena Marsh' } });
  });

  it.each([
    ['made for another app (audience: the web Services ID)', () => keys.sign(appleClaims({ nonce: sha256Hex(NONCE), aud: 'app.harbourmind.web', email: 'aud@example.com' })), NONCE],
    ['from another issuer', () => keys.sign(appleClaims({ nonce: sha256Hex(NONCE), iss: 'https://appleid.apple.com.evil.example', email: 'iss@example.com' })), NONCE],
    ['expired', () => keys.sign(appleClaims({ nonce: sha256Hex(NONCE), iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600, email: 'exp@example.com' })), NONCE],
    ['signed by another key', () => keys.forge(appleClaims({ nonce: sha256Hex(NONCE), email: 'sig@example.com' })), NONCE],
    ['for another nonce', () => keys.sign(appleClaims({ nonce: sha256Hex('a-different-nonce-0123456789'), email: 'nonce@example.com' })), NONCE],
  ])('a token %s is refused and makes no account', async (_case, token, nonce) => {
    const before = await t.database.db.select().from(user);
    const res = await signInWith('apple', { token: token(), nonce });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'auth/failed', message: ID_TOKEN_REFUSED } });
    expect(res.headers['set-auth-token']).toBeUndefined();
    expect(await t.database.db.select().from(user)).toHaveLength(before.length);
  });

  it('a token sent without its nonce is refused before better-auth (which would skip the check)', async () => {
    const token = keys.sign(appleClaims({ nonce: sha256Hex(NONCE), email: 'no-nonce@example.com' }));
    for (const idToken of [{ token }, { token, nonce: '' }, { token, nonce: 'short' }]) {
      const res = await signInWith('apple', idToken);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(ID_TOKEN_REFUSED);
    }
    expect(await usersNamed('no-nonce@example.com')).toEqual([]);
  });
});

describe('Google identity tokens from the Android app', () => {
  it('accepts the configured client ids as audience (Android’s token names the web client), with the exact nonce', async () => {
    const res = await signInWith('google', { token: keys.sign(googleClaims('web-client.apps.googleusercontent.com', { nonce: NONCE })), nonce: NONCE });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['set-auth-token']).toEqual(expect.any(String));
    expect(await usersNamed('gwen.google@example.com')).toMatchObject([{ name: 'Gwen Google', emailVerified: true }]);
    const ios = await signInWith('google', { token: keys.sign(googleClaims('ios-client.apps.googleusercontent.com', { nonce: NONCE, sub: '2', email: 'ios@example.com' })), nonce: NONCE });
    expect(ios.statusCode).toBe(200);
  });

  it.each([
    ['for an unknown client', googleClaims('someone-else.apps.googleusercontent.com', { nonce: NONCE, sub: '3', email: 'g-aud@example.com' })],
    ['from another issuer', { ...googleClaims('web-client.apps.googleusercontent.com', { nonce: NONCE, sub: '4', email: 'g-iss@example.com' }), iss: 'https://accounts.example.com' }],
    ['for another nonce', googleClaims('web-client.apps.googleusercontent.com', { nonce: 'another-nonce-0123456789abcdef', sub: '5', email: 'g-nonce@example.com' })],
  ])('a token %s is refused and makes no account', async (_case, claims) => {
    const res = await signInWith('google', { token: keys.sign(claims), nonce: NONCE });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('auth/failed');
    expect(await usersNamed(String(claims.email))).toEqual([]);
  });
});
