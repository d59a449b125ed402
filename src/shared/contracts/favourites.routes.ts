/** The favourites routes: the signed-in person's saved meditations (contracts: favourites.ts). */
import type { favouritesSchemas } from '#shared/contracts/favourites.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const favouritesApi = defineRoutes<typeof favouritesSchemas>()('favourites', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  list: { method: 'GET', path: '/api/favourites' },
  /** 201 when newly saved, 200 when it already was (with the first save's time). */
  save: { method: 'PUT', path: '/api/favourites/:id' },
  /** 204 whether or not it was saved. */
  remove: { method: 'DELETE', path: '/api/favourites/:id' },
});
