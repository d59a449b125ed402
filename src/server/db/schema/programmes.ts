/**
 * Programmes (issue 37, item 2; decision 0051): ordered multi-day courses of catalogue meditations,
 * and who has started which. Progress is not stored: it is derived from the person's complete
 * sessions (src/shared/programmes.ts), so it follows them to every device and cannot drift.
 */
import { boolean, check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ownerId } from './auth.ts';
import { meditationPreviews } from './catalogue.ts';
import { parentId, stampedAt, timestampTz } from './columns.ts';

export const programmes = pgTable(
  'programmes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique('programmes_slug_uq'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** A catalogue category whose artwork is the cover. */
    cover: text('cover').notNull(),
    published: boolean('published').notNull().default(false),
    /** The order of the list at /programmes (ascending). */
    position: integer('position').notNull().default(0),
    createdAt: stampedAt('created_at'),
    updatedAt: stampedAt('updated_at'),
  },
  (t) => [index('programmes_position_idx').on(t.position, t.createdAt)],
);

export const programmeDays = pgTable(
  'programme_days',
  {
    programmeId: parentId('programme_id', () => programmes.id),
    /** 1-based. */
    dayNumber: integer('day_number').notNull(),
    /**
     * Null once the meditation has left the catalogue: the day is then left out (the programme reads as
     * one day shorter) until an admin gives it another; deleting a meditation never fails for a programme.
     */
    meditationId: uuid('meditation_id').references(() => meditationPreviews.id, { onDelete: 'set null' }),
    /** Opens the journal with this prompt; null for a day without one. */
    reflection: text('reflection'),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.dayNumber] }), check('programme_days_number_check', sql`${t.dayNumber} >= 1`), index('programme_days_meditation_idx').on(t.meditationId)],
);

export const programmeEnrolments = pgTable(
  'programme_enrolments',
  {
    userId: ownerId(),
    programmeId: parentId('programme_id', () => programmes.id),
    /** Sessions before this never count: a restart moves it to now. */
    startedAt: timestampTz('started_at').notNull(),
    /** The IANA zone whose calendar days open the next day. */
    timeZone: text('time_zone').notNull(),
    /** The highest day opened at once by "Don't wait" (0: none). */
    openedEarly: integer('opened_early').notNull().default(0),
    updatedAt: stampedAt('updated_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.programmeId] }), index('programme_enrolments_programme_idx').on(t.programmeId)],
);
