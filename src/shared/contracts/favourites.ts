/** Favourites API contracts: the signed-in user's saved meditations, kept on the server across devices. */
import { z } from 'zod';
import { meditationCardSchema, meditationIdParams } from '#shared/contracts/catalogue.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

const favouriteSchema = z.object({ meditation: meditationCardSchema, savedAt: z.string() });
export type Favourite = z.infer<typeof favouriteSchema>;

/** GET /api/favourites: newest saved first. */
const favouritesResponse = z.object({ favourites: z.array(favouriteSchema) });

/** PUT /api/favourites/:id: 201 when newly saved, 200 when it already was (with the first save's time). */
const saveFavouriteResponse = z.object({ meditation: meditationCardSchema, savedAt: z.string() });

/** DELETE /api/favourites/:id: 204 with no body, whether or not it was saved. */
const removeFavouriteResponse = z.null().describe('No content: removed, or was not saved.');

/** The favourites routes' contracts (their method, path and policy: favourites.routes.ts). */
export const favouritesSchemas = {
  list: { response: favouritesResponse },
  save: { params: meditationIdParams, response: { 200: saveFavouriteResponse, 201: saveFavouriteResponse } },
  remove: { params: meditationIdParams, response: { 204: removeFavouriteResponse } },
} satisfies SchemaTable;
