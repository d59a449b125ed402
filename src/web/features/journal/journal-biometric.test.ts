/**
 * Face ID / fingerprint as the way back into the journal inside the apps (issue 36, item 1; decision 0065),
 * through @capgo/capacitor-native-biometric's own JavaScript as it crosses the bridge, against the real
 * server and a per-device IndexedDB (journal-devices.ts). The plugin's native half is a fake Keychain that
 * answers as the device does: a secret stored with biometry access control comes back only through the
 * prompt, which the person can pass, cancel (code 16) or fail (10), and which finds nothing (21) once the
 * device's biometrics changed.
 */
import 'fake-indexeddb/auto';
import type * as NativeBiometricModule from '@capgo/capacitor-native-biometric';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BiometricError, BiometricStore } from '#web/platform/biometrics.ts';
import { journalTestDevices } from '#tests/journal-devices.ts';
import { fakeCapacitorBridge } from '#tests/fakes/capacitor-bridge.ts';
import type { JournalEntry } from '#shared/journal.ts';

// The idle lock needs a page to watch; its own tests (journal-lock.test.ts) run in one.
vi.mock('#web/lib/idle-watch.ts', () => ({ watchIdle: () => () => undefined }));

const devices = journalTestDevices();
const { subscriber, device } = devices;
const PASSPHRASE = 'harbour lights at dusk';

afterEach(() => {
  vi.unstubAllGlobals();
});

type Prompt = 'pass' | 'cancel' | 'fail';

/** A phone: its Keychain (key → secret, each stored with or without access control), and what the next prompt does. */
function phone(kind: 'ios' | 'android', available: Record<string, unknown> = { isAvailable: true, strongBiometryIsAvailable: true, biometryType: kind === 'ios' ? 2 : 3 }) {
  const keychain = new Map<string, { value: string; accessControl: unknown }>();
  let prompt: Prompt = 'pass';
  const refuse = (message: string, code: string) => Promise.reject(Object.assign(new Error(message), { code }));
  const bridge = fakeCapacitorBridge(kind, {
    NativeBiometric: {
      isAvailable: () => Promise.resolve(available),
      setData: (options) => {
        if (kind === 'android' && prompt === 'cancel') return refuse('User canceled biometric authentication', '16');
        keychain.set(String(options.key), { value: String(options.value), accessControl: options.accessControl });
        return Promise.resolve();
      },
      getSecureData: (options) => {
        const item = keychain.get(String(options.key));
        if (!item?.accessControl) return refuse('No protected data found for key', '21');
        if (prompt === 'cancel') return refuse('User canceled biometric authentication', '16');
        if (prompt === 'fail') return refuse('Biometric authentication failed', '10');
        return Promise.resolve({ value: item.value });
      },
      isDataSaved: (options) => Promise.resolve({ isSaved: keychain.has(String(options.key)) }),
      deleteData: (options) => Promise.resolve(void keychain.delete(String(options.key))),
    },
  });
  // The store of the modules loaded now (each simulated device loads its own: journal-devices.ts), over the plugin's JavaScript.
  const current = async () => {
    const { createBiometricStore, wrapNativeBiometric } = await import('#web/platform/native-biometrics.ts');
    return createBiometricStore({ loadPlugin: () => Promise.resolve(wrapNativeBiometric(bridge.plugin('@capgo/capacitor-native-biometric') as typeof NativeBiometricModule)) });
  };
  const store: BiometricStore = {
    available: async () => (await current()).available(),
    save: async (key, secret, kind) => (await current()).save(key, secret, kind),
    read: async (key) => (await current()).read(key),
    remove: async (key) => (await current()).remove(key),
  };
  return {
    store,
    keychain,
    calls: bridge.calls,
    prompt: (next: Prompt) => (prompt = next),
    /** The device's biometrics changed (a finger added): the Keychain drops items kept with `.biometryCurrentSet`. */
    biometricsChanged: () => keychain.clear(),
  };
}

const entry = (id: string, words: string): JournalEntry => ({ id, type: 'cbt', date: '2026-11-28', timeOfDay: 'evening', content: { thoughtPatterns: words, cognitiveDistortions: [], reframe: '' } });

