/**
 * Signing in on the device's own sheet (issue 19, item 3): the spec's Apple messages (error catalogue,
 * 'Sign-in and sign-up') and how a failure of the device's sign-in becomes one of them. Kept apart
 * from messages.ts (which every page loads): only the sign-in form and the apps' code need them.
 */
import { MESSAGES } from '#shared/messages.ts';

export const APPLE_SIGN_IN_MESSAGES = {
  cancelled: 'Apple Sign In was cancelled',
  notAvailable: 'Apple Sign In not available on this device',
  network: 'Network error during Apple Sign In. Please check your internet connection and try again.',
  failed: (message: string) => `Apple Sign In failed: ${message}`,
  nativeOnly: 'Apple Sign In only available on native platforms',
  noIdentityToken: 'No identity token received from Apple',
} as const;

/**
 * Sign in with Apple on Android (decision 0071): Apple's page opens in the system browser and its
 * answer comes back to the app by an App Link, with a one-time code the app alone can redeem (it holds
 * the proof key the sign-in started with). Ours: the spec words only the device's sheet.
 */
export const APPLE_IN_BROWSER_MESSAGES = {
  /** The code was used, is older than its few minutes, or was not made for this app's proof key. */
  expired: 'This sign-in has expired. Please sign in with Apple again.',
  /** The return link opened in a browser, not in the app. */
  openInApp: 'Finish signing in with Apple in the Harbour Mind app.',
  /** Shown while the code is redeemed. */
  finishing: 'Signing you in…',
} as const;

/** Why the server sent the person back without a code: the return link's `error`. */
export type AppleReturnError = 'cancelled' | 'failed' | 'expired' | 'unavailable';

/** PKCE (RFC 7636): the verifier's alphabet and length, and the S256 challenge's (32 bytes, base64url). */
export const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** The one-time code the return link carries (32 random bytes, base64url). */
export const APPLE_RETURN_CODE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The server's answer to an identity token it refused (signature, issuer, audience, expiry or nonce),
 * shown under 'Apple Sign In failed' / 'Google Sign In failed'. Ours: the spec words no such refusal.
 */
export const ID_TOKEN_REFUSED = 'Your sign-in could not be verified. Please try again.';

/** The providers a shell may sign in with on the device. */
export type SocialProvider = 'apple' | 'google';

/** Why a shell does not sign in with this provider on the device, in the spec's words. */
export function deviceSignInRefusal(shell: 'web' | 'ios' | 'android', provider: SocialProvider): string {
  if (provider === 'google') return MESSAGES.auth.googleNotAvailable;
  return shell === 'web' ? APPLE_SIGN_IN_MESSAGES.nativeOnly : APPLE_SIGN_IN_MESSAGES.notAvailable;
}

/**
 * What a failed Sign in with Apple means, from the plugin's rejection. The iOS plugin rejects with the
 * system error's localizedDescription only ("… AuthorizationError error 1001." when the person closes
 * the sheet, ASAuthorizationError.canceled); Capacitor rejects with code UNIMPLEMENTED where the plugin
 * does not exist (an older app, or Android). Network failures name the network or the connection.
 */
export function appleSignInErrorMessage(error: unknown): string {
  const { message, code } = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as { message?: unknown; code?: unknown };
  const text = typeof message === 'string' ? message : '';
  const lower = text.toLowerCase();
  if (/\berror 1001\b|cancel/.test(lower)) return APPLE_SIGN_IN_MESSAGES.cancelled;
  if (code === 'UNIMPLEMENTED' || code === 'UNAVAILABLE' || /not (implemented|available|supported)/.test(lower)) return APPLE_SIGN_IN_MESSAGES.notAvailable;
  if (/network|internet|offline|connection/.test(lower)) return APPLE_SIGN_IN_MESSAGES.network;
  return APPLE_SIGN_IN_MESSAGES.failed(text || 'Unknown error');
}
