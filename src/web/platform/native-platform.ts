/**
 * The native shells' Platform (issue 19, item 2). Plugins are handed in (the real @capacitor/app and
 * secure storage in the apps; in tests local fakes with the plugins' method names and shapes), loaded
 * on first use so starting the app never waits on the native bridge. The API is the configured
 * server's, with a bearer session kept in the device's secure storage.
 */
import type { SignInWithAppleOptions, SignInWithAppleResponse } from '@capacitor-community/apple-sign-in';
import type { GoogleLoginOptions, GoogleLoginResponse, InitializeOptions } from '@capgo/capacitor-social-login';
import { APP_LINK_PATHS } from '#shared/app-links.ts';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import { APPLE_SIGN_IN_MESSAGES, appleSignInErrorMessage, type SocialProvider } from '#shared/native-sign-in.ts';
import type { PlatformKind } from '#web/platform/detect.ts';
import { DEVICE_SIGN_IN, onServer, type DeviceIdToken, type DeviceSignInOptions, type Platform } from '#web/platform/platform.ts';

/** The part of @capacitor/app's `App` plugin used here (its `appUrlOpen` event: `{ url }`). */
export type AppPluginLike = {
  addListener(eventName: 'appUrlOpen', listener: (event: { url: string }) => void): Promise<{ remove: () => Promise<void> }>;
};

/** The part of @aparajita/capacitor-secure-storage used here (Keychain on iOS, the Android Keystore). */
export type SecureStorageLike = {
  get(key: string): Promise<unknown>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<unknown>;
};

/**
 * The real plugins, wrapped: Capacitor's plugin objects are proxies that answer every property,
 * `then` included (by throwing), so one must never be the value a promise resolves to.
 */
export async function loadAppPlugin(): Promise<AppPluginLike> {
  const { App } = await import('@capacitor/app');
  return { addListener: (eventName, listener) => App.addListener(eventName, listener) };
}

export async function loadSecureStorage(): Promise<SecureStorageLike> {
  const { SecureStorage } = await import('@aparajita/capacitor-secure-storage');
  return { get: (key) => SecureStorage.get(key, false), set: (key, value) => SecureStorage.set(key, value, false), remove: (key) => SecureStorage.remove(key) };
}

/** The part of @capacitor-community/apple-sign-in's `SignInWithApple` used here (iOS's Sign in with Apple sheet). */
export type AppleSignInLike = { authorize(options: SignInWithAppleOptions): Promise<SignInWithAppleResponse> };

/** The part of @capgo/capacitor-social-login's `SocialLogin` used here (Google's sign-in on Android). */
export type GoogleSignInLike = {
  initialize(options: Pick<InitializeOptions, 'google'>): Promise<void>;
  login(options: { provider: 'google'; options: GoogleLoginOptions }): Promise<{ provider: 'google'; result: GoogleLoginResponse }>;
};

export async function loadAppleSignIn(): Promise<AppleSignInLike> {
  const { SignInWithApple } = await import('@capacitor-community/apple-sign-in');
  return { authorize: (options) => SignInWithApple.authorize(options) };
}

export async function loadGoogleSignIn(): Promise<GoogleSignInLike> {
  const { SocialLogin } = await import('@capgo/capacitor-social-login');
  return { initialize: (options) => SocialLogin.initialize(options), login: (options) => SocialLogin.login(options) };
}

/** A fresh random value, hex (the nonce and Apple's `state`). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The app's id, which Apple's native tokens name as their audience (capacitor.config.ts, the server's NATIVE_APP_ID). */
const APP_ID = 'app.harbourmind';

/**
 * Sign in with Apple on iOS. The nonce is made here and sent to the server as it is; Apple is given its
 * SHA-256, which its token then carries, so the server can tie the token to this sign-in (better-auth
 * compares the token's nonce with the SHA-256 of the one sent). The name comes only on the first sign-in.
 */
async function appleIdToken(load: () => Promise<AppleSignInLike>, server: string): Promise<DeviceIdToken> {
  const nonce = randomHex(32);
  let response: SignInWithAppleResponse['response'] | undefined;
  try {
    const apple = await load();
    // clientId and redirectURI are used by the plugin's web implementation only; iOS signs in for the app's bundle id.
    ({ response } = await apple.authorize({ clientId: APP_ID, redirectURI: `${server}/api/auth/callback/apple`, scopes: 'email name', state: randomHex(16), nonce: await sha256Hex(nonce) }));
  } catch (error) {
    throw new Error(appleSignInErrorMessage(error), { cause: error });
  }
  if (!response.identityToken) throw new Error(APPLE_SIGN_IN_MESSAGES.noIdentityToken);
  const firstName = response.givenName ?? undefined;
  const lastName = response.familyName ?? undefined;
  const user = firstName || lastName || response.email ? { ...(firstName || lastName ? { name: { firstName, lastName } } : {}), ...(response.email ? { email: response.email } : {}) } : undefined;
  return { token: response.identityToken, nonce, ...(user ? { user } : {}) };
}

