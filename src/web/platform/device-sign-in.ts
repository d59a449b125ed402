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
};

const DEVICE_SIGN_IN: Record<PlatformKind, readonly SocialProvider[]> = { web: [], ios: ['apple'], android: ['google'] };

/** The providers this shell signs in with on the device: iOS, Apple; Android, Google; the web, none. */
export const deviceSignInProviders = (kind: PlatformKind = platform().kind): readonly SocialProvider[] => DEVICE_SIGN_IN[kind];

let signIn: Promise<ReturnType<typeof import('#web/platform/native-sign-in.ts').createDeviceSignIn>> | undefined;

/**
 * Signs in on the device's sheet and hands back the identity token for the server. Fails with the spec's
 * words: e.g. 'Apple Sign In was cancelled'; on the web, 'Apple Sign In only available on native platforms'.
 * `googleClientId`: Google's web client id, as the server names it (/api/auth-providers).
 */
export async function signInOnDevice(provider: SocialProvider, { googleClientId }: { googleClientId?: string } = {}): Promise<DeviceIdToken> {
  const shell = platform();
  if (!deviceSignInProviders(shell.kind).includes(provider)) throw new Error(deviceSignInRefusal(shell.kind, provider));
  signIn ??= import('#web/platform/native-sign-in.ts').then((m) => m.createDeviceSignIn());
  return (await signIn)(provider, { googleClientId, appleRedirectURI: shell.apiUrl('/api/auth/callback/apple') });
}
