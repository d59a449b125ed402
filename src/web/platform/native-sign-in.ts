/**
 * Signing in on the device's own sheet (issue 19, item 3), inside the apps only (this file is in the
 * native chunk): Sign in with Apple on iOS (@capacitor-community/apple-sign-in) and Google on Android
 * and iOS (@capgo/capacitor-social-login; issue 35, item 4), each handing back an identity token for better-auth's id-token
 * sign-in. Plugins are handed in (the real ones by default; in tests, local fakes with the plugins'
 * method names and result shapes) and wrapped: Capacitor's plugin objects are proxies that answer
 * `then`, so one must never be the value a promise resolves to.
 */
import type { SignInWithAppleOptions, SignInWithAppleResponse } from '@capacitor-community/apple-sign-in';
import type { GoogleLoginOptions, GoogleLoginResponse, InitializeOptions } from '@capgo/capacitor-social-login';
import { NATIVE_APP_ID } from '#shared/app-links.ts';
import { APPLE_SIGN_IN_MESSAGES, appleSignInErrorMessage, type SocialProvider } from '#shared/native-sign-in.ts';
import type { DeviceIdToken } from '#web/platform/device-sign-in.ts';

/** The part of @capacitor-community/apple-sign-in's `SignInWithApple` used here (iOS's Sign in with Apple sheet). */
export type AppleSignInLike = { authorize(options: SignInWithAppleOptions): Promise<SignInWithAppleResponse> };

/** The part of @capgo/capacitor-social-login's `SocialLogin` used here (Google's sign-in on Android and iOS). */
export type GoogleSignInLike = {
  initialize(options: Pick<InitializeOptions, 'google'>): Promise<void>;
  login(options: { provider: 'google'; options: GoogleLoginOptions }): Promise<{ provider: 'google'; result: GoogleLoginResponse }>;
};

async function loadAppleSignIn(): Promise<AppleSignInLike> {
  const { SignInWithApple } = await import('@capacitor-community/apple-sign-in');
  return { authorize: (options) => SignInWithApple.authorize(options) };
}

async function loadGoogleSignIn(): Promise<GoogleSignInLike> {
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
const APP_ID = NATIVE_APP_ID;

/**
 * Sign in with Apple on iOS. The nonce is made here and sent to the server as it is; Apple is given its
 * SHA-256, which its token then carries, so the server can tie the token to this sign-in (better-auth
 * compares the token's nonce with the SHA-256 of the one sent). The name comes only on the first sign-in.
 */
async function appleIdToken(load: () => Promise<AppleSignInLike>, redirectURI: string): Promise<DeviceIdToken> {
  const nonce = randomHex(32);
  let response: SignInWithAppleResponse['response'];
  try {
    const apple = await load();
    // clientId and redirectURI are used by the plugin's web implementation only; iOS signs in for the app's bundle id.
    ({ response } = await apple.authorize({ clientId: APP_ID, redirectURI, scopes: 'email name', state: randomHex(16), nonce: await sha256Hex(nonce) }));
  } catch (error) {
    throw new Error(appleSignInErrorMessage(error), { cause: error });
  }
  if (!response.identityToken) throw new Error(APPLE_SIGN_IN_MESSAGES.noIdentityToken);
  const firstName = response.givenName ?? undefined;
  const lastName = response.familyName ?? undefined;
  const user = firstName || lastName || response.email ? { ...(firstName || lastName ? { name: { firstName, lastName } } : {}), ...(response.email ? { email: response.email } : {}) } : undefined;
  return { token: response.identityToken, nonce, ...(user ? { user } : {}), ...(response.authorizationCode ? { authorizationCode: response.authorizationCode } : {}) };
}

/**
 * Google's sign-in on the device: Android's Credential Manager (its token names the web client id) or
 * Google Sign-In for iOS (its token names the iOS client id); either carries the nonce exactly as given.
 * The toast says 'Please try again later.' for any failure here.
 */
async function googleIdToken(google: GoogleSignInLike): Promise<DeviceIdToken> {
  const nonce = randomHex(32);
  const { result } = await google.login({ provider: 'google', options: { nonce, scopes: ['email', 'profile'] } });
  const token = 'idToken' in result ? result.idToken : null;
  if (!token) throw new Error('No identity token received from Google');
  return { token, nonce };
}

export type SignInPlugins = { apple: () => Promise<AppleSignInLike>; google: () => Promise<GoogleSignInLike> };

/**
 * What one sign-in needs from outside: Google's web client id and, on iOS, the iOS client id (both from the
 * server), whether this is the iOS app, and the address Apple's web flow would return to.
 */
export type SignInRequest = { googleClientId?: string; googleIosClientId?: string; ios?: boolean; appleRedirectURI: string };

/** The device's sign-in, with the real plugins unless others are handed in. */
export function createDeviceSignIn(plugins: SignInPlugins = { apple: loadAppleSignIn, google: loadGoogleSignIn }) {
  let google: Promise<GoogleSignInLike> | undefined;
  // Google's plugin is set up once, with the client ids the server names (and accepts as audience): on
  // Android the web client id (Credential Manager's tokens name it); on iOS the iOS client id, whose
  // tokens name it (Google Sign-In for iOS), with the web client id as the server's.
  const googleReady = (settings: NonNullable<InitializeOptions['google']>) =>
    (google ??= plugins.google().then(async (g) => {
      await g.initialize({ google: settings });
      return g;
    })).catch((error: unknown) => {
      google = undefined;
      throw error;
    });
  return async (provider: SocialProvider, { googleClientId, googleIosClientId, ios = false, appleRedirectURI }: SignInRequest): Promise<DeviceIdToken> => {
    if (provider === 'apple') return appleIdToken(plugins.apple, appleRedirectURI);
    if (!googleClientId || (ios && !googleIosClientId)) throw new Error('Google sign-in is not set up on this server');
    return googleIdToken(await googleReady(ios ? { iOSClientId: googleIosClientId, iOSServerClientId: googleClientId } : { webClientId: googleClientId }));
  };
}
