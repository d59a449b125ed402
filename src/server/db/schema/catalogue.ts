/**
 * Catalogue tables (spec: meditation_previews and meditation_content). The preview is public;
 * the content row holds where the audio is stored and is never sent to clients as a location.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { parentId, stampedAt } from './columns.ts';

export const meditationPreviews = pgTable(
  'meditation_previews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** Display text ('12 min'), kept as the spec's free-text field. */
    duration: text('duration').notNull().default('0 minutes'),
    /** Exact length read from the audio file (music-metadata). */
    durationSeconds: integer('duration_seconds'),
    category: text('category').notNull(),
    categories: text('categories').array().notNull().default(sql`'{}'::text[]`),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** Free to try: playable by anyone, signed in or not (issue 17's sampler, decision 0025). */
    free: boolean('is_free').notNull().default(false),
    createdAt: stampedAt('created_at'),
    updatedAt: stampedAt('updated_at'),
  },
  (t) => [
    // Listings are ordered (created_at desc, id desc): one backward scan, no sort ('Recently Added').
    index('meditation_previews_created_id_idx').on(t.createdAt, t.id),
    index('meditation_previews_category_idx').on(t.category),
    index('meditation_previews_categories_idx').using('gin', t.categories),
  ],
);

export const meditationContent = pgTable('meditation_content', {
  meditationId: parentId('meditation_id', () => meditationPreviews.id).primaryKey(),
  /** Object key inside the `meditations` media storage (a generated name, never the upload's name). */
  storageKey: text('storage_key').notNull(),
  audioFileName: text('audio_file_name').notNull(),
  audioFileType: text('audio_file_type').notNull(),
  audioFileSize: integer('audio_file_size').notNull(),
  /** The spoken script, shown by the player's transcript panel. */
  transcript: text('transcript'),
  createdAt: stampedAt('created_at'),
  updatedAt: stampedAt('updated_at'),
});
