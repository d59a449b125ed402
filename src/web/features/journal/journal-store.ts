/**
 * This device's copy of an account's journal (issue 18; decision 0031), in IndexedDB:
 * - the opened data key, as a non-extractable CryptoKey (script can use it, never read it out), with
 *   this device's id and how far it has read the server's changes;
 * - every record, still sealed exactly as the server holds it (or will), with its change number and
 *   whether it still has to be sent. The decrypted copy lives only in the page's memory.
 * Everything is filed under the account id; signing out deletes the whole database (forget-personal-data.ts).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { SealedRecord } from '#web/features/journal/journal-crypto.ts';
import { JOURNAL_DB_NAME } from '#web/lib/forget-personal-data.ts';

/** What one account's journal on this device knows besides its records. */
export type StoredDevice = { accountId: string; dataKey: CryptoKey; device: string; cursor: number };
/** One record as kept on the device: sealed, with the server change it is based on and whether it waits to be sent. */
export type StoredRecord = { accountId: string; id: string; seq: number | null; pending: boolean; sealed: SealedRecord };

interface JournalSchema extends DBSchema {
  devices: { key: string; value: StoredDevice };
  records: { key: [string, string]; value: StoredRecord; indexes: { byAccount: string } };
}

let dbPromise: Promise<IDBPDatabase<JournalSchema>> | null = null;
function db() {
  dbPromise ??= openDB<JournalSchema>(JOURNAL_DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore('devices', { keyPath: 'accountId' });
      database.createObjectStore('records', { keyPath: ['accountId', 'id'] }).createIndex('byAccount', 'accountId');
    },
    // Another tab deleting the database (signing out) must not wait on this tab's connection.
    blocking() {
      void dbPromise?.then((open) => open.close());
      dbPromise = null;
    },
  });
  return dbPromise;
}

export async function loadDevice(accountId: string): Promise<StoredDevice | undefined> {
  return (await db()).get('devices', accountId);
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
    if (device && cursor > device.cursor) writes.push(tx.objectStore('devices').put({ ...device, cursor }));
  }
  await Promise.all([...writes, tx.done]);
}

/** Forgets one account's journal on this device: the key and every record. */
export async function forgetAccount(accountId: string): Promise<void> {
  const tx = (await db()).transaction(['records', 'devices'], 'readwrite');
  const keys = await tx.objectStore('records').index('byAccount').getAllKeys(accountId);
  await Promise.all([...keys.map((key) => tx.objectStore('records').delete(key)), tx.objectStore('devices').delete(accountId), tx.done]);
}

/** Every account other than `accountId` that left a journal here (a shared browser). */
export async function otherAccounts(accountId: string): Promise<string[]> {
  return (await (await db()).getAllKeys('devices')).filter((id) => id !== accountId);
}
