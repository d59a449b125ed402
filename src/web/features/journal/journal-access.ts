/**
 * Opening an account's journal on this device (issue 18; decisions 0031, 0054): setting it up the
 * first time, unlocking it with the passphrase, or with the recovery key and a new passphrase. Each
 * ends with the opened, non-extractable data key held in this page's memory (journal-lock.ts), and a
 * copy of the keyring kept on the device so the passphrase opens it offline next time; only the
 * keyring ever goes to the server.
 */
import {
  changePassphrase,
  createKeyring,
  generationOf,
  JournalLockedError,
  openPreviousKeys,
  openWrapped,
  rotateKeyring,
  unlockAndUpgrade,
  unlockWithRecoveryKey,
  type Keyring,
  type OpenedKeys,
  type Wrapped,
} from '#web/features/journal/journal-crypto.ts';
import { BIOMETRIC_SECRET_KEY, forgetBiometricUnlock, wrappingKeyOf } from '#web/features/journal/journal-biometric.ts';
import { holdKey, lockJournal } from '#web/features/journal/journal-lock.ts';
import { forgetAccount, loadBiometricUnlock, loadDevice, saveDevice, type OpenedDevice, type StoredDevice } from '#web/features/journal/journal-store.ts';
import { BiometricError, type BiometricStore } from '#web/platform/biometrics.ts';
import { JOURNAL_LOCK_MESSAGES as L, JOURNAL_PASSPHRASE_MIN, JOURNAL_PASSPHRASE_MIN_SCORE, JOURNAL_RESET_WORD } from '#shared/journal-keys.ts';
import { journalApi } from '#shared/contracts/journal.routes.ts';
import { ApiError } from '#web/lib/api.ts';
import type { call } from '#web/lib/call.ts';

/** How these reach the server: call() on the page, a simulated browser's own in the tests. */
type Request = typeof call;

/**
 * The one check on a new passphrase (the form shows it; nothing is sent, so nothing else can check it): its
 * length, its zxcvbn score (issue 36, item 2; decision 0061: at least JOURNAL_PASSPHRASE_MIN_SCORE), and the
 * repetition.
 */
export function passphraseProblem(passphrase: string, repeated: string, score: number): string | null {
  if (passphrase.length < JOURNAL_PASSPHRASE_MIN) return L.passphraseShort;
  if (score < JOURNAL_PASSPHRASE_MIN_SCORE) return L.passphraseWeak;
  if (passphrase !== repeated) return L.passphraseMismatch;
  return null;
}

/**
 * Whether `next` is the journal this device kept `kept` of: the same recovery wrap, or a later generation (a
 * rotation elsewhere: decision 0061). A reset and a new set-up start again at generation 1 with a new recovery
 * wrap, so they are a different journal.
 */
function sameJournal(kept: Keyring | null, next: Keyring): boolean {
  return kept === null || kept.recovery.wrapped.data === next.recovery.wrapped.data || generationOf(next) > generationOf(kept);
}

/**
 * Holds the opened keys for this page and keeps the keyring on the device. The device keeps its id, read
 * position and records when it unlocks the same journal again; a different journal replaces whatever this
 * device held for the account. After a rotation elsewhere the device reads the server's journal again from
 * the start: records it could not open under the old key may have been passed by.
 */
async function remember(accountId: string, keys: OpenedKeys, keyring: Keyring): Promise<OpenedDevice> {
  const known = await loadDevice(accountId);
  const same = known !== undefined && sameJournal(known.keyring, keyring);
  if (known && !same) await forgetAccount(accountId);
  const rotated = known?.keyring && generationOf(keyring) > generationOf(known.keyring);
  // A random id per device settles two versions stamped in the same millisecond (journal-merge).
  const device: StoredDevice = known && same ? { accountId, device: known.device, cursor: rotated ? 0 : known.cursor, keyring } : { accountId, device: crypto.randomUUID(), cursor: 0, keyring };
  await saveDevice(device);
  holdKey(accountId, keys.dataKey, keys.previousKeys);
  return { ...device, ...keys };
}

/** The keys a keyring opens with its data key: the data key and those a rotation replaced. */
async function keysOf(keyring: Keyring, dataKey: CryptoKey): Promise<OpenedKeys> {
  return { dataKey, previousKeys: await openPreviousKeys(keyring, dataKey) };
}

async function currentKeyring(request: Request): Promise<Keyring> {
  const { keyring } = await request(journalApi.keyring);
  if (!keyring) throw new JournalLockedError('This journal is not set up yet.');
  return keyring;
}

/** The server's keyring (a passphrase changed elsewhere applies at once); offline, the copy kept on this device. */
async function keyringToUnlock(accountId: string, request: Request): Promise<Keyring> {
  try {
    return await currentKeyring(request);
  } catch (error) {
    const kept = error instanceof ApiError && error.code === 'network' ? (await loadDevice(accountId))?.keyring : null;
    if (kept) return kept;
    throw error;
  }
}

/** A new journal for the account: returns the opened journal and the recovery key to show once. */
export async function setUpJournal(accountId: string, passphrase: string, request: Request): Promise<{ device: OpenedDevice; recoveryKey: string }> {
  const { keyring, recoveryKey, dataKey } = await createKeyring(passphrase);
  // The first device to set up wins (409 for a second one at the same moment, which then unlocks).
  await request(journalApi.createKeyring, { body: { keyring } });
  return { device: await remember(accountId, { dataKey, previousKeys: [] }, keyring), recoveryKey };
}

