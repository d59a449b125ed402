/** The favourites routes: the signed-in person's saved meditations (contracts: favourites.ts). */
import type { favouritesSchemas } from '#shared/contracts/favourites.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const favouritesApi = defineRoutes<typeof favouritesSchemas>()('favourites', {
  list: { method: 'GET', path: '/api/favourites', policy: 'signed-in', cache: 'no-store' },
  /** 201 when newly saved, 200 when it already was (with the first save's time). */
  save: { method: 'PUT', path: '/api/favourites/:id', policy: 'signed-in', cache: 'no-store' },
  /** 204 whether or not it was saved. */
  remove: { method: 'DELETE', path: '/api/favourites/:id', policy: 'signed-in', cache: 'no-store' },
});
