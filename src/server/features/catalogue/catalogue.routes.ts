/** Public catalogue API: anyone may browse cards; nothing here reveals where audio lives. */
import type { FastifyInstance } from 'fastify';
import { getMeditationResponse, listMeditationsQuery, listMeditationsResponse, meditationIdParams } from '#shared/contracts/catalogue.ts';
import { withContracts } from '#server/api-contracts.ts';
import type { Database } from '#server/db/client.ts';
import { getMeditation, listMeditations } from '#server/features/catalogue/catalogue.service.ts';

/** Public and identical for everyone; a short shared cache absorbs bursts without hiding new uploads for long. */
const PUBLIC_CACHE = 'public, max-age=30, stale-while-revalidate=60';

export function catalogueRoutes(app: FastifyInstance, { db }: { db: Database }): void {
  const api = withContracts(app);

  api.get('/api/meditations', { schema: { tags: ['catalogue'], querystring: listMeditationsQuery, response: { 200: listMeditationsResponse } } }, async (request, reply) => {
    const result = await listMeditations({ db, slug: request.query.category });
    reply.header('cache-control', PUBLIC_CACHE);
    return result;
  });

  api.get('/api/meditations/:id', { schema: { tags: ['catalogue'], params: meditationIdParams, response: { 200: getMeditationResponse } } }, async (request, reply) => {
    const meditation = await getMeditation({ db, id: request.params.id });
    reply.header('cache-control', PUBLIC_CACHE);
    return { meditation };
  });
}
