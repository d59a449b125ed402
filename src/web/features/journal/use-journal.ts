/**
 * The journal's entries, kept only in this browser (spec: local storage under the journal key;
 * no network calls for content). A damaged stored value never breaks the page: what parses is
 * kept, the raw value is backed up beside it, and the user is told.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { JOURNAL, JOURNAL_MESSAGES as M, readEntries, type JournalEntry } from '#shared/journal.ts';

function persist(entries: JournalEntry[]): boolean {
  try {
    localStorage.setItem(JOURNAL.storageKey, JSON.stringify(entries));
    return true;
  } catch {
    toast.error('Could not save on this device', { description: 'Your browser storage is full or blocked. Export your entries to keep a copy.' });
    return false;
  }
}

export function useJournal() {
  const [entries, setEntries] = useState<JournalEntry[]>([]);
  const [loaded, setLoaded] = useState(false);
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

  useEffect(() => {
    let raw: string | null = null;
    try {
      raw = localStorage.getItem(JOURNAL.storageKey);
    } catch {
      raw = null;
    }
    const result = readEntries(raw);
    if (result.damaged && raw !== null) {
      try {
        // Keep the first damaged copy: a later damage must not overwrite what could still be rescued.
        if (localStorage.getItem(JOURNAL.backupKey) === null) localStorage.setItem(JOURNAL.backupKey, raw);
      } catch {
        /* no room for a backup; the recovered entries are still shown */
      }
      persist(result.entries);
      toast.warning(M.recoveredTitle, { description: M.recoveredBody(result.entries.length, result.lost), duration: 10_000 });
    }
    setEntries(result.entries);
    setLoaded(true);
  }, []);

  /** Prepends and stores; false when the device refused to store it (the form keeps its text). */
  const add = useCallback((entry: JournalEntry): boolean => {
    // Ids are timestamps (spec); two saves in the same millisecond must still be two entries.
    let id = Number(entry.id);
    while (entriesRef.current.some((e) => e.id === String(id))) id += 1;
    const next = [{ ...entry, id: String(id) }, ...entriesRef.current];
    const saved = persist(next);
    if (saved) setEntries(next);
    return saved;
  }, []);

  const remove = useCallback((id: string) => {
    const next = entriesRef.current.filter((e) => e.id !== id);
    if (persist(next)) setEntries(next);
  }, []);

  const removeAll = useCallback(() => {
    if (persist([])) setEntries([]);
  }, []);

  return { entries, loaded, add, remove, removeAll };
}
