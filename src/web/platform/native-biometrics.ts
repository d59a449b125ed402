/**
 * Face ID, Touch ID and fingerprint inside the apps (issue 36, item 1; decision 0065), through
 * @capgo/capacitor-native-biometric: a secret kept in the iOS Keychain with biometry access control
 * (`.biometryCurrentSet`) or under an Android Keystore key that needs a strong biometric for every use
 * (invalidated when a new one is enrolled), read back only after the device's own prompt. The journal
 * keeps one such secret (journal-biometric.ts). Loaded only inside the apps, never by the web.
 */
import { JOURNAL_BIOMETRIC_MESSAGES as B, type BiometryKind } from '#shared/journal-keys.ts';
import { BiometricError, type BiometricRefusal, type BiometricStore } from '#web/platform/biometrics.ts';

/** The plugin's numbers (its BiometryType and BiometricAuthError enums), as they cross the bridge. */
const BIOMETRY = { touchId: 1, faceId: 2, fingerprint: 3, face: 4, iris: 5, multiple: 6 } as const;
const ERRORS = { failed: '10', cancelledByApp: '11', systemCancel: '15', userCancel: '16', userFallback: '17', gone: '21', lockout: '2', temporaryLockout: '4' } as const;

/** The part of the plugin used here. */
export type NativeBiometricLike = {
  isAvailable(options: { useFallback: boolean }): Promise<{ isAvailable: boolean; strongBiometryIsAvailable?: boolean; biometryType: number }>;
  /** Kept with biometry access control (wrapNativeBiometric). */
  setData(options: { key: string; value: string; title: string; negativeButtonText: string }): Promise<void>;
  getSecureData(options: { key: string; reason: string; title: string; negativeButtonText: string }): Promise<{ value: string }>;
  deleteData(options: { key: string }): Promise<void>;
  isDataSaved(options: { key: string }): Promise<{ isSaved: boolean }>;
};

function kindOf(type: number): BiometryKind {
  switch (type) {
    case BIOMETRY.faceId:
      return 'face-id';
    case BIOMETRY.touchId:
      return 'touch-id';
    case BIOMETRY.fingerprint:
      return 'fingerprint';
    case BIOMETRY.face:
      return 'face';
    case BIOMETRY.iris:
      return 'iris';
    default:
      return 'biometrics';
  }
}

function refusalOf(error: unknown): BiometricRefusal {
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  if (code === ERRORS.gone) return 'gone';
  if ([ERRORS.userCancel, ERRORS.userFallback, ERRORS.systemCancel, ERRORS.cancelledByApp].includes(code as never)) return 'cancelled';
  return 'failed';
}

export function createBiometricStore({ loadPlugin }: { loadPlugin: () => Promise<NativeBiometricLike> }): BiometricStore {
  return {
    async available() {
      try {
        const result = await (await loadPlugin()).isAvailable({ useFallback: false });
        // A Keystore key can be bound to strong (class 3) biometrics only; iOS reports Face ID and Touch ID as strong.
        return result.isAvailable && result.strongBiometryIsAvailable !== false && result.biometryType !== 0 ? kindOf(result.biometryType) : null;
      } catch (error) {
        console.warn('biometrics not available', error);
        return null;
      }
    },
    async save(key, secret, kind) {
      await (await loadPlugin()).setData({ key, value: secret, title: B.enrolPromptTitle(kind), negativeButtonText: B.promptCancel });
    },
    async read(key) {
      try {
        return (await (await loadPlugin()).getSecureData({ key, reason: B.promptReason, title: B.promptTitle, negativeButtonText: B.promptCancel })).value;
      } catch (error) {
        throw new BiometricError(refusalOf(error), error);
      }
    },
    async remove(key) {
      const plugin = await loadPlugin();
      if ((await plugin.isDataSaved({ key })).isSaved) await plugin.deleteData({ key });
    },
  };
}

type PluginModule = Pick<typeof import('@capgo/capacitor-native-biometric'), 'NativeBiometric' | 'AccessControl'>;

/**
 * The plugin's module, wrapped (a Capacitor plugin proxy must never be what a promise resolves to:
 * native-platform.ts): the secret is kept with `BIOMETRY_CURRENT_SET`, so a biometric added to the device
 * later cannot read it.
 */
export function wrapNativeBiometric({ NativeBiometric, AccessControl }: PluginModule): NativeBiometricLike {
  return {
    isAvailable: (options) => NativeBiometric.isAvailable(options),
    setData: (options) => NativeBiometric.setData({ ...options, accessControl: AccessControl.BIOMETRY_CURRENT_SET }),
    getSecureData: (options) => NativeBiometric.getSecureData(options),
    deleteData: (options) => NativeBiometric.deleteData(options),
    isDataSaved: (options) => NativeBiometric.isDataSaved(options),
  };
}

export const nativeBiometricStore: BiometricStore = createBiometricStore({ loadPlugin: () => import('@capgo/capacitor-native-biometric').then(wrapNativeBiometric) });
