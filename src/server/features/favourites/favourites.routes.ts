/** Favourites, kept on the server so they follow the user across devices. */
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import type { FavouritesResponse } from '#shared/contracts/practice.ts';
import { requireUser, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { favourites } from '#server/db/schema/practice.ts';
import { cardColumns, getMeditation, toCard } from '#server/features/catalogue/catalogue.service.ts';

export function favouritesRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const signedIn = { preHandler: requireUser(auth, db) };

  app.get('/api/favourites', signedIn, async (request, reply): Promise<FavouritesResponse> => {
    const rows = await db
      .select({ ...cardColumns, savedAt: favourites.savedAt })
      .from(favourites)
      .innerJoin(meditationPreviews, eq(meditationPreviews.id, favourites.meditationId))
      .leftJoin(meditationContent, eq(meditationContent.meditationId, meditationPreviews.id))
      .where(eq(favourites.userId, request.viewer!.user.id))
      .orderBy(desc(favourites.savedAt));
    reply.header('cache-control', 'no-store');
    return { favourites: rows.map(({ savedAt, ...card }) => ({ meditation: toCard(card), savedAt: savedAt.toISOString() })) };
  });

  app.put('/api/favourites/:id', signedIn, async (request, reply) => {
    const { id } = meditationIdParams.parse(request.params);
    const meditation = await getMeditation({ db, id }); // 404 for unknown ids
    const inserted = await db.insert(favourites).values({ userId: request.viewer!.user.id, meditationId: id }).onConflictDoNothing().returning();
    const [row] = inserted.length ? inserted : await db.select().from(favourites).where(and(eq(favourites.userId, request.viewer!.user.id), eq(favourites.meditationId, id)));
    return reply.status(inserted.length ? 201 : 200).send({ meditation, savedAt: row!.savedAt.toISOString() });
  });

  app.delete('/api/favourites/:id', signedIn, async (request, reply) => {
    const { id } = meditationIdParams.parse(request.params);
    await db.delete(favourites).where(and(eq(favourites.userId, request.viewer!.user.id), eq(favourites.meditationId, id)));
    return reply.status(204).send();
  });
}
