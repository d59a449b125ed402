/**
 * Public catalogue API: anyone may browse cards; nothing here reveals where audio lives. The known
 * listings and every card are served from the prepared cache (catalogue-cache.ts): an editor's
 * change clears it in every process, so a read costs no query between changes.
 */
import type { FastifyInstance } from 'fastify';
import { isNamedCategory } from '#shared/catalogue.ts';
import { getMeditationResponse, listMeditationsResponse } from '#shared/contracts/catalogue.ts';
import { catalogueApi } from '#shared/contracts/catalogue.routes.ts';
import type { Database } from '#server/db/client.ts';
import type { CatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';
import { getMeditation, listMeditations, searchTranscripts } from '#server/features/catalogue/catalogue.service.ts';
import { preparedListing } from '#server/features/catalogue/catalogue-listing.ts';
import { sendPrepared } from '#server/prepared-response.ts';
import type { LaneLookup } from '#server/prepared-lane.ts';
import { routeServer } from '#server/serve-route.ts';

/** Public and identical for everyone; a short shared cache absorbs bursts, the ETag makes revalidation cheap. */
const PUBLIC_CACHE = 'public, max-age=30, stale-while-revalidate=60';

const LISTING_TARGET = '/api/meditations?category=';
const CARD_TARGET = '/api/meditations/';

/**
 * The listings and cards already prepared, by the exact request target the web app sends, for the
 * prepared lane. Only answers made by the routes below are found (each passed its contract then).
 */
export function catalogueLaneLookup(cache: CatalogueCache): LaneLookup {
  return (target) => {
    if (target.startsWith(LISTING_TARGET)) {
      const slug = target.slice(LISTING_TARGET.length);
      const prepared = isNamedCategory(slug) ? cache.peek(`list:${slug}`) : undefined;
      return prepared && { route: '/api/meditations', prepared, cacheControl: PUBLIC_CACHE };
    }
    if (target.startsWith(CARD_TARGET)) {
      const prepared = cache.peek(`card:${target.slice(CARD_TARGET.length)}`);
      return prepared && { route: '/api/meditations/:id', prepared, cacheControl: PUBLIC_CACHE };
    }
    return undefined;
  };
}

export function catalogueRoutes(app: FastifyInstance, { db, cache }: { db: Database; cache: CatalogueCache }): void {
  const serve = routeServer(app);

  serve(catalogueApi.list, async ({ query, request }, reply) => {
    const slug = query.category;
    // Only the app's own listings are kept; any other slug is answered, not kept (it cannot fill the cache).
    if (!isNamedCategory(slug)) return reply.header('cache-control', PUBLIC_CACHE).send(listMeditationsResponse.parse(await listMeditations({ db, slug })));
    return sendPrepared(request, reply, await preparedListing({ db, cache, slug }), PUBLIC_CACHE);
  });

  // Words spoken in the meditations (issue 17, item 4): ids only; the cards are already on the page.
  serve(catalogueApi.search, async ({ query }, reply) => {
    reply.header('cache-control', 'public, max-age=30');
    return { ids: await searchTranscripts({ db, q: query.q }) };
  });

  serve(catalogueApi.get, async ({ params, request }, reply) => {
    // One entry per card, whatever the spelling: UUIDs are case-insensitive, so without this every
    // case variant of an id (4 096 for a typical one) was an entry of its own (issue 33, row 5). The lane's lookup
    // finds only this canonical spelling; the others come here and are answered from its entry.
    const id = params.id.toLowerCase();
    // An unknown id throws not-found, which the cache does not keep: random ids cannot fill it.
    const prepared = await cache.get(`card:${id}`, async () => getMeditationResponse.parse({ meditation: await getMeditation({ db, id }) }));
    return sendPrepared(request, reply, prepared, PUBLIC_CACHE);
  });
}
