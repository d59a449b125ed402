/** The catalogue routes: public, identical for everyone, cached by their own headers (contracts: catalogue.ts). */
import type { catalogueSchemas } from '#shared/contracts/catalogue.ts';
import { defineRoutes, queryKeyOf } from '#shared/contracts/route.ts';

export const catalogueApi = defineRoutes<typeof catalogueSchemas>()('catalogue', {
  /** A category's listing (`all` by default); a short shared cache and an ETag (the handler's headers). */
  list: { method: 'GET', path: '/api/meditations', policy: 'public', cache: 'route' },
  /** Words spoken in the meditations: ids only, the cards are already on the page. */
  search: { method: 'GET', path: '/api/search/meditations', policy: 'public', cache: 'route' },
  get: { method: 'GET', path: '/api/meditations/:id', policy: 'public', cache: 'route' },
});

/**
 * The query key of a category's listing: the web's listing reads it, and a prepared page's seed
 * (src/server/features/prerender/prepared-pages.ts) fills it, so the two cannot drift apart.
 */
export const listingQueryKey = (category: string) => queryKeyOf(catalogueApi.list, { query: { category } });
