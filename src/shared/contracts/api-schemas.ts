/**
 * Every route's zod contract, by feature and route name: the server validates and serialises with
 * them (src/server/serve-route.ts), and the web checks replies against them in development and tests
 * (src/web/lib/reply-check.ts, loaded only there). The routes themselves: api-routes.ts.
 */
import { favouritesSchemas } from '#shared/contracts/favourites.ts';
import type { Route, RouteSchemas } from '#shared/contracts/route.ts';

export const API_SCHEMAS: Readonly<Partial<Record<string, Readonly<Partial<Record<string, RouteSchemas>>>>>> = {
  favourites: favouritesSchemas,
};

/** The zod contract the table names for a route (a route without one is a programming error, caught at start and by route-table.test.ts). */
export function contractOf(route: Pick<Route, 'id' | 'feature' | 'name'>): RouteSchemas {
  const schemas = API_SCHEMAS[route.feature]?.[route.name];
  if (!schemas) throw new Error(`${route.id}: no contract in src/shared/contracts/api-schemas.ts`);
  return schemas;
}
