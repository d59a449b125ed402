/**
 * Which shell signs in on the device's own sheet, and doing it (issue 19, item 3; decision 0035): iOS
 * with Apple, Android with Google; the web with neither (its buttons open the provider's page). Part of
 * the platform layer, beside the Platform rather than in it: the sign-in buttons load it with the form,
 * and the plugins load inside the apps on first use (native-sign-in.ts), so the web's first load
 * carries none of it.
 */
import { deviceSignInRefusal, type SocialProvider } from '#shared/native-sign-in.ts';
import type { PlatformKind } from '#web/platform/detect.ts';
import { platform } from '#web/platform/platform.ts';

/**
 * What better-auth's id-token sign-in takes (`POST /api/auth/sign-in/social` with `idToken`): the
 * provider's identity token, the nonce it was made for, and the name Apple gives only the first time.
 */
export type DeviceIdToken = {
  token: string;
  nonce: string;
  user?: { name?: { firstName?: string; lastName?: string }; email?: string };
  /** Apple's one-time code: the server exchanges it for the refresh token it revokes at account deletion (decision 0064). */
  authorizationCode?: string;
};

// iOS: Apple and Google on the device (Google for the iOS client id the server names); Android: Google
// (issue 35, item 4: someone who signed up with Google on the web gets in on an iPhone; decision 0064).
const DEVICE_SIGN_IN: Record<PlatformKind, readonly SocialProvider[]> = { web: [], ios: ['apple', 'google'], android: ['google'] };

/** The providers this shell signs in with on the device: iOS, Apple and Google; Android, Google; the web, none. */
export const deviceSignInProviders = (kind: PlatformKind = platform().kind): readonly SocialProvider[] => DEVICE_SIGN_IN[kind];

// Android has no Apple sheet: Apple's page opens in the system browser and comes back by App Link (decision 0071).
const BROWSER_SIGN_IN: Record<PlatformKind, readonly SocialProvider[]> = { web: [], ios: [], android: ['apple'] };

/** The providers this shell signs in with through the system browser: Android, Apple. */
export const browserSignInProviders = (kind: PlatformKind = platform().kind): readonly SocialProvider[] => BROWSER_SIGN_IN[kind];

/** Starts Sign in with Apple in the system browser (Android); it finishes when the return link opens the app (apple-return-page.tsx). */
export async function signInInSystemBrowser(): Promise<void> {
  const { startAppleInBrowser } = await import('#web/platform/apple-in-browser.ts');
  await startAppleInBrowser((path) => platform().apiUrl(path));
}

/** Whether Google on this shell signs in for the iOS client id (which the server must name), not the web's. */
export const googleNeedsIosClient = (kind: PlatformKind = platform().kind): boolean => kind === 'ios';

let signIn: Promise<ReturnType<typeof import('#web/platform/native-sign-in.ts').createDeviceSignIn>> | undefined;

/**
 * Signs in on the device's sheet and hands back the identity token for the server. Fails with the spec's
 * words: e.g. 'Apple Sign In was cancelled'; on the web, 'Apple Sign In only available on native platforms'.
 * `googleClientId` / `googleIosClientId`: Google's web and iOS client ids, as the server names them (/api/auth-providers).
 */
export async function signInOnDevice(provider: SocialProvider, { googleClientId, googleIosClientId }: { googleClientId?: string; googleIosClientId?: string } = {}): Promise<DeviceIdToken> {
  const shell = platform();
  if (!deviceSignInProviders(shell.kind).includes(provider)) throw new Error(deviceSignInRefusal(shell.kind, provider));
  signIn ??= import('#web/platform/native-sign-in.ts').then((m) => m.createDeviceSignIn());
  return (await signIn)(provider, { googleClientId, googleIosClientId, ios: shell.kind === 'ios', appleRedirectURI: shell.apiUrl('/api/auth/callback/apple') });
}
