/**
 * Opening an account's journal on this device (issue 18; decision 0031): setting it up the first
 * time, unlocking it with the passphrase, or with the recovery key and a new passphrase. Each ends
 * with the opened, non-extractable data key kept on this device (journal-store), so the journal
 * opens offline afterwards; only the keyring ever goes to the server.
 */
import { changePassphrase, createKeyring, JournalLockedError, unlockWithPassphrase, unlockWithRecoveryKey, type Keyring } from '#web/features/journal/journal-crypto.ts';
import { saveDevice, type StoredDevice } from '#web/features/journal/journal-store.ts';
import { JOURNAL_LOCK_MESSAGES as L, JOURNAL_PASSPHRASE_MIN } from '#shared/journal.ts';
import type { api } from '#web/lib/api.ts';

type Request = typeof api;

/** The one check on a new passphrase (the form shows it; nothing is sent, so nothing else can check it). */
export function passphraseProblem(passphrase: string, repeated: string): string | null {
  if (passphrase.length < JOURNAL_PASSPHRASE_MIN) return L.passphraseShort;
  if (passphrase !== repeated) return L.passphraseMismatch;
  return null;
}

async function remember(accountId: string, dataKey: CryptoKey): Promise<StoredDevice> {
  // A random id per device settles two versions stamped in the same millisecond (journal-merge).
  const device: StoredDevice = { accountId, dataKey, device: crypto.randomUUID(), cursor: 0 };
  await saveDevice(device);
  return device;
}

async function currentKeyring(request: Request): Promise<Keyring> {
  const { keyring } = await request<{ keyring: Keyring | null }>('/api/journal/keyring');
  if (!keyring) throw new JournalLockedError('This journal is not set up yet.');
  return keyring;
}

/** A new journal for the account: returns the opened journal and the recovery key to show once. */
export async function setUpJournal(accountId: string, passphrase: string, request: Request): Promise<{ device: StoredDevice; recoveryKey: string }> {
  const { keyring, recoveryKey, dataKey } = await createKeyring(passphrase);
  // The first device to set up wins (409 for a second one at the same moment, which then unlocks).
  await request('/api/journal/keyring', { method: 'POST', body: { keyring } });
  return { device: await remember(accountId, dataKey), recoveryKey };
}

export async function unlockJournal(accountId: string, passphrase: string, request: Request): Promise<StoredDevice> {
  return remember(accountId, await unlockWithPassphrase(await currentKeyring(request), passphrase));
}

/** A forgotten passphrase: the recovery key opens the journal, and a new passphrase replaces the old one everywhere. */
export async function recoverJournal(accountId: string, recoveryKey: string, newPassphrase: string, request: Request): Promise<StoredDevice> {
  const keyring = await currentKeyring(request);
  const dataKey = await unlockWithRecoveryKey(keyring, recoveryKey);
  await request('/api/journal/keyring', { method: 'PUT', body: { keyring: await changePassphrase(keyring, { recoveryKey }, newPassphrase) } });
  return remember(accountId, dataKey);
}

/** A new passphrase, knowing the current one. Devices already unlocked stay unlocked: the data key is the same. */
export async function replaceJournalPassphrase(current: string, next: string, request: Request): Promise<void> {
  const keyring = await currentKeyring(request);
  await request('/api/journal/keyring', { method: 'PUT', body: { keyring: await changePassphrase(keyring, { passphrase: current }, next) } });
}
