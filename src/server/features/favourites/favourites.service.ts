/** Favourites, kept on the server so they follow the user across devices. */
import { and, desc, eq } from 'drizzle-orm';
import type { Favourite } from '#shared/contracts/favourites.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { favourites } from '#server/db/schema/favourites.ts';
import { cardColumns, getMeditation, toCard } from '#server/features/catalogue/catalogue.service.ts';

type UserMeditation = { db: Database; userId: string; meditationId: string };

/** The user's favourites, newest saved first. */
export async function listFavourites({ db, userId }: { db: Database; userId: string }): Promise<Favourite[]> {
  const rows = await db
    .select({ ...cardColumns, savedAt: favourites.savedAt })
    .from(favourites)
    .innerJoin(meditationPreviews, eq(meditationPreviews.id, favourites.meditationId))
    .leftJoin(meditationContent, eq(meditationContent.meditationId, meditationPreviews.id))
    .where(eq(favourites.userId, userId))
    .orderBy(desc(favourites.savedAt));
  return rows.map(({ savedAt, ...card }) => ({ meditation: toCard(card), savedAt: savedAt.toISOString() }));
}

/**
 * Saves a favourite; saving twice is not an error and keeps the first save's time.
 * AppError('not-found') for an unknown meditation.
 */
export async function saveFavourite({ db, userId, meditationId }: UserMeditation): Promise<{ favourite: Favourite; created: boolean }> {
  const meditation = await getMeditation({ db, id: meditationId });
  const inserted = await db.insert(favourites).values({ userId, meditationId }).onConflictDoNothing().returning();
  const [row] = inserted.length
    ? inserted
    : await db
        .select()
        .from(favourites)
        .where(and(eq(favourites.userId, userId), eq(favourites.meditationId, meditationId)));
  return { favourite: { meditation, savedAt: row.savedAt.toISOString() }, created: inserted.length > 0 };
}

/** Removes a favourite; removing one that is not saved is not an error. */
export async function removeFavourite({ db, userId, meditationId }: UserMeditation): Promise<void> {
  await db.delete(favourites).where(and(eq(favourites.userId, userId), eq(favourites.meditationId, meditationId)));
}
