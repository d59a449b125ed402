/**
 * Today's affirmation: the same one all calendar day (local date), stored with its date;
 * a fresh random draw from the pool when the date changes (spec §1).
 */
import { AFFIRMATIONS, pickAffirmation } from '#shared/affirmations.ts';

export type StoredAffirmation = { date: string; text: string };

/** The device's local calendar date as YYYY-MM-DD. */
export function localDateKey(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Pure: keep today's stored affirmation, otherwise draw a new one. Garbage in storage counts as nothing stored. */
export function resolveDailyAffirmation(stored: unknown, now: Date, random: () => number = Math.random): { value: StoredAffirmation; changed: boolean } {
  const today = localDateKey(now);
  if (isStored(stored) && stored.date === today && AFFIRMATIONS.includes(stored.text)) {
    return { value: stored, changed: false };
  }
  return { value: { date: today, text: pickAffirmation(random) }, changed: true };
}

function isStored(value: unknown): value is StoredAffirmation {
  return typeof value === 'object' && value !== null && typeof (value as StoredAffirmation).date === 'string' && typeof (value as StoredAffirmation).text === 'string';
}

/** Reads, resolves and (when needed) writes the stored affirmation. Storage failures never break the page. */
export function loadDailyAffirmation(storage: Storage | undefined, key: string, now = new Date()): string {
  let stored: unknown;
  try {
    const raw = storage?.getItem(key);
    stored = raw ? JSON.parse(raw) : undefined;
  } catch {
    stored = undefined;
  }
  const { value, changed } = resolveDailyAffirmation(stored, now);
  if (changed) {
    try {
      storage?.setItem(key, JSON.stringify(value));
    } catch {
      // Private mode or a full quota: show the affirmation anyway.
    }
  }
  return value.text;
}
