/**
 * The platform layer (issue 19, item 2): which shell the app is in, decided as Capacitor decides it,
 * and the native Platform's opened links, driven through a local fake of @capacitor/app's `App`
 * plugin (its `addListener('appUrlOpen', …)` and `{ remove }` handle, as the plugin defines them).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { APPLE_SIGN_IN_MESSAGES } from '#shared/native-sign-in.ts';
import { detectPlatformKind } from '#web/platform/detect.ts';
import { createNativePlatform, openedPath, type AppleSignInLike, type AppPluginLike, type GoogleSignInLike, type SecureStorageLike } from '#web/platform/native-platform.ts';
import { platform } from '#web/platform/platform.ts';

/** A local fake of the secure-storage plugin's get/set/remove (JSON values, null when absent). */
function memoryStorage(): SecureStorageLike & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: (key) => Promise.resolve(values.get(key) ?? null),
    set: (key, value) => Promise.resolve(void values.set(key, value)),
    remove: (key) => Promise.resolve(values.delete(key)),
  };
}

describe('detectPlatformKind', () => {
  it('reads the shell the way @capacitor/core does', () => {
    expect(detectPlatformKind(undefined)).toBe('web');
    expect(detectPlatformKind({})).toBe('web');
    expect(detectPlatformKind({ webkit: { messageHandlers: {} } })).toBe('web');
    expect(detectPlatformKind({ webkit: { messageHandlers: { bridge: {} } } })).toBe('ios');
    expect(detectPlatformKind({ androidBridge: {} })).toBe('android');
    expect(detectPlatformKind({ CapacitorCustomPlatform: { name: 'android' }, webkit: { messageHandlers: { bridge: {} } } })).toBe('android');
    expect(detectPlatformKind({ CapacitorCustomPlatform: { name: 'electron' } })).toBe('web');
  });
});

describe('links opened in the apps', () => {
  it('takes only the app’s own https paths, with their query', () => {
    const paths = ['/verify-email', '/reset-password'];
    expect(openedPath('https://harbourmind.app/verify-email?token=abc', paths)).toBe('/verify-email?token=abc');
    expect(openedPath('https://harbourmind.app/reset-password?token=x%20y', paths)).toBe('/reset-password?token=x%20y');
    for (const url of ['https://harbourmind.app/admin', 'http://harbourmind.app/verify-email', 'javascript:alert(1)', 'not a url', 'https://harbourmind.app/verify-email/../admin']) {
      expect(openedPath(url, paths), url).toBeNull();
    }
  });

  it('hands each opened link to the listener until it unsubscribes, and removes the plugin listener', async () => {
    let fire: ((event: { url: string }) => void) | undefined;
    const remove = vi.fn(() => Promise.resolve());
    const app: AppPluginLike = {
      addListener: vi.fn((_event: 'appUrlOpen', listener: (event: { url: string }) => void) => {
        fire = listener;
        return Promise.resolve({ remove });
      }),
    };
    const platform = createNativePlatform('ios', { loadApp: () => Promise.resolve(app), loadStorage: () => Promise.resolve(memoryStorage()), server: 'https://api.example' });
    expect(platform).toMatchObject({ kind: 'ios', native: true });
    const opened: string[] = [];
    const stop = platform.onOpenedLink((path) => opened.push(path));
    await vi.waitFor(() => expect(fire).toBeDefined());
    fire!({ url: 'https://harbourmind.app/verify-email?token=t1' });
    fire!({ url: 'https://harbourmind.app/account' });
    expect(opened).toEqual(['/verify-email?token=t1']);
    stop();
    fire!({ url: 'https://harbourmind.app/reset-password?token=t2' });
    expect(opened).toEqual(['/verify-email?token=t1']);
    expect(remove).toHaveBeenCalledOnce();
  });
});

describe('the API from inside the apps', () => {
  it('names the configured server, asks for bearer sessions, keeps a sign-in’s token in secure storage and forgets it', async () => {
    const storage = memoryStorage();
    const platform = createNativePlatform('android', { loadApp: () => Promise.reject(new Error('unused')), loadStorage: () => Promise.resolve(storage), server: 'https://api.example' });
    expect(platform.apiUrl('/api/me')).toBe('https://api.example/api/me');
    expect(platform.apiUrl('https://elsewhere.example/x')).toBe('https://elsewhere.example/x');
    expect(await platform.sessionHeaders()).toEqual({ 'x-session-transport': 'bearer' });
    await platform.noteResponse(new Response('{}', { headers: { 'set-auth-token': 'token-123' } }));
    expect([...storage.values.values()]).toEqual(['token-123']);
    expect(await platform.sessionHeaders()).toEqual({ 'x-session-transport': 'bearer', authorization: 'Bearer token-123' });
    // An answer without a token leaves the kept one alone.
    await platform.noteResponse(new Response('{}'));
    expect((await platform.sessionHeaders()).authorization).toBe('Bearer token-123');
    await platform.forgetSession();
    expect(await platform.sessionHeaders()).toEqual({ 'x-session-transport': 'bearer' });
  });
});

/** A local fake of @capacitor-community/apple-sign-in's `authorize`, answering as the plugin does (or rejecting as iOS does). */
function fakeApple(answer: (options: Parameters<AppleSignInLike['authorize']>[0]) => Promise<Awaited<ReturnType<AppleSignInLike['authorize']>>>) {
  const authorize = vi.fn(answer);
  return { authorize, plugin: { authorize } satisfies AppleSignInLike };
}

