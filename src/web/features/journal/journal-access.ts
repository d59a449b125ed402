/**
 * Opening an account's journal on this device (issue 18; decisions 0031, 0054): setting it up the
 * first time, unlocking it with the passphrase, or with the recovery key and a new passphrase. Each
 * ends with the opened, non-extractable data key held in this page's memory (journal-lock.ts), and a
 * copy of the keyring kept on the device so the passphrase opens it offline next time; only the
 * keyring ever goes to the server.
 */
import { changePassphrase, createKeyring, JournalLockedError, unlockWithPassphrase, unlockWithRecoveryKey, type Keyring } from '#web/features/journal/journal-crypto.ts';
import { holdKey, lockJournal } from '#web/features/journal/journal-lock.ts';
import { forgetAccount, loadDevice, saveDevice, type OpenedDevice, type StoredDevice } from '#web/features/journal/journal-store.ts';
import { JOURNAL_LOCK_MESSAGES as L, JOURNAL_PASSPHRASE_MIN, JOURNAL_RESET_WORD } from '#shared/journal.ts';
import { ApiError, type api } from '#web/lib/api.ts';

type Request = typeof api;

/** The one check on a new passphrase (the form shows it; nothing is sent, so nothing else can check it). */
export function passphraseProblem(passphrase: string, repeated: string): string | null {
  if (passphrase.length < JOURNAL_PASSPHRASE_MIN) return L.passphraseShort;
  if (passphrase !== repeated) return L.passphraseMismatch;
  return null;
}

/**
 * Holds the opened key for this page and keeps the keyring on the device. The device keeps its id, read
 * position and records when it unlocks the same journal again; a different journal (its recovery wrap
 * is made once, at set-up) replaces whatever this device held for the account.
 */
async function remember(accountId: string, dataKey: CryptoKey, keyring: Keyring): Promise<OpenedDevice> {
  const known = await loadDevice(accountId);
  const same = known !== undefined && (known.keyring === null || known.keyring.recovery.wrapped.data === keyring.recovery.wrapped.data);
  if (known && !same) await forgetAccount(accountId);
  // A random id per device settles two versions stamped in the same millisecond (journal-merge).
  const device: StoredDevice = known && same ? { accountId, device: known.device, cursor: known.cursor, keyring } : { accountId, device: crypto.randomUUID(), cursor: 0, keyring };
  await saveDevice(device);
  holdKey(accountId, dataKey);
  return { ...device, dataKey };
}

async function currentKeyring(request: Request): Promise<Keyring> {
  const { keyring } = await request<{ keyring: Keyring | null }>('/api/journal/keyring');
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
  await request('/api/journal/keyring', { method: 'POST', body: { keyring } });
  return { device: await remember(accountId, dataKey, keyring), recoveryKey };
}

export async function unlockJournal(accountId: string, passphrase: string, request: Request): Promise<OpenedDevice> {
  const keyring = await keyringToUnlock(accountId, request);
  return remember(accountId, await unlockWithPassphrase(keyring, passphrase), keyring);
}

/** A forgotten passphrase: the recovery key opens the journal, and a new passphrase replaces the old one everywhere. */
export async function recoverJournal(accountId: string, recoveryKey: string, newPassphrase: string, request: Request): Promise<OpenedDevice> {
  const keyring = await currentKeyring(request);
  const dataKey = await unlockWithRecoveryKey(keyring, recoveryKey);
  const changed = await changePassphrase(keyring, { recoveryKey }, newPassphrase);
  await request('/api/journal/keyring', { method: 'PUT', body: { keyring: changed } });
  return remember(accountId, dataKey, changed);
}

/**
 * A new passphrase, knowing the current one. Devices already unlocked stay unlocked: the data key is the
 * same. This device's kept keyring takes the new one at once; another device's, at its next unlock online.
 */
export async function replaceJournalPassphrase(accountId: string, current: string, next: string, request: Request): Promise<void> {
  const keyring = await changePassphrase(await currentKeyring(request), { passphrase: current }, next);
  await request('/api/journal/keyring', { method: 'PUT', body: { keyring } });
  const known = await loadDevice(accountId);
  if (known) await saveDevice({ accountId, device: known.device, cursor: known.cursor, keyring });
}

/**
 * "Start a new journal" (issue 36, item 3): the server deletes the keyring and every record; then this
 * device lets go of the key and forgets its copy. Other devices find no keyring and offer to set up.
 */
export async function startNewJournal(accountId: string, request: Request): Promise<void> {
  await request('/api/journal/reset', { method: 'POST', body: { confirm: JOURNAL_RESET_WORD } });
  lockJournal();
  await forgetAccount(accountId);
}
