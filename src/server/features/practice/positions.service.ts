/**
 * Resume where you left off (issue 20, item 2): the latest position per person and meditation.
 * Devices save as they play (debounced) and again when they come back online, so saves arrive late
 * and out of order: the one the device saw last (updatedAt) wins, checked in the database's upsert
 * so two devices saving at once cannot overwrite a newer position with an older one.
 */
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { MAX_AUDIO_SECONDS } from '#shared/constants.ts';
import type { PlaybackPosition, SavePositionBody, SavePositionResponse } from '#shared/contracts/practice.ts';
import { PRACTICE_MESSAGES, SESSION_FUTURE_SKEW_MS } from '#shared/practice.ts';
import type { Database } from '#server/db/client.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { playbackPositions } from '#server/db/schema/practice.ts';
import { AppError } from '#server/errors.ts';

const toPosition = (row: typeof playbackPositions.$inferSelect): PlaybackPosition => ({ meditationId: row.meditationId, positionSeconds: row.positionSeconds, updatedAt: row.updatedAt.toISOString() });

export async function savePosition({ db, userId, meditationId, body, now = new Date() }: { db: Database; userId: string; meditationId: string; body: SavePositionBody; now?: Date }): Promise<SavePositionResponse> {
  const updatedAt = new Date(body.updatedAt);
  // A device clock far ahead would win every race for as long as it stays ahead.
  if (updatedAt.getTime() > now.getTime() + SESSION_FUTURE_SKEW_MS) throw new AppError('validation/invalid-input', PRACTICE_MESSAGES.positionInFuture, 400);
  const meditation = (await db.select({ durationSeconds: meditationPreviews.durationSeconds }).from(meditationPreviews).where(eq(meditationPreviews.id, meditationId))).at(0);
  if (!meditation) throw new AppError('not-found', PRACTICE_MESSAGES.meditationNotFound);
  // Within the track as the server measured it, whatever the device thinks its length is.
  const positionSeconds = Math.round(Math.min(body.positionSeconds, meditation.durationSeconds ?? MAX_AUDIO_SECONDS, MAX_AUDIO_SECONDS));

  const saved = await db
    .insert(playbackPositions)
    .values({ userId, meditationId, positionSeconds, updatedAt })
    .onConflictDoUpdate({
      target: [playbackPositions.userId, playbackPositions.meditationId],
      set: { positionSeconds, updatedAt },
      // Only a newer position replaces the one held.
      setWhere: lt(playbackPositions.updatedAt, sql`excluded.updated_at`),
    })
    .returning();
  if (saved[0]) return { position: toPosition(saved[0]), saved: true };
  const held = (await db.select().from(playbackPositions).where(and(eq(playbackPositions.userId, userId), eq(playbackPositions.meditationId, meditationId))))[0];
  return { position: toPosition(held), saved: false };
}

/** The meditations this person stopped part way through, newest first. */
export async function listPositions({ db, userId }: { db: Database; userId: string }): Promise<PlaybackPosition[]> {
  const rows = await db
    .select()
    .from(playbackPositions)
    .where(and(eq(playbackPositions.userId, userId), gt(playbackPositions.positionSeconds, 0)))
    .orderBy(desc(playbackPositions.updatedAt));
  return rows.map(toPosition);
}
