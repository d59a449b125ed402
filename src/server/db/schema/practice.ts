/**
 * Practice (spec: meditation_sessions, plus completed_at, the client's play id and whether it was
 * complete) and the user's practice preferences. A session is one play; the client id makes retries,
 * double 'ended' events and late offline uploads land as exactly one row.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { FOCUS_IDS, SESSION_KINDS } from '#shared/practice.ts';
import { ownerId } from './auth.ts';
import { meditationPreviews } from './catalogue.ts';
import { parentId, stampedAt, timestampTz } from './columns.ts';

export const meditationSessions = pgTable(
  'meditation_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    /** Nullable as in the spec: a meditation removed later keeps the user's history. */
    meditationId: uuid('meditation_id').references(() => meditationPreviews.id, { onDelete: 'set null' }),
    /** Minutes credited: the listening time capped by the track's length (before issue 20: the track's length). */
    durationMinutes: integer('duration_minutes'),
    /**
     * Issue 20, item 3: false for a partial session (less than 80% of the track, and less than 5 minutes,
     * listened to). Rows from before were all whole plays as the player then judged them, so they read as complete.
     */
    complete: boolean('complete').notNull().default(true),
    /** Wall seconds credited; null for rows recorded before the player measured listening. */
    listenedSeconds: integer('listened_seconds'),
    /**
     * 'guided' (a meditation played), 'timer' (a sitting with the meditation timer) or 'breathing' (a guided
     * breathing exercise, migration 0022); only a guided session names a meditation.
     */
    kind: text('kind', { enum: SESSION_KINDS }).notNull().default('guided'),
    /**
     * A timer sitting's or breathing exercise's chosen length in seconds, for "Partial · 6 of 20 min"; null for
     * guided ones (their track has a length).
     */
    plannedSeconds: integer('planned_seconds'),
    /** The play id generated on the device when playback started. */
    clientId: uuid('client_id').notNull(),
    completedAt: timestampTz('completed_at').notNull(),
    createdAt: stampedAt('created_at'),
  },
  (t) => [
    unique('meditation_sessions_user_client_uq').on(t.userId, t.clientId),
    // Covering the practice summary's one grouped query (days, complete sessions, seconds listened,
    // and the minutes of rows from before listening was measured).
    index('meditation_sessions_user_completed_idx').on(t.userId, t.completedAt, t.durationMinutes, t.complete, t.listenedSeconds),
    // 'Played' marks: the distinct meditations of one user, read from the index alone (a heavy
    // practitioner has thousands of sessions, read on every listing they open).
    // Partial (the marks' query asks for complete sessions of a meditation still there): the practice summary keeps its covering index.
    index('meditation_sessions_user_meditation_idx').on(t.userId, t.meditationId).where(sql`${t.meditationId} is not null and ${t.complete}`),
    check('meditation_sessions_kind_check', sql`${t.kind} in ('guided', 'timer', 'breathing') and (${t.kind} = 'guided' or ${t.meditationId} is null)`),
  ],
);

export const practicePreferences = pgTable('practice_preferences', {
  userId: ownerId().primaryKey(),
  /** Streak anxiety is real: a user can hide streaks everywhere. */
  showStreaks: boolean('show_streaks').notNull().default(true),
  /** The answer to "What brings you here?" (null until answered); the database refuses anything else. */
  focus: text('focus', { enum: FOCUS_IDS }),
  updatedAt: stampedAt('updated_at'),
}, () => [check('practice_preferences_focus_check', sql.raw(`"focus" in (${FOCUS_IDS.map((id) => `'${id}'`).join(', ')})`))]);

/**
 * Resume where you left off (issue 20, item 2): one position per person and meditation. Across
 * devices the newest position wins, by the time the device saw it (updated_at), not the order the
 * saves arrive in (an offline phone may send an old position late). Zero means "from the start".
 */
export const playbackPositions = pgTable(
  'playback_positions',
  {
    userId: ownerId(),
    meditationId: parentId('meditation_id', () => meditationPreviews.id),
    positionSeconds: integer('position_seconds').notNull(),
    updatedAt: timestampTz('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.meditationId] })],
);
