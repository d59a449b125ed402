import { afterEach, describe, expect, it, vi } from 'vitest';
import { AFFIRMATIONS, affirmationForDay } from '#shared/affirmations.ts';
import { reminderMessage } from '#shared/reminders.ts';
import { loadDailyAffirmation, resolveDailyAffirmation } from '#web/features/home/daily-affirmation.ts';

class MemoryStorage {
  map = new Map<string, string>();
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.map.set(k, v);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('daily affirmation', () => {
  it('uses the local calendar date', () => {
    expect(resolveDailyAffirmation(undefined, new Date(2025, 0, 5, 23, 59)).value.date).toBe('2025-01-05');
  });

  it('keeps the stored affirmation for the whole day', () => {
    const stored = { date: '2025-03-10', text: AFFIRMATIONS[7] };
    const morning = resolveDailyAffirmation(stored, new Date(2025, 2, 10, 0, 1));
    const night = resolveDailyAffirmation(stored, new Date(2025, 2, 10, 23, 59));
    expect(morning).toEqual({ value: stored, changed: false });
    expect(night.value.text).toBe(AFFIRMATIONS[7]);
  });

  it('draws a new one when the date changes', () => {
    const stored = { date: '2025-03-10', text: AFFIRMATIONS[7] };
    const next = resolveDailyAffirmation(stored, new Date(2025, 2, 11, 0, 0));
    expect(next).toEqual({ value: { date: '2025-03-11', text: affirmationForDay('2025-03-11') }, changed: true });
  });

  it('treats corrupt or foreign storage as nothing stored', () => {
    for (const bad of [null, 'x', 42, { date: 1 }, { date: '2025-03-10', text: 'not from the pool' }]) {
      expect(resolveDailyAffirmation(bad, new Date(2025, 2, 10)).changed).toBe(true);
    }
  });

  it('stores the draw with its date and reuses it', () => {
    const storage = new MemoryStorage();
    vi.stubGlobal('localStorage', storage);
    const first = loadDailyAffirmation('k', new Date(2025, 5, 1, 8));
    expect(JSON.parse(storage.getItem('k')!)).toEqual({ date: '2025-06-01', text: first });
    expect(loadDailyAffirmation('k', new Date(2025, 5, 1, 22))).toBe(first);
    storage.setItem('k', '{not json');
    expect(AFFIRMATIONS).toContain(loadDailyAffirmation('k', new Date(2025, 5, 1, 22)));
  });

  it('gives fresh visits (nothing stored) on the same local day the same one, morning to night (issue 38)', () => {
    const seen = new Set<string>();
    for (const hour of [0, 7, 12, 12, 12, 18, 23]) {
      vi.stubGlobal('localStorage', new MemoryStorage());
      seen.add(loadDailyAffirmation('k', new Date(2026, 10, 27, hour, 30)));
    }
    expect([...seen]).toEqual([affirmationForDay('2026-11-27')]);
  });

  it('is the same on any device for the same local date, and changes with the date', () => {
    const days = Array.from({ length: 120 }, (_, i) => new Date(2026, 0, 1 + i));
    const texts = days.map((day) => resolveDailyAffirmation(undefined, day).value.text);
    expect(days.map((day) => resolveDailyAffirmation(undefined, day).value.text)).toEqual(texts);
    for (const text of texts) expect(AFFIRMATIONS).toContain(text);
    // The day's reminder says the same words as home.
    expect(texts[0]).toBe(reminderMessage('2026-01-01'));
    // The pool in turn: none twice within fifty days.
    for (let i = 0; i + AFFIRMATIONS.length <= texts.length; i += 1) expect(new Set(texts.slice(i, i + AFFIRMATIONS.length)).size).toBe(AFFIRMATIONS.length);
  });

  it('still shows an affirmation when storage is blocked', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    expect(AFFIRMATIONS).toContain(loadDailyAffirmation('k', new Date(2025, 5, 1, 8)));
  });
});
