/**
 * Face ID / fingerprint as a way back into the journal inside the apps (issue 36, item 1; decision 0065).
 * Two halves, each useless alone: a random 256-bit secret in the device's biometric store (the iOS
 * Keychain with biometry access control, an Android Keystore key that needs a strong biometric for every
 * use: native-biometrics.ts), and in this device's journal database the data key wrapped by that secret
 * (AES-GCM), with the keyring's passphrase wrap it was made under. A changed passphrase or key, here or
 * on another device, no longer matches, and the biometric way in is dropped; so is it when the person
 * turns it off, starts a new journal, or signs out (the database goes). The passphrase always works.
 * The web never loads any of this beyond `deviceBiometricStore` saying null.
 */
import type { BiometryKind } from '#shared/journal-keys.ts';
import { fromBase64, toBase64, type Keyring, type Wrapped } from '#web/features/journal/journal-crypto.ts';
import { anyBiometricUnlock, forgetBiometricUnlockOf, saveBiometricUnlock } from '#web/features/journal/journal-store.ts';
import type { BiometricStore } from '#web/platform/biometrics.ts';
import { platform } from '#web/platform/platform.ts';

/** The biometric store's one entry for the journal (a device holds one account's journal at a time). */
export const BIOMETRIC_SECRET_KEY = 'harbour-mind.journal-unlock';

/** This device's biometric store inside the apps; null on the web. */
export async function deviceBiometricStore(): Promise<BiometricStore | null> {
  if (!platform().native) return null;
  return (await import('#web/platform/native-biometrics.ts')).nativeBiometricStore;
}

/** The AES-GCM key a biometric secret is: it wraps and unwraps the data key, nothing else, and cannot be read out. */
export function wrappingKeyOf(secret: string): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', fromBase64(secret), 'AES-GCM', false, ['wrapKey', 'unwrapKey']);
}

/** A fresh random secret for the biometric store, and its key. */
export async function newWrappingSecret(): Promise<{ secret: string; key: CryptoKey }> {
  const secret = toBase64(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  return { secret, key: await wrappingKeyOf(secret) };
}

/**
 * Turns the biometric way in on, after a passphrase unlock that also wrapped the data key under `secret`'s
 * key: the wrapped key into the database first (so the secret is never a left-over one: `removeLeftoverSecret`),
 * then the secret into the biometric store (Android asks for the biometric here). A failure leaves neither.
 */
export async function enrolBiometricUnlock(store: BiometricStore, accountId: string, kind: BiometryKind, secret: string, wrapped: Wrapped, keyring: Keyring): Promise<void> {
  await saveBiometricUnlock({ accountId, kind, wrapped, passphraseWrap: keyring.passphrase.wrapped.data });
  try {
    await store.save(BIOMETRIC_SECRET_KEY, secret, kind);
  } catch (error) {
    await forgetBiometricUnlockOf(accountId);
    throw error;
  }
}

/** Turns the biometric way in off for `accountId`: the wrapped key goes, and the device's secret with it. */
export async function forgetBiometricUnlock(accountId: string, store: Promise<BiometricStore | null> | BiometricStore | null = deviceBiometricStore()): Promise<void> {
  await forgetBiometricUnlockOf(accountId);
  await removeSecret(await store);
}

let leftoverChecked = false;

/**
 * A secret nobody's wrapped key needs any more (left by signing out, which only deletes the database) goes:
 * looked for once per page, as the journal first opens, before anything can be turned on.
 */
export async function removeLeftoverSecret(store: BiometricStore | null): Promise<void> {
  if (!store || leftoverChecked) return;
  leftoverChecked = true;
  if (!(await anyBiometricUnlock())) await removeSecret(store);
}

async function removeSecret(store: BiometricStore | null): Promise<void> {
  await store?.remove(BIOMETRIC_SECRET_KEY).catch((error: unknown) => console.warn('biometric secret not removed', error));
}
