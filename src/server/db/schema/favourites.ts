/** Favourites: the meditations a person saved, kept on the server across devices. */
import { index, pgTable, unique } from 'drizzle-orm/pg-core';
import { ownerId } from './auth.ts';
import { meditationPreviews } from './catalogue.ts';
import { parentId, stampedAt } from './columns.ts';

export const favourites = pgTable(
  'favourites',
  {
    userId: ownerId(),
    meditationId: parentId('meditation_id', () => meditationPreviews.id),
    savedAt: stampedAt('saved_at'),
  },
  (t) => [unique('favourites_user_meditation_uq').on(t.userId, t.meditationId), index('favourites_user_saved_idx').on(t.userId, t.savedAt)],
);
