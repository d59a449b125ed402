/** The one error shape every refusal has (src/server/errors.ts sends it; the web client reads it). */
import { z } from 'zod';

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});
