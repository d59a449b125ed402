/** Every route of the table (route.ts), for the tests that walk it and the docs drawn from it. */
import { favouriteRoutes } from '#shared/contracts/favourites.routes.ts';
import type { Route } from '#shared/contracts/route.ts';

export const API_ROUTES: readonly Route[] = [favouriteRoutes].flatMap((feature) => Object.values(feature));
