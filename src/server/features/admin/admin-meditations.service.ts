/**
 * Catalogue management for staff: the list with file details, edits of title/description/transcript
 * (with their audit row in one transaction), and the stored original for download.
 */
import { desc, eq } from 'drizzle-orm';
import type { AdminMeditation, EditMeditationBody } from '#shared/contracts/admin.ts';
import { PROGRAMME_MESSAGES } from '#shared/programmes.ts';
import { checkUploadFields, UPLOAD, UPLOAD_MESSAGES } from '#shared/uploads.ts';
import { sanitizeText, validateContent } from '#shared/validation.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction, type AuditContext } from '#server/features/admin/admin-audit.service.ts';
import { isDayOneOfPublished } from '#server/features/programmes/programmes-admin.service.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';

/**
 * Catalogue text as typed, by the one rule the waitlist uses too (sanitizeText, decision 0017):
 * real tags and control characters go, a lone '<' stays ('I <3 mornings'), React escapes on output.
 * Lengths were checked before (checkUploadFields, validateContent), so nothing is cut here.
 */
export const plainText = (text: string) => sanitizeText(text.replace(/\r\n?/g, '\n'), Number.POSITIVE_INFINITY);

/**
 * The title as stored. The checks read it as sent, so markup alone ('<b></b>') passes them and would
 * be stored as an empty title (issue 33, row 14): what is left after sanitising must still be a title.
 */
export function plainTitle(raw: string): string {
  const title = plainText(raw);
  if (!title) throw new AppError('validation/invalid-input', UPLOAD_MESSAGES.required, 400, { title: UPLOAD_MESSAGES.uploadFailedTitle });
  return title;
}

const notFound = () => new AppError('not-found', 'Meditation not found', 404);

/** Every meditation (or the one with `id`) as staff see it, newest first. */
export async function listAdminMeditations(db: Database, id?: string): Promise<AdminMeditation[]> {
  const rows = await db
    .select({ preview: meditationPreviews, content: meditationContent })
    .from(meditationPreviews)
    .leftJoin(meditationContent, eq(meditationContent.meditationId, meditationPreviews.id))
    .where(id ? eq(meditationPreviews.id, id) : undefined)
    .orderBy(desc(meditationPreviews.createdAt));
  return rows.map(({ preview: p, content: c }) => ({
    id: p.id,
    title: p.title,
    description: p.description,
    category: p.category,
    categories: p.categories,
    duration: p.duration,
    durationSeconds: p.durationSeconds,
    tags: p.tags,
    fileName: c?.audioFileName ?? null,
    fileType: c?.audioFileType ?? null,
    fileSizeBytes: c?.audioFileSize ?? null,
    hasTranscript: Boolean(c?.transcript),
    transcript: c?.transcript ?? null,
    free: p.free,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  }));
}

export async function getAdminMeditation(db: Database, id: string): Promise<AdminMeditation> {
  const found = (await listAdminMeditations(db, id)).at(0);
  if (!found) throw notFound();
  return found;
}

/** Checks the edit as sent (harmful markup is refused, not quietly cleaned), then stores plain text. */
export async function updateMeditation({ db, by, id, input }: { db: Database; by: AuditContext; id: string; input: EditMeditationBody }): Promise<AdminMeditation> {
  const before = await getAdminMeditation(db, id);
  const check = checkUploadFields({ title: input.title ?? before.title, description: input.description ?? before.description, categories: before.categories, tags: before.tags }, true);
  if (!check.valid) throw new AppError('validation/invalid-input', check.error, 400, { title: check.title });
  const title = input.title === undefined ? before.title : plainTitle(input.title);
  const description = input.description === undefined ? before.description : plainText(input.description);
  let transcript = before.transcript;
  if (input.transcript !== undefined) {
    const sent = input.transcript ?? '';
    if (sent.trim()) {
      const valid = validateContent(sent, UPLOAD.transcriptMax);
      if (!valid.valid) throw new AppError('validation/invalid-input', valid.error, 400, { title: UPLOAD_MESSAGES.invalidDescription });
    }
    transcript = plainText(sent) || null;
  }
  const free = input.free ?? before.free;
  // Day 1 of a published programme is what anyone may try (decision 0051): it stays free while it is.
  if (before.free && !free && (await isDayOneOfPublished(db, id))) throw new AppError('validation/invalid-input', PROGRAMME_MESSAGES.stillDayOne, 400);
  await db.transaction(async (tx) => {
    await tx.update(meditationPreviews).set({ title, description, free, updatedAt: new Date() }).where(eq(meditationPreviews.id, id));
    if (input.transcript !== undefined) await tx.update(meditationContent).set({ transcript, updatedAt: new Date() }).where(eq(meditationContent.meditationId, id));
    await logAdminAction({
      db: tx,
      by,
      entry: {
        action: 'meditation.update',
        targetResource: 'meditation_previews',
        targetId: id,
        changes: { title: title !== before.title ? { from: before.title, to: title } : undefined, description: description !== before.description ? 'changed' : undefined, transcript: input.transcript !== undefined ? 'changed' : undefined, free: free !== before.free ? { from: before.free, to: free } : undefined },
      },
    });
  });
  return getAdminMeditation(db, id);
}

/** The stored original of a meditation, with a name safe for a content-disposition header. */
export async function findMeditationDownload({ db, storage, id }: { db: Database; storage: MediaStorage; id: string }) {
  const content = (await db.select().from(meditationContent).where(eq(meditationContent.meditationId, id))).at(0);
  if (!content) throw notFound();
  const stored = await storage.stat(content.storageKey);
  if (!stored) throw new AppError('not-found', 'The audio file is missing from storage.', 404);
  const fileName = content.audioFileName.replace(/[^\w.\- ]+/g, '_').slice(0, 200) || content.storageKey;
  return { fileName, type: content.audioFileType, size: stored.size, body: storage.read(content.storageKey) };
}
