/** Favourites: the meditations a person saved, kept on the server across devices. */
import { index, pgTable, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { ownerId } from './auth.ts';
import { meditationPreviews } from './catalogue.ts';

export const favourites = pgTable(
  'favourites',
  {
    userId: ownerId(),
    meditationId: uuid('meditation_id')
      .notNull()
      .references(() => meditationPreviews.id, { onDelete: 'cascade' }),
    savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [unique('favourites_user_meditation_uq').on(t.userId, t.meditationId), index('favourites_user_saved_idx').on(t.userId, t.savedAt)],
);
