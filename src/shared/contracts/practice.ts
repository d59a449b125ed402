/** Practice API contracts: sessions, the practice summary, the streak preference. */
import { z } from 'zod';
import { isValidTimezone } from '#shared/days.ts';
import { FOCUS_IDS, PRACTICE_MESSAGES, type PracticeDay } from '#shared/practice.ts';
import { hasControlCharacters } from '#shared/validation.ts';

export const recordSessionBody = z.object({
  /** The play id generated on the device when playback started (idempotency key). */
  id: z.uuid('A session id is required.'),
  meditationId: z.uuid('Meditation not found'),
  completedAt: z.iso.datetime({ offset: true, message: 'A completion time is required.' }),
});
export type RecordSessionBody = z.infer<typeof recordSessionBody>;

const recordedSessionSchema = z.object({ id: z.string(), meditationId: z.string().nullable(), durationMinutes: z.number().nullable(), completedAt: z.string() });
export const recordSessionResponse = z.object({ session: recordedSessionSchema, created: z.boolean() });
export type RecordSessionResponse = z.infer<typeof recordSessionResponse>;

export const practiceQuery = z.object({
  tz: z.string().max(64).default('UTC').refine((tz) => !hasControlCharacters(tz) && isValidTimezone(tz), PRACTICE_MESSAGES.invalidTimezone),
});

const practiceDaySchema = z.object({ date: z.string(), sessions: z.number(), minutes: z.number() }) satisfies z.ZodType<PracticeDay>;

export const practiceResponse = z.object({
  totalSessions: z.number(),
  totalMinutes: z.number(),
  /** Null when the user has chosen to hide streaks: the numbers are not even sent. */
  currentStreak: z.number().nullable(),
  longestStreak: z.number().nullable(),
  showStreaks: z.boolean(),
  timezone: z.string(),
  today: z.string(),
  week: z.array(practiceDaySchema),
  /** The answer to "What brings you here?", null until given. */
  focus: z.enum(FOCUS_IDS).nullable(),
  /** The meditation of the latest completed session (still in the catalogue), for "Continue" on home. */
  lastMeditationId: z.string().nullable(),
});
export type PracticeResponse = z.infer<typeof practiceResponse>;

/** Either preference or both; what is left out stays as it was. */
export const practicePreferencesBody = z
  .object({ showStreaks: z.boolean().optional(), focus: z.enum(FOCUS_IDS, PRACTICE_MESSAGES.unknownFocus).nullable().optional() })
  .refine((body) => body.showStreaks !== undefined || body.focus !== undefined, PRACTICE_MESSAGES.noPreference);
export type PracticePreferencesBody = z.infer<typeof practicePreferencesBody>;
export const practicePreferencesResponse = z.object({ showStreaks: z.boolean(), focus: z.enum(FOCUS_IDS).nullable() });
export type PracticePreferencesResponse = z.infer<typeof practicePreferencesResponse>;

/** The meditations this account has completed at least once, for the listing's 'Played' marks (issue 17, item 4). */
export const playedResponse = z.object({ ids: z.array(z.string()) });
export type PlayedResponse = z.infer<typeof playedResponse>;