/** A signed-in person with a journal holding one entry, on a device whose page has locked it again; `enrolled` if Face ID was turned on at the unlock. */
async function lockedJournal(email: string, device_: ReturnType<typeof phone>) {
  const person = await subscriber(email);
  const browser = await device(person.cookie);
  const bio = await import('#web/features/journal/journal-biometric.ts');
  await browser.access.setUpJournal(person.userId, PASSPHRASE, browser.request);
  const journal = await browser.open(person.userId);
  await journal.add([entry('1', 'a hard evening')]);
  await journal.sync();
  journal.close();
  browser.lock.lockJournal();
  /** The passphrase unlock with "Unlock with Face ID next time" ticked, as use-journal does it. */
  const enrol = async () => {
    const kind = await device_.store.available();
    if (!kind) throw new Error('no biometrics');
    const wrapping = await bio.newWrappingSecret();
    const opened = await browser.access.unlockJournal(person.userId, PASSPHRASE, browser.request, wrapping.key);
    await bio.enrolBiometricUnlock(device_.store, person.userId, kind, wrapping.secret, opened.wrappedFor!, opened.keyring!);
    browser.lock.lockJournal();
    return wrapping.secret;
  };
  return { person, browser, bio, enrol };
}

// Every passphrase here goes through Argon2id at the journal's own parameters (about a CPU-second each,
// several a test): a test took up to 18 s in a quiet full run, past half the default 30 s.
describe('Face ID / fingerprint unlock inside the apps (decision 0065)', { timeout: 120_000 }, () => {
  it('turns on at a passphrase unlock, then opens the journal with the prompt alone; the device’s storage alone holds nothing that opens it', async () => {
    const ios = phone('ios');
    expect(await ios.store.available()).toBe('face-id');
    const { person, browser, bio, enrol } = await lockedJournal('bio-enrol@example.com', ios);
    // On the web there is no biometric store: the option is never offered, and the plugin never loaded.
    expect(await bio.deviceBiometricStore()).toBeNull();
    const secret = await enrol();

    // Kept with biometry access control (BIOMETRY_CURRENT_SET), as it crossed the bridge.
    const kept = ios.calls.find((call) => call.method === 'setData');
    expect(kept).toEqual({ plugin: 'NativeBiometric', method: 'setData', options: { key: bio.BIOMETRIC_SECRET_KEY, value: secret, accessControl: 1, title: 'Unlock your journal with Face ID', negativeButtonText: 'Use passphrase' } });
    expect(ios.keychain.get(bio.BIOMETRIC_SECRET_KEY)).toEqual({ value: secret, accessControl: 1 });

    expect(browser.lock.heldKey(person.userId)).toBeNull();
    await browser.access.unlockWithBiometrics(person.userId, ios.store, browser.request);
    expect(browser.lock.heldKey(person.userId)).not.toBeNull();
    const reopened = await browser.open(person.userId);
    expect(reopened.entries().map((e) => (e.type === 'cbt' ? e.content.thoughtPatterns : ''))).toEqual(['a hard evening']);
    reopened.close();
    const asked = ios.calls.filter((call) => call.method === 'getSecureData');
    expect(asked).toEqual([{ plugin: 'NativeBiometric', method: 'getSecureData', options: { key: bio.BIOMETRIC_SECRET_KEY, reason: 'Unlock your Harbour Mind journal', title: 'Unlock your journal', negativeButtonText: 'Use passphrase' } }]);

    // What the app's own storage holds: the data key wrapped by the secret, never the secret or an opened key.
    const { openDB } = await import('idb');
    const raw = await openDB('harbour-mind-journal');
    const row = (await raw.get('unlocks', person.userId)) as Record<string, unknown>;
    raw.close();
    expect(Object.keys(row).sort()).toEqual(['accountId', 'kind', 'passphraseWrap', 'wrapped']);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(Object.values(row).some((value) => value instanceof CryptoKey)).toBe(false);
    // Without the Keychain's secret the wrapped key opens nothing: another secret is refused.
    const crypto = await import('#web/features/journal/journal-crypto.ts');
    const other = await bio.newWrappingSecret();
    await expect(crypto.openWrapped(row.wrapped as { iv: string; data: string }, other.key)).rejects.toThrow(crypto.JournalLockedError);
  });

  it('a cancelled or failed prompt keeps it turned on and leaves the passphrase, which always works', async () => {
    const ios = phone('ios');
    const { person, browser, enrol } = await lockedJournal('bio-cancel@example.com', ios);
    await enrol();
    for (const [prompt, refusal] of [
      ['cancel', 'cancelled'],
      ['fail', 'failed'],
    ] as const) {
      ios.prompt(prompt);
      const refused = await browser.access.unlockWithBiometrics(person.userId, ios.store, browser.request).catch((error: unknown) => error);
      expect(refused).toMatchObject({ name: 'BiometricError', refusal });
      expect(browser.lock.heldKey(person.userId)).toBeNull();
      expect(await browser.store.loadBiometricUnlock(person.userId)).toBeDefined();
    }
    await browser.access.unlockJournal(person.userId, PASSPHRASE, browser.request);
    expect(browser.lock.heldKey(person.userId)).not.toBeNull();
    browser.lock.lockJournal();
    ios.prompt('pass');
    await browser.access.unlockWithBiometrics(person.userId, ios.store, browser.request);
    expect(browser.lock.heldKey(person.userId)).not.toBeNull();
  });

  it('is dropped when the device’s biometrics changed, when turned off, and when the passphrase changes here', async () => {
    const ios = phone('ios');
    const { person, browser, bio, enrol } = await lockedJournal('bio-gone@example.com', ios);
    await enrol();
    ios.biometricsChanged();
    const refused = await browser.access.unlockWithBiometrics(person.userId, ios.store, browser.request).catch((error: unknown) => error);
    expect((refused as BiometricError).refusal).toBe('gone');
    expect(await browser.store.loadBiometricUnlock(person.userId)).toBeUndefined();

    // Turned off by the person: the wrapped key and the Keychain's secret go.
    await enrol();
    await bio.forgetBiometricUnlock(person.userId, ios.store);
    expect(await browser.store.loadBiometricUnlock(person.userId)).toBeUndefined();
    expect(ios.keychain.size).toBe(0);

    // A new passphrase set here.
    await enrol();
    await browser.access.replaceJournalPassphrase(person.userId, PASSPHRASE, 'another long passphrase', browser.request);
    expect(await browser.store.loadBiometricUnlock(person.userId)).toBeUndefined();
    expect((await browser.access.unlockWithBiometrics(person.userId, ios.store, browser.request).catch((error: unknown) => error)) as BiometricError).toMatchObject({ refusal: 'gone' });
    expect(browser.lock.heldKey(person.userId)).toBeNull();
  });

  it('is dropped, before any prompt, when the passphrase was changed or the key rotated on another device', async () => {
    const ios = phone('ios');
    const { person, browser, enrol } = await lockedJournal('bio-elsewhere@example.com', ios);
    await enrol();
    const laptop = await device(person.cookie);
    await laptop.access.replaceJournalPassphrase(person.userId, PASSPHRASE, 'the laptop chose this one', laptop.request);
    const before = ios.calls.length;
    const refused = await browser.access.unlockWithBiometrics(person.userId, ios.store, browser.request).catch((error: unknown) => error);
    expect((refused as BiometricError).refusal).toBe('gone');
    expect(ios.calls.slice(before).map((call) => call.method)).toEqual(['isDataSaved', 'deleteData']);
    expect(ios.keychain.size).toBe(0);
    expect(browser.lock.heldKey(person.userId)).toBeNull();

    // A rotation on this device drops it too (the key it wrapped is replaced).
    const rotating = await device(person.cookie);
    const bio = await import('#web/features/journal/journal-biometric.ts');
    const wrapping = await bio.newWrappingSecret();
    const opened = await rotating.access.unlockJournal(person.userId, 'the laptop chose this one', rotating.request, wrapping.key);
    await bio.enrolBiometricUnlock(ios.store, person.userId, 'face-id', wrapping.secret, opened.wrappedFor!, opened.keyring!);
    await rotating.access.rotateJournalKey(person.userId, 'the laptop chose this one', 'the laptop chose this one', rotating.request);
    expect(await rotating.store.loadBiometricUnlock(person.userId)).toBeUndefined();
  });

  it('on Android, a prompt cancelled while turning it on leaves nothing behind; only strong biometrics are offered', async () => {
    const android = phone('android');
    expect(await android.store.available()).toBe('fingerprint');
    const { person, browser, enrol } = await lockedJournal('bio-android@example.com', android);
    android.prompt('cancel');
    await expect(enrol()).rejects.toMatchObject({ code: '16' });
    expect(await browser.store.loadBiometricUnlock(person.userId)).toBeUndefined();
    expect(android.keychain.size).toBe(0);

    // Turned on, then the account's journal forgotten here (another account opened it, or signing out deleted the
    // database): the secret left behind goes at the next page's first look, and only then.
    android.prompt('pass');
    await enrol();
    await browser.store.forgetAccount(person.userId);
    expect(android.keychain.size).toBe(1);
    const bio = await import('#web/features/journal/journal-biometric.ts');
    await bio.removeLeftoverSecret(android.store);
    expect(android.keychain.size).toBe(0);

    expect(await phone('android', { isAvailable: true, strongBiometryIsAvailable: false, biometryType: 4 }).store.available()).toBeNull();
    expect(await phone('android', { isAvailable: false, biometryType: 0, errorCode: 3 }).store.available()).toBeNull();
    expect(await phone('android', { isAvailable: true, strongBiometryIsAvailable: true, biometryType: 6 }).store.available()).toBe('biometrics');
    expect(await phone('ios', { isAvailable: true, strongBiometryIsAvailable: true, biometryType: 1 }).store.available()).toBe('touch-id');
  });
});
