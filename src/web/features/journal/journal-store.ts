/**
 * This device's copy of an account's journal (issue 18; decisions 0031, 0032, 0054), in IndexedDB:
 * - this device's id, how far it has read the server's changes, and a copy of the keyring (sealed by
 *   the passphrase, as the server holds it) so the journal unlocks offline;
 * - every record, still sealed exactly as the server holds it (or will), with its change number and
 *   whether it still has to be sent. The decrypted copy lives only in the page's memory.
 * - inside the apps, when the person chose Face ID / fingerprint (decision 0065), the data key wrapped under
 *   a secret that only the device's biometric store holds: this copy alone opens nothing.
 * The opened data key is never stored (journal-lock.ts keeps it in memory). Everything is filed under
 * the account id; signing out deletes the whole database (forget-personal-data.ts).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { BiometryKind } from '#shared/journal-keys.ts';
import type { Keyring, SealedRecord, Wrapped } from '#web/features/journal/journal-crypto.ts';
import { JOURNAL_DB_NAME } from '#web/lib/forget-personal-data.ts';

/** What one account's journal on this device knows besides its records. */
export type StoredDevice = { accountId: string; device: string; cursor: number; keyring: Keyring | null };
/**
 * The device's journal with its key opened (in memory): what the sync engine works with. `previousKeys` are
 * the data keys a rotation replaced (decision 0061), to open records not yet sealed again.
 */
export type OpenedDevice = StoredDevice & { dataKey: CryptoKey; previousKeys?: readonly CryptoKey[] };
/** Before issue 36 the opened key was stored with the device: `loadDevice` hands it over once and erases it. */
type StoredDeviceBefore36 = Omit<StoredDevice, 'keyring'> & { keyring?: Keyring | null; dataKey?: CryptoKey };
/**
 * One record as kept on the device: sealed, with the server change it is based on, whether it waits to be
 * sent, and the highest version number seen on the server for it (decision 0055; absent on rows stored before).
 */
export type StoredRecord = { accountId: string; id: string; seq: number | null; pending: boolean; seen?: number; sealed: SealedRecord };

/**
 * Face ID / fingerprint unlock on this device (decision 0065): the data key wrapped by the secret in the biometric
 * store, what the device offers, and the keyring's passphrase wrap it was made under (a changed passphrase or key
 * no longer matches, and the biometric way in is dropped).
 */
export type BiometricUnlock = { accountId: string; kind: BiometryKind; wrapped: Wrapped; passphraseWrap: string };

interface JournalSchema extends DBSchema {
  devices: { key: string; value: StoredDeviceBefore36 };
  records: { key: [string, string]; value: StoredRecord; indexes: { byAccount: string } };
  unlocks: { key: string; value: BiometricUnlock };
}

let dbPromise: Promise<IDBPDatabase<JournalSchema>> | null = null;
function db() {
  dbPromise ??= openDB<JournalSchema>(JOURNAL_DB_NAME, 2, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) {
        database.createObjectStore('devices', { keyPath: 'accountId' });
        database.createObjectStore('records', { keyPath: ['accountId', 'id'] }).createIndex('byAccount', 'accountId');
      }
      if (oldVersion < 2) database.createObjectStore('unlocks', { keyPath: 'accountId' });
    },
    // Another tab deleting the database (signing out) must not wait on this tab's connection.
    blocking() {
      void dbPromise?.then((open) => open.close());
      dbPromise = null;
    },
  });
  return dbPromise;
}

/**
 * This account's journal on the device. A key stored there by an earlier version is erased from the
 * device now and handed back as `storedKey`, once, so that journal stays open for this page only.
 */
export async function loadDevice(accountId: string): Promise<(StoredDevice & { storedKey?: CryptoKey }) | undefined> {
  const stored = await (await db()).get('devices', accountId);
  if (!stored) return undefined;
  const device: StoredDevice = { accountId: stored.accountId, device: stored.device, cursor: stored.cursor, keyring: stored.keyring ?? null };
  if (!stored.dataKey) return device;
  await saveDevice(device);
  return { ...device, storedKey: stored.dataKey };
}

export async function saveDevice(device: StoredDevice): Promise<void> {
  await (await db()).put('devices', device);
}

export async function loadRecords(accountId: string): Promise<StoredRecord[]> {
  return (await db()).getAllFromIndex('records', 'byAccount', accountId);
}

/** Stores records and, when given, the new read position, in one transaction: a crash keeps both or neither. */
export async function saveRecords(accountId: string, records: readonly StoredRecord[], cursor?: number): Promise<void> {
  const tx = (await db()).transaction(['records', 'devices'], 'readwrite');
  const writes: Promise<unknown>[] = records.map((record) => tx.objectStore('records').put(record));
  if (cursor !== undefined) {
    const device = await tx.objectStore('devices').get(accountId);
    if (device && cursor > device.cursor) writes.push(tx.objectStore('devices').put({ accountId: device.accountId, device: device.device, cursor, keyring: device.keyring ?? null }));
  }
  await Promise.all([...writes, tx.done]);
}

/** How many changes on this device, for any account, have not reached the server (signing out warns of them). */
export async function unsyncedCount(): Promise<number> {
  let count = 0;
  // A cursor, not getAll: a long journal's sealed records need not all be in memory at once.
  for (let cursor = await (await db()).transaction('records').store.openCursor(); cursor; cursor = await cursor.continue()) if (cursor.value.pending) count += 1;
  return count;
}

/** Forgets one account's journal on this device: the keyring, every record and the biometric way in. */
export async function forgetAccount(accountId: string): Promise<void> {
  const tx = (await db()).transaction(['records', 'devices', 'unlocks'], 'readwrite');
  const keys = await tx.objectStore('records').index('byAccount').getAllKeys(accountId);
  await Promise.all([...keys.map((key) => tx.objectStore('records').delete(key)), tx.objectStore('devices').delete(accountId), tx.objectStore('unlocks').delete(accountId), tx.done]);
}

/** This account's Face ID / fingerprint unlock on this device, if turned on (decision 0065). */
export async function loadBiometricUnlock(accountId: string): Promise<BiometricUnlock | undefined> {
  return (await db()).get('unlocks', accountId);
}

export async function saveBiometricUnlock(unlock: BiometricUnlock): Promise<void> {
  await (await db()).put('unlocks', unlock);
}

export async function forgetBiometricUnlockOf(accountId: string): Promise<void> {
  await (await db()).delete('unlocks', accountId);
}

/** Whether any account has a biometric unlock here (else the device's biometric secret is left over and goes). */
export async function anyBiometricUnlock(): Promise<boolean> {
  return (await (await db()).count('unlocks')) > 0;
}

/** Every account other than `accountId` that left a journal here (a shared browser). */
export async function otherAccounts(accountId: string): Promise<string[]> {
  return (await (await db()).getAllKeys('devices')).filter((id) => id !== accountId);
}
