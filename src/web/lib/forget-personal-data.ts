/**
 * Signing out (or deleting the account) leaves nothing personal in the browser for the next person
 * (issue 18): every journal's key and sealed records, and today's routine ticks. Kept small and free
 * of the journal's code, since the header that signs out is on every page.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';
import { removeStored } from '#web/lib/storage.ts';

export const JOURNAL_DB_NAME = 'harbour-mind-journal';

/** Resolves once the journal database is gone (or could not be opened at all: nothing to remove). */
function deleteJournalDatabase(): Promise<void> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.deleteDatabase(JOURNAL_DB_NAME);
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
  await deleteJournalDatabase();
}
