/**
 * Practice (spec: meditation_sessions, plus completed_at and the client's play id) and the
 * user's practice preferences. A session is one completed play; the client id makes retries,
 * double 'ended' events and late offline uploads land as exactly one row.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { FOCUS_IDS } from '#shared/practice.ts';
import { user } from './auth.ts';
import { meditationPreviews } from './catalogue.ts';

export const meditationSessions = pgTable(
  'meditation_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Nullable as in the spec: a meditation removed later keeps the user's history. */
    meditationId: uuid('meditation_id').references(() => meditationPreviews.id, { onDelete: 'set null' }),
    durationMinutes: integer('duration_minutes'),
    /** The play id generated on the device when playback started. */
    clientId: uuid('client_id').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('meditation_sessions_user_client_uq').on(t.userId, t.clientId),
    index('meditation_sessions_user_completed_idx').on(t.userId, t.completedAt, t.durationMinutes),
    // 'Played' marks: the distinct meditations of one user, read from the index alone (a heavy
    // practitioner has thousands of sessions, read on every listing they open).
    // Partial (the marks' query asks for meditation_id is not null): the practice summary keeps its covering index.
    index('meditation_sessions_user_meditation_idx').on(t.userId, t.meditationId).where(sql`${t.meditationId} is not null`),
  ],
);

export const practicePreferences = pgTable('practice_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  /** Streak anxiety is real: a user can hide streaks everywhere. */
  showStreaks: boolean('show_streaks').notNull().default(true),
  /** The answer to "What brings you here?" (null until answered); the database refuses anything else. */
  focus: text('focus', { enum: FOCUS_IDS }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, () => [check('practice_preferences_focus_check', sql.raw(`"focus" in (${FOCUS_IDS.map((id) => `'${id}'`).join(', ')})`))]);

export const favourites = pgTable(
  'favourites',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    meditationId: uuid('meditation_id')
      .notNull()
      .references(() => meditationPreviews.id, { onDelete: 'cascade' }),
    savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [unique('favourites_user_meditation_uq').on(t.userId, t.meditationId), index('favourites_user_saved_idx').on(t.userId, t.savedAt)],
);
