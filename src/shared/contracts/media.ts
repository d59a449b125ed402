/**
 * Media API contracts: the entitlement endpoint that hands a subscriber a short-lived signed
 * audio URL, and the signed media route that streams the bytes (not JSON, so no reply schema).
 */
import { z } from 'zod';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

/** GET /api/meditations/:id/playback. */
const playbackResponse = z.object({
  /** Relative, signed URL of the audio, valid until `expiresAt`. */
  url: z.string(),
  expiresAt: z.iso.datetime(),
  mimeType: z.string(),
  /** The spoken script, when the meditation has one. */
  transcript: z.string().nullable(),
});
export type PlaybackResponse = z.infer<typeof playbackResponse>;

/** GET /media/meditations/:key: the storage key the signature covers. */
export const mediaParams = z.object({ key: z.string() });

/**
 * The signature pair. A missing or malformed pair (a repeated parameter arrives as an array) is the
 * signer's verdict ('Forbidden', 403), not a validation error, so a bad link reads the same however it is bad.
 */
const signaturePart = z.string().optional().catch(undefined);
export const mediaQuery = z.object({ exp: signaturePart, sig: signaturePart });

/** The media routes' contracts, by route name (their method, path and policy: media.routes.ts). */
export const mediaSchemas = {
  playback: { params: meditationIdParams, response: playbackResponse },
} satisfies SchemaTable;
