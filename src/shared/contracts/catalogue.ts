/**
 * Catalogue API contracts. Cards never carry an audio location: playback URLs come
 * from the entitlement endpoint (billing issue), so paid audio stays paid.
 */
import { z } from 'zod';
import type { CategoryInfo } from '#shared/catalogue.ts';
import { SEARCH_MAX_LENGTH, SEARCH_MESSAGES, SEARCH_MIN_SERVER_LENGTH } from '#shared/catalogue-search.ts';
import { hasControlCharacters } from '#shared/validation.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

const categorySlugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(64)
  .regex(/^[a-z0-9-]*$/, 'Unknown category');

const listMeditationsQuery = z.object({
  category: categorySlugSchema.default('all'),
});

export const meditationIdParams = z.object({ id: z.uuid() });

export const meditationCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Display text such as '12 min' (spec: free text containing minutes). */
  duration: z.string(),
  durationSeconds: z.number().nullable(),
  category: z.string(),
  categories: z.array(z.string()),
  tags: z.array(z.string()),
  hasTranscript: z.boolean(),
  /** A free sample: anyone may play it, signed in or not (decision 0025). */
  free: z.boolean(),
  createdAt: z.string(),
});
export type MeditationCard = z.infer<typeof meditationCardSchema>;

const categoryInfoSchema = z.object({ slug: z.string(), title: z.string(), description: z.string() }) satisfies z.ZodType<CategoryInfo>;

export const listMeditationsResponse = z.object({
  category: categoryInfoSchema,
  meditations: z.array(meditationCardSchema),
});
export type ListMeditationsResponse = z.infer<typeof listMeditationsResponse>;

export const getMeditationResponse = z.object({ meditation: meditationCardSchema });

/** The search text as typed: trimmed, no control characters, at most SEARCH_MAX_LENGTH. */
export const searchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(SEARCH_MIN_SERVER_LENGTH, 'Please type at least two characters.')
    .max(SEARCH_MAX_LENGTH, SEARCH_MESSAGES.tooLong)
    .refine((q) => !hasControlCharacters(q), 'Please remove special characters from the search.'),
});
const searchResponse = z.object({ ids: z.array(z.string()) });

/** The catalogue routes' contracts, by route name (their method, path and policy: catalogue.routes.ts). */
export const catalogueSchemas = {
  list: { query: listMeditationsQuery, response: listMeditationsResponse },
  search: { query: searchQuery, response: searchResponse },
  get: { params: meditationIdParams, response: getMeditationResponse },
} satisfies SchemaTable;
