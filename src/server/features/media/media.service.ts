/**
 * Playback: a short-lived signed URL to the audio, never its storage location. Entitled listeners
 * get any meditation; everyone, signed in or not, gets the free samples (decision 0025).
 */
import { eq } from 'drizzle-orm';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import type { PlaybackResponse } from '#shared/contracts/media.ts';
import { can } from '#shared/policies.ts';
import type { Role } from '#shared/roles.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { AppError } from '#server/errors.ts';
import { whoIs } from '#server/features/billing/subscriptions.service.ts';
import type { MediaSigner } from '#server/features/media/media-signing.ts';

/**
 * The signed URL, type and transcript of one meditation's audio, for `listener` (undefined: signed out).
 * AppError 401 for a visitor unless the meditation is free (an unknown id included, so ids are not
 * probed), 403 ('subscription/required') without an entitlement, 'not-found' when it has no audio.
 */
export async function getPlayback({
  db,
  signer,
  listener,
  meditationId,
}: {
  db: Database;
  signer: MediaSigner;
  listener: { userId: string; role: Role } | undefined;
  meditationId: string;
}): Promise<PlaybackResponse> {
  const found = (
    await db
      .select({ content: meditationContent, free: meditationPreviews.free })
      .from(meditationContent)
      .innerJoin(meditationPreviews, eq(meditationPreviews.id, meditationContent.meditationId))
      .where(eq(meditationContent.meditationId, meditationId))
  ).at(0);
  if (!found?.free) {
    if (!listener) throw new AppError('auth/unauthenticated', 'User not authenticated', 401);
    if (!can(await whoIs({ db, ...listener }), 'listen', { free: false })) throw new AppError('subscription/required', BILLING_MESSAGES.notEntitled, 403);
  }
  if (!found) throw new AppError('not-found', 'Meditation not found');
  const { content } = found;
  const { url, expiresAt } = signer.sign(content.storageKey);
  return { url, expiresAt: expiresAt.toISOString(), mimeType: content.audioFileType, transcript: content.transcript };
}
