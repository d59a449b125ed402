/**
 * Today's affirmation: the same one all calendar day (local date), stored with its date; a new
 * draw from the pool when the date changes (spec §1). The draw is fixed by the date
 * (affirmationForDay), so fresh visits, reloads and the person's other devices agree (issue 38).
 */
import { AFFIRMATIONS, affirmationForDay } from '#shared/affirmations.ts';
import { localDay } from '#shared/days.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';

export type StoredAffirmation = { date: string; text: string };

/** Pure: keep today's stored affirmation, otherwise today's draw. Garbage in storage counts as nothing stored. */
export function resolveDailyAffirmation(stored: unknown, now: Date): { value: StoredAffirmation; changed: boolean } {
  const today = localDay(now);
  if (isStored(stored) && stored.date === today && AFFIRMATIONS.includes(stored.text)) {
    return { value: stored, changed: false };
  }
  return { value: { date: today, text: affirmationForDay(today) }, changed: true };
}

function isStored(value: unknown): value is StoredAffirmation {
  return typeof value === 'object' && value !== null && typeof (value as StoredAffirmation).date === 'string' && typeof (value as StoredAffirmation).text === 'string';
}

function parseStored(raw: string | null): unknown {
  try {
    return raw ? JSON.parse(raw) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads, resolves and (when needed) writes the stored affirmation. Storage failures never break the page. */
export function loadDailyAffirmation(key: string, now = new Date()): string {
  const { value, changed } = resolveDailyAffirmation(parseStored(readStored(key)), now);
  // A refused write (private mode, a full quota) still shows today's affirmation.
  if (changed) writeStored(key, JSON.stringify(value));
  return value.text;
}
