/**
 * Sign-in that follows a person across platforms (issue 35, item 4; decision 0064): whichever way a
 * person signs in (e-mail and password, Google on the web or in either app, Apple on the web or in
 * either app), the account is found by the provider account it was made with, else by an e-mail address
 * both sides have confirmed. Identity tokens are signed by the local fake of the providers' keys and go
 * through better-auth's verification unchanged.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/messages.ts';
import { account, user } from '#server/db/schema/auth.ts';
import { appleClaims, googleClaims, routeProviderKeysTo, sha256Hex, startFakeIdTokenKeys, type FakeIdTokenKeys } from '#tests/fakes/fake-id-token-keys.ts';
import { createSignedInUser, nextIp, origin, signIn, signUp } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const NONCE = 'f3c1a9e07b2d4c6a8e5f1b3d7c9a0e2f';
const GOOGLE_WEB = 'web-client.apps.googleusercontent.com';
const GOOGLE_IOS = 'ios-client.apps.googleusercontent.com';

let keys: FakeIdTokenKeys;
let unroute: () => void;
beforeAll(async () => {
  keys = await startFakeIdTokenKeys();
  unroute = routeProviderKeysTo(keys.url);
});
afterAll(async () => {
  unroute();
  await keys.close();
});

describe.each(testDatabaseKinds())('one account across sign-in methods on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      kind,
      env: { APPLE_CLIENT_ID: 'app.harbourmind.web', APPLE_CLIENT_SECRET: 'apple-secret-jwt', GOOGLE_CLIENT_ID: GOOGLE_WEB, GOOGLE_CLIENT_SECRET: 'google-secret', GOOGLE_IOS_CLIENT_ID: GOOGLE_IOS },
    });
  });
  afterAll(() => t.close());

  const withToken = (provider: 'apple' | 'google', token: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-in/social', headers: { ...origin(t), 'x-session-transport': 'bearer' }, payload: { provider, idToken: { token, nonce: NONCE } }, remoteAddress: nextIp() });
  const google = (claims: Record<string, unknown>, aud = GOOGLE_WEB) => withToken('google', keys.sign(googleClaims(aud, { nonce: NONCE, ...claims })));
  const apple = (claims: Record<string, unknown>) => withToken('apple', keys.sign(appleClaims({ nonce: sha256Hex(NONCE), ...claims })));
  const signedInAs = (res: { json(): unknown }) => (res.json() as { user?: { id?: string } }).user?.id;
  const usersWith = (email: string) => t.database.db.select().from(user).where(eq(user.email, email));
  const providersOf = async (userId: string) => (await t.database.db.select({ providerId: account.providerId }).from(account).where(eq(account.userId, userId))).map((a) => a.providerId).sort();

  describe('an account is found by its confirmed e-mail, whichever way the person signs in', () => {
    it('Google vouching for the address of a confirmed e-mail account opens that account and joins Google to it', async () => {
      const { userId } = await createSignedInUser(t, 'maya@example.com');
      const res = await google({ sub: 'g-maya', email: 'maya@example.com', email_verified: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(signedInAs(res)).toBe(userId);
      expect(await providersOf(userId)).toEqual(['credential', 'google']);
      // And the password still works: both ways lead to the one account.
      expect((await signIn(t, 'maya@example.com', 'calm-waters-1')).json().user.id).toBe(userId);
    });

    it('Apple (its real address, which Apple confirms) opens the same confirmed account; so does Google after it', async () => {
      const { userId } = await createSignedInUser(t, 'noor@example.com');
      const first = await apple({ sub: '000100.noor.0001', email: 'noor@example.com' });
      expect(first.statusCode, first.body).toBe(200);
      expect(signedInAs(first)).toBe(userId);
      expect(signedInAs(await google({ sub: 'g-noor', email: 'noor@example.com', email_verified: true }))).toBe(userId);
      expect(await providersOf(userId)).toEqual(['apple', 'credential', 'google']);
    });

    it('an account made with Google is opened by Apple with the same confirmed address (web sign-up, then an iPhone)', async () => {
      const made = await google({ sub: 'g-ines', email: 'ines@example.com', email_verified: true });
      const userId = signedInAs(made);
      expect(userId).toEqual(expect.any(String));
      expect(signedInAs(await apple({ sub: '000100.ines.0002', email: 'ines@example.com' }))).toBe(userId);
      expect(await usersWith('ines@example.com')).toHaveLength(1);
    });
  });

  describe('what is never joined', () => {
    it('an e-mail account whose address was never confirmed is not taken over by a provider sign-in', async () => {
      expect((await signUp(t, { name: 'Squatter', email: 'victim@example.com', password: 'calm-waters-1' })).statusCode).toBe(200);
      const [squatted] = await usersWith('victim@example.com');
      expect(squatted.emailVerified).toBe(false);
      for (const res of [await google({ sub: 'g-victim', email: 'victim@example.com', email_verified: true }), await apple({ sub: '000100.victim.0003', email: 'victim@example.com' })]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'auth/email-already-in-use', message: MESSAGES.auth.accountExists } });
        expect(res.headers['set-auth-token']).toBeUndefined();
      }
      // No sign-in method was added and the account is still unconfirmed: its password holder gains nothing.
      expect(await providersOf(squatted.id)).toEqual(['credential']);
      expect((await usersWith('victim@example.com'))[0].emailVerified).toBe(false);
    });

    it('Google not vouching for the address (email_verified false) does not open the account of that address', async () => {
      const { userId } = await createSignedInUser(t, 'omar@example.com');
      const res = await google({ sub: 'g-omar-unverified', email: 'omar@example.com', email_verified: false });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe(MESSAGES.auth.accountExists);
      expect(await providersOf(userId)).toEqual(['credential']);
    });

    it('Apple’s private relay address is an account of its own, even beside an account of the person’s real address', async () => {
      const { userId } = await createSignedInUser(t, 'lena@example.com');
      const res = await apple({ sub: '000100.lena.0004', email: 'x7k2m9p4qz@privaterelay.appleid.com', is_private_email: 'true' });
      expect(res.statusCode, res.body).toBe(200);
      expect(signedInAs(res)).not.toBe(userId);
      expect(await usersWith('x7k2m9p4qz@privaterelay.appleid.com')).toMatchObject([{ emailVerified: true }]);
      expect(await providersOf(userId)).toEqual(['credential']);
    });
  });

  describe('the same provider account always returns to the same person', () => {
    it('an Apple sign-in whose token later names another address (relay turned off, address changed) opens the same account', async () => {
      const first = signedInAs(await apple({ sub: '000100.same.0005', email: 'p9q8r7@privaterelay.appleid.com', is_private_email: 'true' }));
      const again = await apple({ sub: '000100.same.0005', email: 'sam.real@example.com' });
      expect(again.statusCode, again.body).toBe(200);
      expect(signedInAs(again)).toBe(first);
      expect(await usersWith('sam.real@example.com')).toEqual([]);
    });

    it('a Google account keeps opening its account after its address changed, even when the new address has an account of its own', async () => {
      const first = signedInAs(await google({ sub: 'g-stable', email: 'old.address@example.com', email_verified: true }));
      const { userId: other } = await createSignedInUser(t, 'new.address@example.com');
      const again = await google({ sub: 'g-stable', email: 'new.address@example.com', email_verified: true });
      expect(signedInAs(again)).toBe(first);
      expect(signedInAs(again)).not.toBe(other);
      const googleRows = await t.database.db.select().from(account).where(and(eq(account.providerId, 'google'), eq(account.accountId, 'g-stable')));
      expect(googleRows).toHaveLength(1);
    });
  });

  describe('Google on an iPhone (issue 35, item 4)', () => {
    it('the server names its iOS client id to the apps and accepts tokens made for it: the account made on Android or the web opens', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/auth-providers' })).json()).toEqual({ google: true, apple: true, googleClientId: GOOGLE_WEB, googleIosClientId: GOOGLE_IOS });
      const onAndroid = signedInAs(await google({ sub: 'g-travels', email: 'travels@example.com', email_verified: true }));
      const onIphone = await google({ sub: 'g-travels', email: 'travels@example.com', email_verified: true }, GOOGLE_IOS);
      expect(onIphone.statusCode, onIphone.body).toBe(200);
      expect(signedInAs(onIphone)).toBe(onAndroid);
      // A token for some other app's client is still refused.
      expect((await google({ sub: 'g-travels', email: 'travels@example.com', email_verified: true }, 'someone-else.apps.googleusercontent.com')).statusCode).toBe(401);
    });
  });

  describe('a household behind one address', () => {
    it('signs in with Apple and Google more than three times in ten seconds (better-auth’s default for /sign-in/* refused the fourth)', async () => {
      const from = nextIp();
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/social',
          headers: { ...origin(t), 'x-session-transport': 'bearer' },
          payload: { provider: 'google', idToken: { token: keys.sign(googleClaims(GOOGLE_WEB, { nonce: NONCE, sub: `g-house-${i}`, email: `house${i}@example.com` })), nonce: NONCE } },
          remoteAddress: from,
        });
        expect(res.statusCode, `sign-in ${i + 1}: ${res.body}`).toBe(200);
      }
    });
  });
});
