/**
 * Signing in on the device's own sheet (issue 19, item 3), driven through local fakes of
 * @capacitor-community/apple-sign-in's `authorize` and @capgo/capacitor-social-login's
 * `initialize`/`login`, answering (or failing) with the plugins' own result shapes and iOS's errors.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { APPLE_SIGN_IN_MESSAGES, deviceSignInRefusal } from '#shared/native-sign-in.ts';
import { browserSignInProviders, deviceSignInProviders, googleNeedsIosClient, signInOnDevice } from '#web/platform/device-sign-in.ts';
import { createDeviceSignIn, type AppleSignInLike, type GoogleSignInLike } from '#web/platform/native-sign-in.ts';

type AppleAnswer = Awaited<ReturnType<AppleSignInLike['authorize']>>;
const appleResponse = (overrides: Partial<AppleAnswer['response']> = {}): AppleAnswer => ({
  response: { user: '001234.abc', email: 'lena@example.com', givenName: 'Lena', familyName: 'Marsh', identityToken: 'header.payload.signature', authorizationCode: 'code-1', ...overrides },
});

const unused = () => Promise.reject(new Error('unused'));
const REQUEST = { appleRedirectURI: 'https://api.example/api/auth/callback/apple' };

/** The device's sign-in with a fake Apple plugin. */
function withApple(answer: (options: Parameters<AppleSignInLike['authorize']>[0]) => Promise<AppleAnswer>) {
  const authorize = vi.fn(answer);
  return { authorize, signIn: createDeviceSignIn({ apple: () => Promise.resolve({ authorize }), google: unused }) };
}

describe('which shell signs in on the device', () => {
  it('iOS with Apple and Google, Android with Google, the web with neither (issue 35, item 4)', () => {
    expect(deviceSignInProviders('ios')).toEqual(['apple', 'google']);
    expect(googleNeedsIosClient('ios')).toBe(true);
    expect(googleNeedsIosClient('android')).toBe(false);
    expect(deviceSignInProviders('android')).toEqual(['google']);
    expect(deviceSignInProviders('web')).toEqual([]);
    expect(deviceSignInProviders()).toEqual([]); // this test runs outside any shell
  });

  it('Android signs in with Apple through the system browser, and no other shell does (decision 0071)', () => {
    expect(browserSignInProviders('android')).toEqual(['apple']);
    expect(browserSignInProviders('ios')).toEqual([]);
    expect(browserSignInProviders('web')).toEqual([]);
  });

  it("says 'only available on native platforms' on the web, 'not available on this device' in the other app", async () => {
    await expect(signInOnDevice('apple')).rejects.toThrow(APPLE_SIGN_IN_MESSAGES.nativeOnly);
    expect(deviceSignInRefusal('android', 'apple')).toBe(APPLE_SIGN_IN_MESSAGES.notAvailable);
    expect(deviceSignInRefusal('ios', 'google')).toBe('Google Sign In is currently not available. Please use email/password or Apple Sign In.');
  });
});

describe('Sign in with Apple on iOS', () => {
  it('asks for email and name with the SHA-256 of a fresh nonce, and hands the token, the nonce itself and the first-time name on', async () => {
    const { authorize, signIn } = withApple(() => Promise.resolve(appleResponse()));
    const first = await signIn('apple', REQUEST);
    const options = authorize.mock.calls[0][0];
    expect(options).toMatchObject({ scopes: 'email name', clientId: 'app.harbourmind', redirectURI: REQUEST.appleRedirectURI });
    expect(first.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(options.nonce).toBe(createHash('sha256').update(first.nonce).digest('hex'));
    // Apple's one-time code goes along, for the refresh token the server revokes at deletion (decision 0064).
    expect(first).toEqual({ token: 'header.payload.signature', nonce: first.nonce, user: { name: { firstName: 'Lena', lastName: 'Marsh' }, email: 'lena@example.com' }, authorizationCode: 'code-1' });
    // Each sign-in has its own nonce; later sign-ins carry no name (Apple gives it once).
    authorize.mockResolvedValueOnce(appleResponse({ email: null, givenName: null, familyName: null }));
    const second = await signIn('apple', REQUEST);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second).toEqual({ token: 'header.payload.signature', nonce: second.nonce, authorizationCode: 'code-1' });
  });

  it.each([
    ['the person closes the sheet', new Error('The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1001.)'), APPLE_SIGN_IN_MESSAGES.cancelled],
    ['the plugin is missing from the app', Object.assign(new Error('"SignInWithApple" plugin is not implemented on ios'), { code: 'UNIMPLEMENTED' }), APPLE_SIGN_IN_MESSAGES.notAvailable],
    ['the device is offline', new Error('The Internet connection appears to be offline.'), APPLE_SIGN_IN_MESSAGES.network],
    ['anything else', new Error('The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1000.)'), 'Apple Sign In failed: The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1000.)'],
  ])('when %s, says so in the spec’s words', async (_case, rejection, message) => {
    await expect(withApple(() => Promise.reject(rejection)).signIn('apple', REQUEST)).rejects.toThrow(message);
  });

  it("says 'No identity token received from Apple' when the answer has none", async () => {
    await expect(withApple(() => Promise.resolve(appleResponse({ identityToken: '' }))).signIn('apple', REQUEST)).rejects.toThrow(APPLE_SIGN_IN_MESSAGES.noIdentityToken);
  });
});

