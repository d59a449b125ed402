/**
 * Opening one sealed journal record (decision 0031): with the device's current data key, else with
 * one a rotation replaced (decision 0061; the record is then "stale", to be sealed again), and
 * checked as a version this app can show. The sync engine (journal-sync.ts) decides what to do with
 * the answer; nothing here keeps state.
 */
import { JournalLockedError, openRecord, type SealedRecord } from '#web/features/journal/journal-crypto.ts';
import type { RecordVersion } from '#web/features/journal/journal-merge.ts';
import type { OpenedDevice } from '#web/features/journal/journal-store.ts';
import { parseEntry } from '#shared/journal.ts';

/**
 * What opening a record gave: whether a replaced key opened it, and the version (null when it is not
 * one this app can show); null when no key of this journal opens it (damaged, or another journal's).
 */
export type OpenedRecord = { version: RecordVersion | null; stale: boolean } | null;

export async function openStoredRecord(device: Pick<OpenedDevice, 'dataKey' | 'previousKeys' | 'accountId'>, id: string, sealed: SealedRecord): Promise<OpenedRecord> {
  for (const [at, key] of [device.dataKey, ...(device.previousKeys ?? [])].entries()) {
    let opened: RecordVersion;
    try {
      opened = await openRecord<RecordVersion>(key, device.accountId, id, sealed);
    } catch (error) {
      if (!(error instanceof JournalLockedError)) throw error;
      continue;
    }
    return { version: checkedVersion(opened), stale: at > 0 };
  }
  return null;
}

/** The version as this app shows it, or null when it is not one (a newer app's record, say). */
function checkedVersion(version: RecordVersion): RecordVersion | null {
  const entry = version.entry === null ? null : parseEntry(version.entry);
  // Sealed before versions existed: version 0 (journal-merge).
  const rev = (version as Partial<RecordVersion>).rev ?? 0;
  const copyOf = (version as Partial<RecordVersion>).copyOf;
  if ((version.entry !== null && entry === null) || typeof version.updatedAt !== 'number' || typeof version.device !== 'string' || !Number.isSafeInteger(rev) || rev < 0 || (copyOf !== undefined && typeof copyOf !== 'string')) return null;
  return { entry, updatedAt: version.updatedAt, device: version.device, rev, ...(copyOf === undefined ? {} : { copyOf }) };
}
