/**
 * What the journal knows of a device's biometric store (decision 0065): its shape and its refusals. The store
 * itself (native-biometrics.ts, with the plugin) is loaded only inside the apps.
 */
import type { BiometryKind } from '#shared/journal-keys.ts';

/** Why a secret could not be read: the person cancelled or chose the passphrase, was not recognised, or it is gone (biometrics changed). */
export type BiometricRefusal = 'cancelled' | 'failed' | 'gone';

export class BiometricError extends Error {
  constructor(
    readonly refusal: BiometricRefusal,
    cause?: unknown,
  ) {
    super(`biometric ${refusal}`, { cause });
    this.name = 'BiometricError';
  }
}

export type BiometricStore = {
  /** What the device offers for a key bound to biometrics (strong biometrics enrolled), or null. */
  available(): Promise<BiometryKind | null>;
  /** Keeps `secret` under `key`, readable only after the device's biometric prompt (Android asks already here). */
  save(key: string, secret: string, kind: BiometryKind): Promise<void>;
  /** Shows the device's prompt and hands back the secret; rejects with a BiometricError. */
  read(key: string): Promise<string>;
  /** Forgets `key`'s secret, if any. */
  remove(key: string): Promise<void>;
};
