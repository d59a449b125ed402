/**
 * The device's biometric prompt and its protected store behind @capgo/capacitor-native-biometric's native
 * half, for a fake shell in Chromium (native-shell.e2e.ts's `fakeShell`, then this, as init scripts;
 * decision 0065). The device offers strong fingerprint (Android) or Face ID (iOS). A value kept with access
 * control comes back only through `getSecureData`, whose prompt does what the test chose next
 * (`window.answerBiometricPrompt`: 'pass', 'cancel' (code 16), 'fail' (10)); 'pass' when nothing is chosen.
 */
import type { Page } from 'playwright-core';

type CapacitorFake = {
  PluginHeaders: { name: string; methods: { name: string; rtype: string }[] }[];
  nativePromise: (plugin: string, method: string, options?: Record<string, unknown>) => Promise<unknown>;
};

export type BiometricPromptAnswer = 'pass' | 'cancel' | 'fail';

export function fakeBiometricPrompt(biometryType: number) {
  const cap = (window as unknown as { Capacitor: CapacitorFake }).Capacitor;
  cap.PluginHeaders.push({ name: 'NativeBiometric', methods: ['isAvailable', 'setData', 'getSecureData', 'deleteData', 'isDataSaved'].map((name) => ({ name, rtype: 'promise' })) });
  const kept = new Map<string, { value: string; accessControl: unknown }>();
  const answers: BiometricPromptAnswer[] = [];
  const prompts: string[] = [];
  const refuse = (message: string, code: string) => Promise.reject(Object.assign(new Error(message), { code }));
  const nativePromise = cap.nativePromise;
  cap.nativePromise = (plugin, method, options = {}) => {
    if (plugin !== 'NativeBiometric') return nativePromise(plugin, method, options);
    const key = String(options.key);
    if (method === 'isAvailable') return Promise.resolve({ isAvailable: true, strongBiometryIsAvailable: true, biometryType, authenticationStrength: 1, deviceIsSecure: true });
    if (method === 'setData') {
      kept.set(key, { value: String(options.value), accessControl: options.accessControl });
      return Promise.resolve();
    }
    if (method === 'isDataSaved') return Promise.resolve({ isSaved: kept.has(key) });
    if (method === 'deleteData') return Promise.resolve(void kept.delete(key));
    // getSecureData: the prompt.
    const item = kept.get(key);
    if (!item?.accessControl) return refuse('No protected data found for key', '21');
    const answer = answers.shift() ?? 'pass';
    prompts.push(answer);
    if (answer === 'cancel') return refuse('User canceled biometric authentication', '16');
    if (answer === 'fail') return refuse('Biometric authentication failed', '10');
    return Promise.resolve({ value: item.value });
  };
  Object.assign(window, {
    answerBiometricPrompt: (...next: BiometricPromptAnswer[]) => answers.push(...next),
    biometricPrompts: () => prompts,
    biometricKeychain: () => [...kept.entries()].map(([key, item]) => ({ key, accessControl: item.accessControl })),
    // Whether any kept secret is also readable in the page's web storage (it must never be).
    biometricSecretInWebStorage: () =>
      [...kept.values()].some(({ value }) => [localStorage, sessionStorage].some((storage) => Object.keys(storage).some((name) => name.includes(value) || (storage.getItem(name) ?? '').includes(value)))),
  });
}

/** What the next biometric prompts will do. */
export const answerBiometricPrompt = (page: Page, ...answers: BiometricPromptAnswer[]) => page.evaluate((a) => (window as unknown as { answerBiometricPrompt: (...a: BiometricPromptAnswer[]) => void }).answerBiometricPrompt(...a), answers);
/** How the prompts shown so far were answered. */
export const biometricPrompts = (page: Page) => page.evaluate(() => (window as unknown as { biometricPrompts: () => string[] }).biometricPrompts());
/** What the device's protected store holds: keys and access control, never the values. */
export const biometricKeychain = (page: Page) => page.evaluate(() => (window as unknown as { biometricKeychain: () => { key: string; accessControl: unknown }[] }).biometricKeychain());
/** Whether a secret of the protected store can also be read in localStorage or sessionStorage. */
export const biometricSecretInWebStorage = (page: Page) => page.evaluate(() => (window as unknown as { biometricSecretInWebStorage: () => boolean }).biometricSecretInWebStorage());
