/**
 * Turning an uploaded file into a meditation, safely: the file is streamed to a temporary file
 * (aborting past 50 MB), its real type is read from its bytes (file-type), its length from the
 * audio itself (music-metadata), and only then is it stored under a generated name and the rows
 * written. Any failure after storing removes the file again; a process killed midway leaves
 * only a temporary file or an unreferenced stored file, both swept at the next start (the stored
 * file at once, through the marker written before it: see sweepUploads).
 */
import { pidRuns } from '#server/features/operations/data-dir-lock.ts';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import { UPLOAD_MESSAGES } from '#shared/uploads.ts';
import { formatDurationMinutes } from '#shared/catalogue.ts';
import { MAX_AUDIO_SECONDS, MIN_AUDIO_BYTES_PER_SECOND } from '#shared/constants.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction, type AuditContext } from '#server/features/admin/admin-audit.service.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';

export const uploadTempDir = (dataDir: string) => join(dataDir, 'uploads');

/** This process's own folder for parts in flight, so a sweep can tell a dead process's leftovers from live uploads. */
const PROCESS_FOLDER = `${process.pid}-${Date.now()}`;
export const processTempDir = (dataDir: string) => join(uploadTempDir(dataDir), PROCESS_FOLDER);

/** What the bytes say the file is; only MP3 and M4A (MP4 audio) are stored. */
async function sniffAudio(path: string): Promise<{ ext: 'mp3' | 'm4a'; mime: 'audio/mpeg' | 'audio/mp4' }> {
  const type = await fileTypeFromFile(path);
  if (type?.ext === 'mp3' && type.mime === 'audio/mpeg') return { ext: 'mp3', mime: 'audio/mpeg' };
  if (type && ['m4a', 'mp4'].includes(type.ext) && ['audio/mp4', 'audio/x-m4a', 'video/mp4'].includes(type.mime)) return { ext: 'm4a', mime: 'audio/mp4' };
  throw new AppError('upload/unsupported-type', UPLOAD_MESSAGES.contentMismatch, 415);
}

/**
 * The length of the audio, measured by music-metadata and then cross-checked: a crafted header
 * (an 8 KB MP3 whose Info frame count says 1.8 million minutes) must not reach the catalogue or
 * the practice stats.
 */
async function readDurationSeconds(path: string): Promise<number> {
  let measured: { duration?: number; bitrate?: number } | undefined;
  try {
    measured = (await parseFile(path, { duration: true, skipCovers: true })).format;
  } catch {
    measured = undefined; // unreadable: reported below
  }
  const seconds = measured?.duration;
  if (!seconds || !Number.isFinite(seconds) || seconds <= 0) throw new AppError('upload/unreadable-audio', UPLOAD_MESSAGES.unreadableAudio, 422);
  checkAudioDuration({ seconds, bytes: (await stat(path)).size, bitrate: measured?.bitrate });
  return seconds;
}

/** How far a header's length may exceed what its own bitrate and the file size allow (VBR, rounding). */
const BITRATE_TOLERANCE = 1.5;
const SLACK_SECONDS = 2;

/**
 * Refuses a duration the file cannot hold: more seconds than its bytes allow at the lowest
 * bitrate in use, or than its own declared bitrate allows (a longer real file is fine: tags and
 * cover art only add bytes), and anything over the 4-hour cap.
 */
export function checkAudioDuration({ seconds, bytes, bitrate }: { seconds: number; bytes: number; bitrate: number | undefined }): void {
  const byFloor = bytes / MIN_AUDIO_BYTES_PER_SECOND;
  const byBitrate = bitrate && Number.isFinite(bitrate) && bitrate > 0 ? ((bytes * 8) / bitrate) * BITRATE_TOLERANCE + SLACK_SECONDS : Infinity;
  if (seconds > byFloor || seconds > byBitrate) throw new AppError('upload/unreadable-audio', UPLOAD_MESSAGES.durationMismatch, 422);
  if (seconds > MAX_AUDIO_SECONDS) throw new AppError('upload/unreadable-audio', UPLOAD_MESSAGES.tooLong, 422);
}

/**
 * Beside the temporary file (in this process's own folder), `<key>.storing` names a stored file
 * whose rows may not be committed yet. A SIGKILL between storing and committing leaves the
 * marker, and the next start removes that file at once if no row refers to it, instead of
 * waiting out the grace period that protects other processes' uploads.
 */
const STORING = /^([0-9a-f-]{36}\.(?:mp3|m4a))\.storing$/;
const storingMarker = (tempPath: string, key: string) => join(dirname(tempPath), `${key}.storing`);

export type NewMeditation = {
  title: string;
  description: string;
  categories: string[];
  tags: string[];
  transcript: string | null;
  originalName: string;
  tempPath: string;
};

