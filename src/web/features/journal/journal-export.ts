/**
 * The journal for "Download my data" (issue 18, item 2): opened on this device, brought up to date
 * with the server first when it can be reached. Null when the journal is not unlocked on this page
 * (journal-lock.ts): the server's copy is sealed, and only the person's device can open it.
 */
import type { JournalEntry } from '#shared/journal.ts';
import { heldKey, heldPreviousKeys } from '#web/features/journal/journal-lock.ts';
import { loadDevice } from '#web/features/journal/journal-store.ts';
import { JournalSync } from '#web/features/journal/journal-sync.ts';
import { call } from '#web/lib/call.ts';

export async function unlockedJournal(accountId: string): Promise<JournalEntry[] | null> {
  const dataKey = heldKey(accountId);
  const device = dataKey ? await loadDevice(accountId) : undefined;
  if (!dataKey || !device) return null;
  // With the keys a rotation replaced (decision 0061): records not yet sealed again are exported too.
  const journal = await JournalSync.open({ ...device, dataKey, previousKeys: heldPreviousKeys(accountId) }, call);
  // Offline, the file still carries what this device holds; the sync state does not stop the download.
  await journal.sync();
  return journal.entries();
}
