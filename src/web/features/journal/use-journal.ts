/**
 * The journal's entries, kept only in this browser (spec: local storage under the journal key;
 * no network calls for content). A damaged stored value never breaks the page: what parses is
 * kept, the raw value is backed up beside it, and the user is told.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { JOURNAL, JOURNAL_MESSAGES as M, readEntries, type JournalEntry } from '#shared/journal.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';

/** One id, so the repair running twice (React's development double effects) still shows one toast. */
const RECOVERED_TOAST_ID = 'journal-recovered';

function persist(entries: JournalEntry[]): boolean {
  if (writeStored(JOURNAL.storageKey, JSON.stringify(entries))) return true;
  toast.error('Could not save on this device', { description: 'Your browser storage is full or blocked. Export your entries to keep a copy.' });
  return false;
}

/** What this device holds, read once: storage is synchronous, so the first render already has it. */
function loadJournal() {
  const raw = readStored(JOURNAL.storageKey);
  return { raw, ...readEntries(raw) };
}

export function useJournal() {
  const [stored] = useState(loadJournal);
  const [entries, setEntries] = useState(stored.entries);
  // The last list written: every change goes through `commit`, so two saves before React renders
  // again still build on each other.
  const latest = useRef(entries);

  useEffect(() => {
    if (!stored.damaged || stored.raw === null) return;
    // Keep the first damaged copy: a later damage must not overwrite what could still be rescued.
    // Without room for a backup the recovered entries are still shown.
    if (readStored(JOURNAL.backupKey) === null) writeStored(JOURNAL.backupKey, stored.raw);
    persist(stored.entries);
    toast.warning(M.recoveredTitle, { id: RECOVERED_TOAST_ID, description: M.recoveredBody(stored.entries.length, stored.lost), duration: 10_000 });
  }, [stored]);

  /** Stores the list and shows it; false when the device refused to store it. */
  const commit = useCallback((next: JournalEntry[]): boolean => {
    if (!persist(next)) return false;
    latest.current = next;
    setEntries(next);
    return true;
  }, []);

  /** Prepends and stores; false when the device refused to store it (the form keeps its text). */
  const add = useCallback(
    (entry: JournalEntry): boolean => {
      // Ids are timestamps (spec); two saves in the same millisecond must still be two entries.
      let id = Number(entry.id);
      while (latest.current.some((e) => e.id === String(id))) id += 1;
      return commit([{ ...entry, id: String(id) }, ...latest.current]);
    },
    [commit],
  );

  const remove = useCallback((id: string) => void commit(latest.current.filter((e) => e.id !== id)), [commit]);
  const removeAll = useCallback(() => void commit([]), [commit]);

  return { entries, add, remove, removeAll };
}