/** Stores the checked file and writes both rows and the audit row in one transaction; undoes the file on failure. */
export async function createMeditationFromUpload({ db, storage, input, by }: { db: Database; storage: MediaStorage; input: NewMeditation; by: AuditContext }) {
  const audio = await sniffAudio(input.tempPath);
  const seconds = await readDurationSeconds(input.tempPath);
  const key = `${randomUUID()}.${audio.ext}`;
  const marker = storingMarker(input.tempPath, key);
  await writeFile(marker, '', { mode: 0o600 });
  const stored = await storage.putFile(key, input.tempPath).catch(async (error: unknown) => {
    await storage.remove(key).catch(() => undefined);
    await rm(marker, { force: true });
    throw error;
  });
  try {
    const created = await db.transaction(async (tx) => {
      const [preview] = await tx
        .insert(meditationPreviews)
        .values({
          title: input.title,
          description: input.description,
          category: input.categories[0],
          categories: input.categories,
          tags: input.tags,
          duration: formatDurationMinutes(seconds),
          durationSeconds: Math.round(seconds),
        })
        .returning();
      await tx.insert(meditationContent).values({
        meditationId: preview.id,
        storageKey: key,
        audioFileName: input.originalName,
        audioFileType: audio.mime,
        audioFileSize: stored.size,
        transcript: input.transcript,
      });
      await logAdminAction({
        db: tx,
        by,
        entry: {
          action: 'meditation.upload',
          targetResource: 'meditation_previews',
          targetId: preview.id,
          changes: { title: input.title, categories: input.categories, file: input.originalName, bytes: stored.size, seconds: Math.round(seconds) },
        },
      });
      return { id: preview.id, key, seconds, size: stored.size, mime: audio.mime };
    });
    await rm(marker, { force: true });
    return created;
  } catch (error) {
    await storage.remove(key).catch(() => undefined);
    await rm(marker, { force: true });
    throw error;
  }
}

/** Delete: content row, preview row and the audit row (one transaction), then the stored file. */
export async function deleteMeditation({ db, storage, id, by }: { db: Database; storage: MediaStorage; id: string; by: AuditContext }) {
  const removed = await db.transaction(async (tx) => {
    const content = (await tx.delete(meditationContent).where(eq(meditationContent.meditationId, id)).returning()).at(0);
    const preview = (await tx.delete(meditationPreviews).where(eq(meditationPreviews.id, id)).returning()).at(0);
    if (!preview) throw new AppError('not-found', 'Meditation not found', 404);
    await logAdminAction({ db: tx, by, entry: { action: 'meditation.delete', targetResource: 'meditation_previews', targetId: id, changes: { title: preview.title, file: content?.audioFileName ?? null }, severity: 'high' } });
    return { preview, content };
  });
  // If this fails the rows are already gone; the start-up sweep removes the unreferenced file.
  if (removed.content) await storage.remove(removed.content.storageKey).catch(() => undefined);
  return removed;
}

/**
 * Start-up clean-up: temporary upload files of processes that no longer run, the stored files their
 * `.storing` markers name that no content row refers to (a kill between storing and committing),
 * and any other unreferenced stored file older than `graceMs` (another process may be between
 * storing a file and committing its row).
 */
export async function sweepUploads({ db, storage, dataDir, graceMs = 60 * 60 * 1000, now = Date.now() }: { db: Database; storage: MediaStorage; dataDir: string; graceMs?: number; now?: number }) {
  const tempDir = uploadTempDir(dataDir);
  await mkdir(tempDir, { recursive: true, mode: 0o700 });
  let temporary = 0;
  let orphans = 0;
  for (const name of await readdir(tempDir)) {
    if (name === PROCESS_FOLDER) continue;
    const path = join(tempDir, name);
    const owner = /^(\d+)-\d+$/.exec(name);
    // A folder belongs to a process: keep it while that process lives. Anything else is debris.
    if (owner && pidRuns(Number(owner[1]))) continue;
    const names = owner ? await readdir(path).catch(() => [] as string[]) : [];
    // A dead process's markers name files it stored; those no row refers to go now (before the folder).
    const storing = names.map((n) => STORING.exec(n)?.[1]).filter((key): key is string => Boolean(key));
    if (storing.length) {
      const referenced = new Set((await db.select({ key: meditationContent.storageKey }).from(meditationContent).where(inArray(meditationContent.storageKey, storing))).map((r) => r.key));
      for (const key of storing) {
        if (referenced.has(key)) continue;
        await storage.remove(key);
        orphans += 1;
      }
    }
    await rm(path, { force: true, recursive: true });
    temporary += owner ? names.length - storing.length : 1;
  }
  const objects = await storage.list();
  const old = objects.filter((o) => now - o.modifiedAt.getTime() > graceMs);
  if (old.length) {
    const referenced = new Set(
      (await db.select({ key: meditationContent.storageKey }).from(meditationContent).where(inArray(meditationContent.storageKey, old.map((o) => o.key)))).map((r) => r.key),
    );
    for (const object of old) {
      if (referenced.has(object.key)) continue;
      await storage.remove(object.key);
      orphans += 1;
    }
  }
  return { temporary, orphans };
}
