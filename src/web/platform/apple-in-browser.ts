/**
 * Sign in with Apple on Android (issue 35, item 4; decision 0071): Android has no Apple sheet, so Apple's
 * page opens in the system browser (a Custom Tab, @capacitor/browser) through the server's
 * /api/native/apple/start, and the answer comes back to the app by App Link (/apple-sign-in?code=…).
 * The app starts with a proof key (PKCE, RFC 7636): it keeps the verifier and sends only its S256
 * challenge, so the link's code is worth nothing to anything else the link might reach.
 * The verifier stays on the device until the code is redeemed, at most a quarter of an hour.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';
import { readStored, removeStored, writeStored } from '#web/lib/storage.ts';

/** How long a started sign-in may wait for its return link (the server's own limit is ten minutes). */
const VERIFIER_MS = 15 * 60_000;

/** The part of @capacitor/browser's `Browser` used here. */
export type SystemBrowserLike = { open(options: { url: string }): Promise<void> };

async function loadSystemBrowser(): Promise<SystemBrowserLike> {
  const { Browser } = await import('@capacitor/browser');
  return { open: (options) => Browser.open(options) };
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A new proof key: 32 random bytes as the verifier (43 characters), and its S256 challenge. */
export async function newProofKey(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

/** Opens Apple's page in the system browser; the sign-in finishes when its return link opens the app. */
export async function startAppleInBrowser(apiUrl: (path: string) => string, open: () => Promise<SystemBrowserLike> = loadSystemBrowser): Promise<void> {
  const { verifier, challenge } = await newProofKey();
  writeStored(STORAGE_KEYS.appleSignInVerifier, JSON.stringify({ verifier, at: Date.now() }));
  await (await open()).open({ url: apiUrl(`/api/native/apple/start?challenge=${challenge}`) });
}

/** The verifier of the sign-in started here, once: taken off the device as it is read. Null when none is waiting (or it is too old). */
export function takeAppleVerifier(now = Date.now()): string | null {
  const stored = readStored(STORAGE_KEYS.appleSignInVerifier);
  removeStored(STORAGE_KEYS.appleSignInVerifier);
  try {
    const { verifier, at } = JSON.parse(stored ?? 'null') as { verifier?: unknown; at?: unknown } | null ?? {};
    return typeof verifier === 'string' && typeof at === 'number' && now - at < VERIFIER_MS ? verifier : null;
  } catch {
    return null;
  }
}
