/** Practice API contracts: sessions, the practice summary, the streak preference. */
import { z } from 'zod';
import { isValidTimezone } from '#shared/days.ts';
import { FOCUS_IDS, PRACTICE_MESSAGES, SESSION_KINDS, type PracticeDay } from '#shared/practice.ts';
import { MAX_LISTENED_RANGES, MAX_LISTENED_SECONDS } from '#shared/listening.ts';
import { MAX_AUDIO_SECONDS } from '#shared/constants.ts';
import { TIMER, TIMER_MESSAGES } from '#shared/timer.ts';
import { BREATHING_LENGTH_COUNTS, BREATHING_LENGTH_UNITS, BREATHING_MESSAGES, BREATHING_PATTERN_IDS, planBreathing } from '#shared/breathing.ts';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

const seconds = (message: string) => z.number(message).min(0, message).max(MAX_LISTENED_SECONDS, message);
const listenedRange = z
  .strictObject({ start: seconds(PRACTICE_MESSAGES.badRange), end: seconds(PRACTICE_MESSAGES.badRange) }, PRACTICE_MESSAGES.badRange)
  .refine((range) => range.end >= range.start, PRACTICE_MESSAGES.badRange);

/**
 * What the device measured of one play (issue 20, item 3). Required: a body without it cannot tell
 * fifteen seconds from fifteen minutes, so it is refused (decision 0034).
 */
const listened = z.strictObject(
  {
    /** The played ranges of the track in media seconds, merged (a replayed part appears once). */
    ranges: z.array(listenedRange, PRACTICE_MESSAGES.badRange).max(MAX_LISTENED_RANGES, PRACTICE_MESSAGES.tooManyRanges),
    /** Wall seconds actually spent listening to those ranges, at the playback speed. */
    seconds: seconds(PRACTICE_MESSAGES.badListenedSeconds),
  },
  { error: (issue) => (issue.input === undefined ? PRACTICE_MESSAGES.listeningRequired : PRACTICE_MESSAGES.badListened) },
);

const sessionId = z.uuid('A session id is required.');
const completedAt = z.iso.datetime({ offset: true, message: 'A completion time is required.' });

/** Strict: an unknown field (an old client's `durationMinutes`) is refused, never silently trusted or dropped. */
const guidedSessionBody = z.strictObject({
  /** Absent in bodies from before the timer: a guided session is the default. */
  kind: z.literal('guided').optional(),
  /** The play id generated on the device when playback started (idempotency key). */
  id: sessionId,
  meditationId: z.uuid('Meditation not found'),
  /** When the play ended (or was stopped). */
  completedAt,
  listened,
});
export type GuidedSessionBody = z.infer<typeof guidedSessionBody>;

const timerSeconds = z.number(TIMER_MESSAGES.badSat).min(0, TIMER_MESSAGES.badSat).max(TIMER.maxMinutes * 60, TIMER_MESSAGES.badSat);

/** A sitting with the meditation timer (issue 20, item 1): its planned length and the time actually sat. */
const timerSessionBody = z.strictObject({
  kind: z.literal('timer'),
  /** Generated on the device when the sitting began (idempotency key). */
  id: sessionId,
  completedAt,
  timer: z
    .strictObject(
      {
        /** The length chosen, in whole minutes' seconds, as the page offers. */
        plannedSeconds: z.number(TIMER_MESSAGES.badLength).int(TIMER_MESSAGES.badLength).min(TIMER.minMinutes * 60, TIMER_MESSAGES.badLength).max(TIMER.maxMinutes * 60, TIMER_MESSAGES.badLength).refine((s) => s % 60 === 0, TIMER_MESSAGES.badLength),
        /** Seconds sat after the warm-up, on the audio clock (pauses excluded); no more than planned. */
        satSeconds: timerSeconds,
      },
      TIMER_MESSAGES.badTimer,
    )
    .refine((t) => t.satSeconds <= t.plannedSeconds, { message: TIMER_MESSAGES.badSat, path: ['satSeconds'] }),
});
export type TimerSessionBody = z.infer<typeof timerSessionBody>;

/** The longest exercise the page offers (ten minutes, or ten cycles of the longest pattern), in seconds. */
const BREATHING_MAX_SECONDS = Math.max(...BREATHING_PATTERN_IDS.flatMap((pattern) => BREATHING_LENGTH_UNITS.map((unit) => planBreathing({ pattern, length: { count: 10, unit } }).totalSeconds)));

/**
 * A guided breathing exercise (issue 37, item 1): the pattern and length chosen, as the page offers
 * them, and the seconds breathed. The server makes the exercise's length from the shared schedule
 * (breathing.ts), so no client chooses the length it is measured against.
 */
const breathingSessionBody = z.strictObject({
  kind: z.literal('breathing'),
  /** Generated on the device when the exercise began (idempotency key). */
  id: sessionId,
  completedAt,
  breathing: z
    .strictObject(
      {
        pattern: z.enum(BREATHING_PATTERN_IDS, BREATHING_MESSAGES.badPattern),
        length: z.strictObject(
          {
            count: z.union(BREATHING_LENGTH_COUNTS.map((n) => z.literal(n)), BREATHING_MESSAGES.badLength),
            unit: z.enum(BREATHING_LENGTH_UNITS, BREATHING_MESSAGES.badLength),
          },
          BREATHING_MESSAGES.badLength,
        ),
        /** Seconds breathed from the first phase, on the page's clock; no more than the exercise's length. */
        breathedSeconds: z.number(BREATHING_MESSAGES.badBreathed).min(0, BREATHING_MESSAGES.badBreathed).max(BREATHING_MAX_SECONDS, BREATHING_MESSAGES.badBreathed),
      },
      BREATHING_MESSAGES.badBreathing,
    )
    .refine((b) => b.breathedSeconds <= planBreathing(b).totalSeconds, { message: BREATHING_MESSAGES.badBreathed, path: ['breathedSeconds'] }),
});
export type BreathingSessionBody = z.infer<typeof breathingSessionBody>;

