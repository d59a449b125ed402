/**
 * Reading the public catalogue. Returns cards only: no storage key or audio URL ever leaves here.
 */
import { and, arrayOverlaps, desc, eq, ilike, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { categoryFilter, categoryInfo, formatDurationMinutes, type CategoryInfo } from '#shared/catalogue.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { AppError } from '#server/errors.ts';

export const cardColumns = {
  id: meditationPreviews.id,
  title: meditationPreviews.title,
  description: meditationPreviews.description,
  duration: meditationPreviews.duration,
  durationSeconds: meditationPreviews.durationSeconds,
  category: meditationPreviews.category,
  categories: meditationPreviews.categories,
  tags: meditationPreviews.tags,
  free: meditationPreviews.free,
  createdAt: meditationPreviews.createdAt,
  hasTranscript: sql<boolean>`(${meditationContent.transcript} is not null and ${meditationContent.transcript} <> '')`,
};

export type CardRow = {
  id: string;
  title: string;
  description: string;
  duration: string;
  durationSeconds: number | null;
  category: string;
  categories: string[];
  tags: string[];
  free: boolean;
  createdAt: Date;
  hasTranscript: boolean;
};

/** Spec: cards with an empty title, no description or no category are dropped. */
const displayable: SQL | undefined = and(
  ne(meditationPreviews.title, ''),
  ne(meditationPreviews.description, ''),
  ne(meditationPreviews.category, ''),
  isNotNull(meditationPreviews.duration),
);

export function toCard(row: CardRow): MeditationCard {
  const duration = row.duration.trim() ? row.duration : formatDurationMinutes(row.durationSeconds);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    duration,
    durationSeconds: row.durationSeconds,
    category: row.category,
    categories: row.categories,
    tags: row.tags,
    hasTranscript: row.hasTranscript,
    free: row.free,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The listing for a category slug, newest first, with the spec's aggregate and recently-added rules. */
export async function listMeditations({ db, slug }: { db: Database; slug: string }): Promise<{
  category: CategoryInfo;
  meditations: MeditationCard[];
}> {
  const filter = categoryFilter(slug);
  const where =
    filter.kind === 'categories'
      ? and(
          displayable,
          or(inArray(meditationPreviews.category, [...filter.slugs]), arrayOverlaps(meditationPreviews.categories, [...filter.slugs])),
        )
      : displayable;
  const query = db
    .select(cardColumns)
    .from(meditationPreviews)
    .leftJoin(meditationContent, eq(meditationContent.meditationId, meditationPreviews.id))
    .where(where)
    .orderBy(desc(meditationPreviews.createdAt), desc(meditationPreviews.id));
  const rows = filter.kind === 'recent' ? await query.limit(filter.limit) : await query;
  return { category: categoryInfo(slug), meditations: rows.map(toCard) };
}

/** `%`, `_` and `\` are LIKE's own characters: a search for '100%' means the text '100%'. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The displayable meditations whose spoken transcript holds every word of `q` (case-insensitive).
 * Titles, descriptions and tags are matched on the device from the cards already shown.
 */
export async function searchTranscripts({ db, q }: { db: Database; q: string }): Promise<string[]> {
  const words = q.split(/\s+/).filter(Boolean).slice(0, 8);
  const rows = await db
    .select({ id: meditationPreviews.id })
    .from(meditationPreviews)
    .innerJoin(meditationContent, eq(meditationContent.meditationId, meditationPreviews.id))
    .where(and(displayable, ...words.map((word) => ilike(meditationContent.transcript, likePattern(word)))))
    .orderBy(desc(meditationPreviews.createdAt), desc(meditationPreviews.id))
    .limit(500);
  return rows.map((r) => r.id);
}

/** One card by id; AppError('not-found') when absent. */
export async function getMeditation({ db, id }: { db: Database; id: string }): Promise<MeditationCard> {
  const rows = await db
    .select(cardColumns)
    .from(meditationPreviews)
    .leftJoin(meditationContent, eq(meditationContent.meditationId, meditationPreviews.id))
    .where(and(eq(meditationPreviews.id, id), displayable))
    .limit(1);
  const row = rows.at(0);
  if (!row) throw new AppError('not-found', 'Meditation not found');
  return toCard(row);
}
