/** Favourites API: list, save (idempotent) and remove the signed-in user's favourites. */
import type { FastifyInstance } from 'fastify';
import { favouritesApi } from '#shared/contracts/favourites.routes.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { listFavourites, removeFavourite, saveFavourite } from '#server/features/favourites/favourites.service.ts';
import { routeServer } from '#server/serve-route.ts';

export function favouritesRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const serve = routeServer(app, { auth, db });

  serve(favouritesApi.list, async ({ viewer }) => ({ favourites: await listFavourites({ db, userId: viewer.user.id }) }));

  serve(favouritesApi.save, async ({ viewer, params }, reply) => {
    const { favourite, created } = await saveFavourite({ db, userId: viewer.user.id, meditationId: params.id });
    return reply.status(created ? 201 : 200).send(favourite);
  });

  serve(favouritesApi.remove, async ({ viewer, params }, reply) => {
    await removeFavourite({ db, userId: viewer.user.id, meditationId: params.id });
    return reply.status(204).send(null);
  });
}