/**
 * Unlocks with the passphrase. A keyring under PBKDF2 (or Argon2id below today's parameters) is upgraded
 * now (decision 0061): the same data key wrapped again under Argon2id and stored on the server, which keeps
 * the KDF's name and parameters with it. Offline, or if the server does not take it, the journal still opens
 * and the upgrade waits for the next unlock. With `wrapFor` (turning on Face ID / fingerprint: decision 0065)
 * the data key is also wrapped under that key, as `wrappedFor`.
 */
export async function unlockJournal(accountId: string, passphrase: string, request: Request, wrapFor?: CryptoKey): Promise<OpenedDevice & { wrappedFor?: Wrapped }> {
  let keyring = await keyringToUnlock(accountId, request);
  const { dataKey, upgraded, wrappedFor } = await unlockAndUpgrade(keyring, passphrase, undefined, wrapFor);
  if (upgraded) {
    try {
      await request(journalApi.updateKeyring, { body: { keyring: upgraded } });
      keyring = upgraded;
    } catch (error) {
      // Not stored (offline, or the keyring changed meanwhile): the old wrap still opens it; try again next time.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return { ...(await remember(accountId, await keysOf(keyring, dataKey), keyring)), ...(wrappedFor ? { wrappedFor } : {}) };
}

/**
 * Unlocks with Face ID / fingerprint (decision 0065): only while the keyring (the server's, offline the kept one)
 * still has the passphrase wrap the biometric way in was made under; the device's prompt hands over the secret
 * that unwraps the data key. A changed passphrase or key, biometrics changed on the device, or a secret that
 * does not open the wrapped key drop the biometric way in ('gone'); a cancelled or failed prompt keeps it.
 * Rejects with a BiometricError; the passphrase always works.
 */
export async function unlockWithBiometrics(accountId: string, store: BiometricStore, request: Request): Promise<OpenedDevice> {
  const unlock = await loadBiometricUnlock(accountId);
  if (!unlock) throw new BiometricError('gone');
  const keyring = await keyringToUnlock(accountId, request);
  const gone = async (cause?: unknown) => {
    await forgetBiometricUnlock(accountId, store);
    return new BiometricError('gone', cause);
  };
  if (keyring.passphrase.wrapped.data !== unlock.passphraseWrap) throw await gone();
  let secret: string;
  try {
    secret = await store.read(BIOMETRIC_SECRET_KEY);
  } catch (error) {
    if (error instanceof BiometricError && error.refusal !== 'gone') throw error;
    throw await gone(error);
  }
  let dataKey: CryptoKey;
  try {
    dataKey = await openWrapped(unlock.wrapped, await wrappingKeyOf(secret));
  } catch (error) {
    throw await gone(error);
  }
  return remember(accountId, await keysOf(keyring, dataKey), keyring);
}

/** A forgotten passphrase: the recovery key opens the journal, and a new passphrase replaces the old one everywhere. */
export async function recoverJournal(accountId: string, recoveryKey: string, newPassphrase: string, request: Request): Promise<OpenedDevice> {
  const keyring = await currentKeyring(request);
  const dataKey = await unlockWithRecoveryKey(keyring, recoveryKey);
  const changed = await changePassphrase(keyring, { recoveryKey }, newPassphrase);
  await request(journalApi.updateKeyring, { body: { keyring: changed } });
  await forgetBiometricUnlock(accountId);
  return remember(accountId, await keysOf(changed, dataKey), changed);
}

/**
 * A new passphrase, knowing the current one. Devices already unlocked stay unlocked: the data key is the
 * same. This device's kept keyring takes the new one at once; another device's, at its next unlock online.
 */
export async function replaceJournalPassphrase(accountId: string, current: string, next: string, request: Request): Promise<void> {
  const keyring = await changePassphrase(await currentKeyring(request), { passphrase: current }, next);
  await request(journalApi.updateKeyring, { body: { keyring } });
  await forgetBiometricUnlock(accountId);
  const known = await loadDevice(accountId);
  if (known) await saveDevice({ accountId, device: known.device, cursor: known.cursor, keyring });
}

/**
 * Replaces the data key and the recovery key (issue 36, item 3; decision 0061), knowing the current
 * passphrase; `next` is the passphrase from now on (the same one for "New recovery key"). The new keyring
 * (the next generation, carrying the replaced keys sealed under the new one) is stored first, atomically; from
 * then on the server refuses writes under the old key, so other devices must unlock again. The caller's
 * engine, opened on the returned device, then seals every record again under the new key (records sealed
 * under a replaced key are found and sealed again by any device that opens the journal, so an interruption
 * loses nothing). Returns the new recovery key, to show once.
 */
export async function rotateJournalKey(accountId: string, current: string, next: string, request: Request): Promise<{ device: OpenedDevice; recoveryKey: string }> {
  const { keyring, recoveryKey, keys } = await rotateKeyring(await currentKeyring(request), current, next);
  await request(journalApi.rotateKeyring, { body: { keyring } });
  await forgetBiometricUnlock(accountId);
  return { device: await remember(accountId, keys, keyring), recoveryKey };
}

/**
 * "Start a new journal" (issue 36, item 3): the server deletes the keyring and every record; then this
 * device lets go of the key and forgets its copy. Other devices find no keyring and offer to set up.
 */
export async function startNewJournal(accountId: string, request: Request): Promise<void> {
  await request(journalApi.reset, { body: { confirm: JOURNAL_RESET_WORD } });
  lockJournal();
  await forgetBiometricUnlock(accountId);
  await forgetAccount(accountId);
}