/**
 * Google's sign-in on Android (Credential Manager). Its token names the web client id as audience and
 * carries the nonce exactly as given. The toast says 'Please try again later.' for any failure here.
 */
async function googleIdToken(google: GoogleSignInLike): Promise<DeviceIdToken> {
  const nonce = randomHex(32);
  const { result } = await google.login({ provider: 'google', options: { nonce, scopes: ['email', 'profile'] } });
  const token = 'idToken' in result ? result.idToken : null;
  if (!token) throw new Error('No identity token received from Google');
  return { token, nonce };
}

type DeviceSignIn = { apple?: () => Promise<AppleSignInLike>; google?: () => Promise<GoogleSignInLike> };

/** The real sign-in plugins (tests hand in local fakes). */
const DEVICE_PLUGINS: DeviceSignIn = { apple: loadAppleSignIn, google: loadGoogleSignIn };

/** The secure-storage key of the bearer session (never localStorage: any script could read it there). */
const SESSION_KEY = 'harbour-mind.session';

/** The in-app path of a link the shell opened, or null for a link that is not the app's to open. */
export function openedPath(url: string, allowedPaths: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || !allowedPaths.includes(parsed.pathname)) return null;
  return `${parsed.pathname}${parsed.search}`;
}


type Plugins = { loadApp: () => Promise<AppPluginLike>; loadStorage: () => Promise<SecureStorageLike>; server: string; signIn?: DeviceSignIn };

export function createNativePlatform(kind: Exclude<PlatformKind, 'web'>, { loadApp, loadStorage, server, signIn = DEVICE_PLUGINS }: Plugins): Platform {
  let storage: Promise<SecureStorageLike> | undefined;
  const secure = () => (storage ??= loadStorage());
  let google: Promise<GoogleSignInLike> | undefined;
  // Google's plugin is set up once, with the web client id the server names (and accepts as audience).
  const googleReady = (load: () => Promise<GoogleSignInLike>, webClientId: string) =>
    (google ??= load().then(async (g) => {
      await g.initialize({ google: { webClientId } });
      return g;
    })).catch((error: unknown) => {
      google = undefined;
      throw error;
    });
  const deviceSignIn = DEVICE_SIGN_IN[kind];
  return {
    kind,
    native: true,
    apiUrl: onServer(server),
    async sessionHeaders() {
      const token = await (await secure()).get(SESSION_KEY);
      // Asking for bearer transport on every call: a sign-in then answers with set-auth-token, not a cookie.
      return { [SESSION_TRANSPORT_HEADER]: 'bearer', ...(typeof token === 'string' && token ? { authorization: `Bearer ${token}` } : {}) };
    },
    async noteResponse(response) {
      const token = response.headers.get('set-auth-token');
      if (token) await (await secure()).set(SESSION_KEY, token);
    },
    async forgetSession() {
      await (await secure()).remove(SESSION_KEY);
    },
    deviceSignIn,
    async signInOnDevice(provider: SocialProvider, { googleClientId }: DeviceSignInOptions = {}) {
      if (provider === 'apple') {
        if (!deviceSignIn.includes('apple') || !signIn.apple) throw new Error(APPLE_SIGN_IN_MESSAGES.notAvailable);
        return appleIdToken(signIn.apple, server);
      }
      if (!deviceSignIn.includes('google') || !signIn.google || !googleClientId) throw new Error('Google sign-in is not set up in this app');
      return googleIdToken(await googleReady(signIn.google, googleClientId));
    },
    onOpenedLink(listener) {
      let removed = false;
      let handle: { remove: () => Promise<void> } | undefined;
      void loadApp()
        .then((app) =>
          app.addListener('appUrlOpen', ({ url }) => {
            const path = openedPath(url, APP_LINK_PATHS);
            if (path && !removed) listener(path);
          }),
        )
        .then((h) => {
          handle = h;
          if (removed) void h.remove();
        })
        .catch((error: unknown) => console.error('opened links are not available', error));
      return () => {
        removed = true;
        void handle?.remove();
      };
    },
  };
}