const appleResponse = (overrides: Partial<Awaited<ReturnType<AppleSignInLike['authorize']>>['response']> = {}) => ({
  response: { user: '001234.abc', email: 'lena@example.com', givenName: 'Lena', familyName: 'Marsh', identityToken: 'header.payload.signature', authorizationCode: 'code-1', ...overrides },
});

const ios = (apple?: AppleSignInLike) =>
  createNativePlatform('ios', {
    loadApp: () => Promise.reject(new Error('unused')),
    loadStorage: () => Promise.reject(new Error('unused')),
    server: 'https://api.example',
    signIn: apple ? { apple: () => Promise.resolve(apple) } : {},
  });

describe('Sign in with Apple on iOS', () => {
  it('asks for email and name with the SHA-256 of a fresh nonce, and hands the token, the nonce itself and the first-time name on', async () => {
    const apple = fakeApple(() => Promise.resolve(appleResponse()));
    const signIn = ios(apple.plugin);
    expect(signIn.deviceSignIn).toEqual(['apple']);
    const first = await signIn.signInOnDevice('apple');
    const options = apple.authorize.mock.calls[0][0];
    expect(options).toMatchObject({ scopes: 'email name', clientId: 'app.harbourmind', redirectURI: 'https://api.example/api/auth/callback/apple' });
    expect(first.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(options.nonce).toBe(createHash('sha256').update(first.nonce).digest('hex'));
    expect(first).toEqual({ token: 'header.payload.signature', nonce: first.nonce, user: { name: { firstName: 'Lena', lastName: 'Marsh' }, email: 'lena@example.com' } });
    // Each sign-in has its own nonce; later sign-ins carry no name (Apple gives it once).
    apple.authorize.mockResolvedValueOnce(appleResponse({ email: null, givenName: null, familyName: null }));
    const second = await signIn.signInOnDevice('apple');
    expect(second.nonce).not.toBe(first.nonce);
    expect(second).toEqual({ token: 'header.payload.signature', nonce: second.nonce });
  });

  it.each([
    ['the person closes the sheet', new Error('The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1001.)'), APPLE_SIGN_IN_MESSAGES.cancelled],
    ['the plugin is missing from the app', Object.assign(new Error('"SignInWithApple" plugin is not implemented on ios'), { code: 'UNIMPLEMENTED' }), APPLE_SIGN_IN_MESSAGES.notAvailable],
    ['the device is offline', new Error('The Internet connection appears to be offline.'), APPLE_SIGN_IN_MESSAGES.network],
    ['anything else', new Error('The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1000.)'), 'Apple Sign In failed: The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1000.)'],
  ])('when %s, says so in the spec’s words', async (_case, rejection, message) => {
    await expect(ios(fakeApple(() => Promise.reject(rejection)).plugin).signInOnDevice('apple')).rejects.toThrow(message);
  });

  it("says 'No identity token received from Apple' when the answer has none", async () => {
    await expect(ios(fakeApple(() => Promise.resolve(appleResponse({ identityToken: '' }))).plugin).signInOnDevice('apple')).rejects.toThrow(APPLE_SIGN_IN_MESSAGES.noIdentityToken);
  });

  it("is 'not available on this device' outside iOS, and 'only available on native platforms' on the web", async () => {
    const android = createNativePlatform('android', { loadApp: () => Promise.reject(new Error('unused')), loadStorage: () => Promise.reject(new Error('unused')), server: 'https://api.example' });
    await expect(android.signInOnDevice('apple')).rejects.toThrow(APPLE_SIGN_IN_MESSAGES.notAvailable);
    expect(platform()).toMatchObject({ kind: 'web', deviceSignIn: [] });
    await expect(platform().signInOnDevice('apple')).rejects.toThrow(APPLE_SIGN_IN_MESSAGES.nativeOnly);
  });
});

describe('Google sign-in on Android', () => {
  it('sets the plugin up once with the web client id and hands the token and the nonce Google was given on', async () => {
    const initialize = vi.fn(() => Promise.resolve());
    const login = vi.fn((options: Parameters<GoogleSignInLike['login']>[0]) =>
      Promise.resolve({ provider: 'google' as const, result: { responseType: 'online' as const, accessToken: null, idToken: `token-for-${options.options.nonce}`, profile: { email: 'g@example.com', familyName: null, givenName: null, id: '1', name: null, imageUrl: null } } }),
    );
    const android = createNativePlatform('android', {
      loadApp: () => Promise.reject(new Error('unused')),
      loadStorage: () => Promise.reject(new Error('unused')),
      server: 'https://api.example',
      signIn: { google: () => Promise.resolve({ initialize, login }) },
    });
    expect(android.deviceSignIn).toEqual(['google']);
    const googleClientId = 'web-client.apps.googleusercontent.com';
    const first = await android.signInOnDevice('google', { googleClientId });
    const second = await android.signInOnDevice('google', { googleClientId });
    expect(initialize.mock.calls).toEqual([[{ google: { webClientId: 'web-client.apps.googleusercontent.com' } }]]);
    expect(first).toEqual({ token: `token-for-${first.nonce}`, nonce: first.nonce });
    expect(login.mock.calls[0][0]).toMatchObject({ provider: 'google', options: { nonce: first.nonce } });
    expect(second.nonce).not.toBe(first.nonce);
    login.mockRejectedValueOnce(new Error('User cancelled the selector'));
    await expect(android.signInOnDevice('google', { googleClientId })).rejects.toThrow('User cancelled the selector');
    // Without the server's client id there is nothing to sign in for.
    await expect(android.signInOnDevice('google')).rejects.toThrow('Google sign-in is not set up in this app');
  });
});
