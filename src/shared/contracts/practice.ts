/** Practice and favourites API contracts. */
import { z } from 'zod';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { isValidTimezone, PRACTICE_MESSAGES, type PracticeDay } from '#shared/practice.ts';
import { hasControlCharacters } from '#shared/validation.ts';

export const recordSessionBody = z.object({
  /** The play id generated on the device when playback started (idempotency key). */
  id: z.uuid('A session id is required.'),
  meditationId: z.uuid('Meditation not found'),
  completedAt: z.iso.datetime({ offset: true, message: 'A completion time is required.' }),
});
export type RecordSessionBody = z.infer<typeof recordSessionBody>;

export type RecordedSession = { id: string; meditationId: string | null; durationMinutes: number | null; completedAt: string };
export type RecordSessionResponse = { session: RecordedSession; created: boolean };

export const practiceQuery = z.object({
  tz: z.string().max(64).default('UTC').refine((tz) => !hasControlCharacters(tz) && isValidTimezone(tz), PRACTICE_MESSAGES.invalidTimezone),
});

export type PracticeResponse = {
  totalSessions: number;
  totalMinutes: number;
  /** Null when the user has chosen to hide streaks: the numbers are not even sent. */
  currentStreak: number | null;
  longestStreak: number | null;
  showStreaks: boolean;
  timezone: string;
  today: string;
  week: PracticeDay[];
};

export const practicePreferencesBody = z.object({ showStreaks: z.boolean() });

export type Favourite = { meditation: MeditationCard; savedAt: string };
export type FavouritesResponse = { favourites: Favourite[] };
