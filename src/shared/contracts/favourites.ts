/** Favourites API contracts: the signed-in user's saved meditations, kept on the server across devices. */
import { z } from 'zod';
import { meditationCardSchema } from '#shared/contracts/catalogue.ts';

const favouriteSchema = z.object({ meditation: meditationCardSchema, savedAt: z.string() });
export type Favourite = z.infer<typeof favouriteSchema>;

/** GET /api/favourites: newest saved first. */
export const favouritesResponse = z.object({ favourites: z.array(favouriteSchema) });
export type FavouritesResponse = z.infer<typeof favouritesResponse>;

/** PUT /api/favourites/:id: 201 when newly saved, 200 when it already was (with the first save's time). */
export const saveFavouriteResponse = z.object({ meditation: meditationCardSchema, savedAt: z.string() });

/** DELETE /api/favourites/:id: 204 with no body, whether or not it was saved. */
export const removeFavouriteResponse = z.null().describe('No content: removed, or was not saved.');