describe('Google sign-in on Android', () => {
  it('sets the plugin up once with the server’s web client id and hands the token and the nonce Google was given on', async () => {
    const initialize = vi.fn(() => Promise.resolve());
    const login = vi.fn((options: Parameters<GoogleSignInLike['login']>[0]) =>
      Promise.resolve({ provider: 'google' as const, result: { responseType: 'online' as const, accessToken: null, idToken: `token-for-${options.options.nonce}`, profile: { email: 'g@example.com', familyName: null, givenName: null, id: '1', name: null, imageUrl: null } } }),
    );
    const signIn = createDeviceSignIn({ apple: unused, google: () => Promise.resolve({ initialize, login }) });
    const request = { ...REQUEST, googleClientId: 'web-client.apps.googleusercontent.com' };
    const first = await signIn('google', request);
    const second = await signIn('google', request);
    expect(initialize.mock.calls).toEqual([[{ google: { webClientId: 'web-client.apps.googleusercontent.com' } }]]);
    expect(first).toEqual({ token: `token-for-${first.nonce}`, nonce: first.nonce });
    expect(login.mock.calls[0][0]).toMatchObject({ provider: 'google', options: { nonce: first.nonce } });
    expect(second.nonce).not.toBe(first.nonce);
    login.mockRejectedValueOnce(new Error('User cancelled the selector'));
    await expect(signIn('google', request)).rejects.toThrow('User cancelled the selector');
    // Without the server's client id there is nothing to sign in for.
    await expect(signIn('google', REQUEST)).rejects.toThrow('Google sign-in is not set up on this server');
  });

  it('on iOS sets the plugin up for the server’s iOS client id (Google Sign-In for iOS), with the web client id as the server’s, and hands the token on', async () => {
    const initialize = vi.fn(() => Promise.resolve());
    const login = vi.fn((options: Parameters<GoogleSignInLike['login']>[0]) =>
      Promise.resolve({ provider: 'google' as const, result: { responseType: 'online' as const, accessToken: null, idToken: `ios-token-for-${options.options.nonce}`, profile: { email: 'g@example.com', familyName: null, givenName: null, id: '1', name: null, imageUrl: null } } }),
    );
    const signIn = createDeviceSignIn({ apple: unused, google: () => Promise.resolve({ initialize, login }) });
    const request = { ...REQUEST, ios: true, googleClientId: 'web-client.apps.googleusercontent.com', googleIosClientId: 'ios-client.apps.googleusercontent.com' };
    // Without the iOS client id the sheet could only fail: refused before the plugin is touched.
    await expect(signIn('google', { ...request, googleIosClientId: undefined })).rejects.toThrow('Google sign-in is not set up on this server');
    expect(initialize).not.toHaveBeenCalled();
    const answer = await signIn('google', request);
    expect(initialize.mock.calls).toEqual([[{ google: { iOSClientId: 'ios-client.apps.googleusercontent.com', iOSServerClientId: 'web-client.apps.googleusercontent.com' } }]]);
    expect(answer).toEqual({ token: `ios-token-for-${answer.nonce}`, nonce: answer.nonce });
    expect(answer.nonce).toMatch(/^[0-9a-f]{64}$/);
  });
});
