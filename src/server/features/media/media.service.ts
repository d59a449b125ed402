/** Playback for entitled users: a short-lived signed URL to the audio, never its storage location. */
import { eq } from 'drizzle-orm';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import type { PlaybackResponse } from '#shared/contracts/media.ts';
import type { Role } from '#shared/roles.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent } from '#server/db/schema/catalogue.ts';
import { AppError } from '#server/errors.ts';
import { getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import type { MediaSigner } from '#server/features/media/media-signing.ts';

/**
 * The signed URL, type and transcript of one meditation's audio.
 * AppError('subscription/required', 403) without an entitlement, AppError('not-found') when it has no audio.
 */
export async function getPlayback({ db, signer, userId, role, meditationId }: { db: Database; signer: MediaSigner; userId: string; role: Role; meditationId: string }): Promise<PlaybackResponse> {
  const entitlement = await getEntitlement({ db, userId, role });
  if (!entitlement.subscribed) throw new AppError('subscription/required', BILLING_MESSAGES.notEntitled, 403);
  const content = (await db.select().from(meditationContent).where(eq(meditationContent.meditationId, meditationId))).at(0);
  if (!content) throw new AppError('not-found', 'Meditation not found');
  const { url, expiresAt } = signer.sign(content.storageKey);
  return { url, expiresAt: expiresAt.toISOString(), mimeType: content.audioFileType, transcript: content.transcript };
}