export const recordSessionBody = z.discriminatedUnion('kind', [guidedSessionBody, timerSessionBody, breathingSessionBody], { error: () => PRACTICE_MESSAGES.unknownKind });
export type RecordSessionBody = z.infer<typeof recordSessionBody>;

const sessionKind = z.enum(SESSION_KINDS);

const recordedSessionSchema = z.object({
  id: z.string(),
  kind: sessionKind,
  meditationId: z.string().nullable(),
  /** Minutes credited: the listening time, capped by the track's length, rounded. */
  durationMinutes: z.number().nullable(),
  completedAt: z.string(),
  /** False for a partial session: it adds its minutes, but no session count and no streak day. */
  complete: z.boolean(),
});
const recordSessionResponse = z.object({ session: recordedSessionSchema, created: z.boolean() });
export type RecordSessionResponse = z.infer<typeof recordSessionResponse>;

const practiceQuery = z.object({
  tz: z.string().max(64).default('UTC').refine(isValidTimezone, PRACTICE_MESSAGES.invalidTimezone),
});

const practiceDaySchema = z.object({ date: z.string(), sessions: z.number(), minutes: z.number() }) satisfies z.ZodType<PracticeDay>;

const recentSessionSchema = z.object({
  id: z.string(),
  kind: sessionKind,
  meditationId: z.string().nullable(),
  /** Null for a timer or breathing session, and when the meditation has left the catalogue since. */
  title: z.string().nullable(),
  completedAt: z.string(),
  minutes: z.number().nullable(),
  /** The track's (or the timer's or breathing exercise's planned) length in minutes, for "Partial · 3 of 10 min"; null when unknown. */
  trackMinutes: z.number().nullable(),
  complete: z.boolean(),
});
export type RecentSession = z.infer<typeof recentSessionSchema>;

const practiceResponse = z.object({
  totalSessions: z.number(),
  /** The seconds below, rounded once (issue 38: per-session rounding made a 25-second session 0 minutes). */
  totalMinutes: z.number(),
  /** Seconds credited over every session (each capped as its minutes are): '<1' minute is told from none. */
  totalSeconds: z.number(),
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
  /** The latest sessions, newest first, partial ones marked as such (issue 20, item 3). */
  recent: z.array(recentSessionSchema),
});
export type PracticeResponse = z.infer<typeof practiceResponse>;

/** Either preference or both; what is left out stays as it was. */
export const practicePreferencesBody = z
  .object({ showStreaks: z.boolean().optional(), focus: z.enum(FOCUS_IDS, PRACTICE_MESSAGES.unknownFocus).nullable().optional() })
  .refine((body) => body.showStreaks !== undefined || body.focus !== undefined, PRACTICE_MESSAGES.noPreference);
export type PracticePreferencesBody = z.infer<typeof practicePreferencesBody>;
const practicePreferencesResponse = z.object({ showStreaks: z.boolean(), focus: z.enum(FOCUS_IDS).nullable() });
export type PracticePreferencesResponse = z.infer<typeof practicePreferencesResponse>;

/** The meditations this account has completed at least once, for the listing's 'Played' marks (issue 17, item 4). */
const playedResponse = z.object({ ids: z.array(z.string()) });

/** Resume where you left off (issue 20, item 2): a position in one meditation, as a device saw it. */
export const savePositionBody = z.strictObject({
  /** Seconds from the start of the track (0: from the start, e.g. once it ended). */
  positionSeconds: z.number(PRACTICE_MESSAGES.badPosition).min(0, PRACTICE_MESSAGES.badPosition).max(MAX_AUDIO_SECONDS, PRACTICE_MESSAGES.badPosition),
  /** When the device was at that position: across devices the newest wins. */
  updatedAt: z.iso.datetime({ offset: true, message: PRACTICE_MESSAGES.badPositionTime }),
});
export type SavePositionBody = z.infer<typeof savePositionBody>;

const positionSchema = z.object({ meditationId: z.string(), positionSeconds: z.number(), updatedAt: z.string() });
export type PlaybackPosition = z.infer<typeof positionSchema>;
/** The position now held (the newest), and whether this save was it. */
const savePositionResponse = z.object({ position: positionSchema, saved: z.boolean() });
export type SavePositionResponse = z.infer<typeof savePositionResponse>;
/** Every meditation with a position past its start, newest first. */
const positionsResponse = z.object({ positions: z.array(positionSchema) });

/** The practice routes' contracts, by route name (their method, path and policy: practice.routes.ts). */
export const practiceSchemas = {
  record: { body: recordSessionBody, response: { 200: recordSessionResponse, 201: recordSessionResponse } },
  summary: { query: practiceQuery, response: practiceResponse },
  played: { response: playedResponse },
  positions: { response: positionsResponse },
  savePosition: { params: meditationIdParams, body: savePositionBody, response: savePositionResponse },
  preferences: { body: practicePreferencesBody, response: practicePreferencesResponse },
} satisfies SchemaTable;
