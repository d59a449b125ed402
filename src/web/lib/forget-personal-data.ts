/**
 * Signing out (or deleting the account) leaves nothing personal in the browser for the next person
 * (issue 18): every journal's key and sealed records, and today's routine ticks. Inside the apps the
 * offline copies go too (issue 19, item 5): their files, their key and their records. Kept small and
 * free of the journal's code, since the header that signs out is on every page.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';
import { removeStored } from '#web/lib/storage.ts';
import { platform } from '#web/platform/platform.ts';

export const JOURNAL_DB_NAME = 'harbour-mind-journal';
/** offline-store.ts's database (named here so signing out does not load the store's code). */
export const OFFLINE_DB_NAME = 'harbour-mind-offline';

/** Resolves once the database is gone (or could not be opened at all: nothing to remove). */
function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => resolve();
      // Another tab holding it open is asked to close (journal-store's `blocking`); the deletion then completes on its own.
      request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}

export async function forgetPersonalData(): Promise<void> {
  for (const kind of ['morning', 'evening'] as const) {
    removeStored(STORAGE_KEYS.routineDraft[kind]);
    removeStored(STORAGE_KEYS.routineProgress[kind]);
  }
  await deleteDatabase(JOURNAL_DB_NAME);
  const offlineFiles = platform().offlineFiles;
  if (offlineFiles) {
    await offlineFiles.removeAll().catch((error: unknown) => console.warn('offline copies not removed', error));
    await deleteDatabase(OFFLINE_DB_NAME);
  }
}
