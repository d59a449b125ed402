/** Public catalogue API: anyone may browse cards; nothing here reveals where audio lives. */
import type { FastifyInstance } from 'fastify';
import { listMeditationsQuery, meditationIdParams } from '#shared/contracts/catalogue.ts';
import type { Database } from '#server/db/client.ts';
import { getMeditation, listMeditations } from '#server/features/catalogue/catalogue.service.ts';

export function catalogueRoutes(app: FastifyInstance, { db }: { db: Database }): void {
  app.get('/api/meditations', async (request, reply) => {
    const { category } = listMeditationsQuery.parse(request.query);
    const result = await listMeditations({ db, slug: category });
    // Public and identical for everyone; a short shared cache absorbs bursts without hiding new uploads for long.
    reply.header('cache-control', 'public, max-age=30, stale-while-revalidate=60');
    return result;
  });

  app.get('/api/meditations/:id', async (request, reply) => {
    const { id } = meditationIdParams.parse(request.params);
    const meditation = await getMeditation({ db, id });
    reply.header('cache-control', 'public, max-age=30, stale-while-revalidate=60');
    return { meditation };
  });
}
