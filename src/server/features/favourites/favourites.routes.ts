/** Favourites API: list, save (idempotent) and remove the signed-in user's favourites. */
import type { FastifyInstance } from 'fastify';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import { favouritesResponse, removeFavouriteResponse, saveFavouriteResponse } from '#shared/contracts/favourites.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireUser, type Auth } from '#server/auth.ts';
import { viewerOf } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { listFavourites, removeFavourite, saveFavourite } from '#server/features/favourites/favourites.service.ts';

export function favouritesRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);

  api.get('/api/favourites', { onRequest: signedIn, schema: { tags: ['favourites'], response: { 200: favouritesResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { favourites: await listFavourites({ db, userId: viewerOf(request).user.id }) };
  });

  api.put('/api/favourites/:id', { onRequest: signedIn, schema: { tags: ['favourites'], params: meditationIdParams, response: { 200: saveFavouriteResponse, 201: saveFavouriteResponse } } }, async (request, reply) => {
    const { favourite, created } = await saveFavourite({ db, userId: viewerOf(request).user.id, meditationId: request.params.id });
    return reply.status(created ? 201 : 200).send(favourite);
  });

  api.delete('/api/favourites/:id', { onRequest: signedIn, schema: { tags: ['favourites'], params: meditationIdParams, response: { 204: removeFavouriteResponse } } }, async (request, reply) => {
    await removeFavourite({ db, userId: viewerOf(request).user.id, meditationId: request.params.id });
    return reply.status(204).send(null);
  });
}
