/**
 * Catalogue management for admins and editors: upload (multipart, streamed, checked), list with
 * file details, edit title/description/transcript, download the original, delete.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkAudioFile, checkStoredType, checkUploadFields, normaliseTags, UPLOAD, UPLOAD_MESSAGES } from '#shared/admin.ts';
import type { AdminMeditation } from '#shared/contracts/admin.ts';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import { validateContent } from '#shared/validation.ts';
import { requireRole, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction } from '#server/features/admin/admin-audit.service.ts';
import { createMeditationFromUpload, deleteMeditation, processTempDir } from '#server/features/admin/meditation-upload.service.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import type { MediaStorage } from '#server/media-storage.ts';

/** Markup is never stored in catalogue text; React escapes the rest when it renders. */
const plain = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/<[^>]*>?/g, '')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
    .trim();

const editBody = z
  .object({
    title: z.string().max(10_000).optional(),
    description: z.string().max(10_000).optional(),
    transcript: z.string().max(100_000).nullish(),
  })
  // An edit that names no field would still touch the row and the audit log: refuse it.
  .refine((body) => body.title !== undefined || body.description !== undefined || body.transcript !== undefined, 'Please change the title, description or transcript.');

async function listForAdmin(db: Database, id?: string): Promise<AdminMeditation[]> {
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
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  }));
}

type Deps = { auth: Auth; db: Database; storage: MediaStorage; dataDir: string };

export async function adminMeditationRoutes(app: FastifyInstance, { auth, db, storage, dataDir }: Deps): Promise<void> {
  const staff = { preHandler: requireRole(auth, db, ['admin', 'editor']) };

  await app.register(async (scope) => {
    // The file may be one byte under 50 MB; one more and the stream is cut and the upload refused.
    // preservePath: the name as sent, so a path in it is refused rather than silently trimmed.
    await scope.register(multipart, { preservePath: true, limits: { fileSize: UPLOAD.maxBytes - 1, files: 1, fields: 40, fieldSize: 128 * 1024, parts: 45 } });

    scope.post('/api/admin/meditations', staff, async (request, reply) => {
      // Staff only from here: up to 50 MB over a slow line may take UPLOAD_TIMEOUT_SECONDS, not the ordinary deadline.
      request.allowLongBody();
      const tempDir = processTempDir(dataDir);
      await mkdir(tempDir, { recursive: true, mode: 0o700 });
      const tempPath = join(tempDir, `${randomUUID()}.part`);
      const fields: Record<string, string[]> = {};
      let file: { name: string; type: string; size: number } | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            (fields[part.fieldname] ??= []).push(String(part.value));
            continue;
          }
          if (file) throw new AppError('validation/invalid-input', UPLOAD_MESSAGES.invalidFile, 400);
          const name = part.filename ?? '';
          // Name and declared type first: nothing dangerous is even written to disk.
          const declared = checkAudioFile({ name, size: 0, type: part.mimetype });
          const stored = declared.valid ? checkStoredType({ name, type: part.mimetype }) : declared;
          if (!stored.valid) {
            part.file.resume();
            await rejectUpload(request, stored.error, name);
          }
          // 0600: the stored copy keeps this mode (copyFile copies it), whatever the umask.
          await pipeline(part.file, createWriteStream(tempPath, { mode: 0o600 }));
          if (part.file.truncated) {
            await rejectUpload(request, UPLOAD_MESSAGES.tooLarge, name, 413);
          }
          file = { name, type: part.mimetype, size: part.file.bytesRead };
        }
        const get = (key: string) => fields[key]?.[0] ?? '';
        const raw = {
          title: get('title'),
          description: get('description'),
          categories: (fields.categories ?? []).map((c) => c.trim()).filter(Boolean),
          tags: fields.tags ?? [],
          transcript: get('transcript'),
        };
        // Checked as sent (harmful markup is refused, not quietly cleaned), then stored as plain text.
        const check = checkUploadFields(raw, Boolean(file));
        if (!check.valid) throw new AppError('validation/invalid-input', check.error, 400, { title: check.title });
        const input = { title: plain(raw.title), description: plain(raw.description), categories: raw.categories, tags: normaliseTags(raw.tags.map(plain)), transcript: plain(raw.transcript) };
        const created = await createMeditationFromUpload({
          db,
          storage,
          input: { ...input, transcript: input.transcript || null, originalName: file!.name.slice(0, 255), tempPath },
        });
        await logAdminAction(db, request, {
          action: 'meditation.upload',
          targetResource: 'meditation_previews',
          targetId: created.id,
          changes: { title: input.title, categories: input.categories, file: file!.name, bytes: created.size, seconds: Math.round(created.seconds) },
        });
        const [view] = await listForAdmin(db, created.id);
        return reply.status(201).send({ meditation: view });
      } catch (error) {
        if (error instanceof Error && 'code' in error && (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('upload/too-large', UPLOAD_MESSAGES.tooLarge, 413);
        }
        // busboy's parse errors (a cut or malformed multipart body) carry no status: the sender's fault, not ours.
        if (error instanceof Error && !(error instanceof AppError) && !('statusCode' in error) && /multipart|malformed part header|unexpected end of form/i.test(error.message)) {
          throw new AppError('validation/invalid-input', UPLOAD_MESSAGES.invalidFile, 400);
        }
        throw error;
      } finally {
        await rm(tempPath, { force: true });
      }
    });
  });

  async function rejectUpload(request: FastifyRequest, message: string, name: string, status = 400): Promise<never> {
    await logSecurityEvent({
      db,
      eventType: 'upload_rejected',
      severity: 'medium',
      userId: request.viewer?.user.id,
      userEmail: request.viewer?.user.email,
      ipAddress: request.ip,
      details: { file: name.slice(0, 200), reason: message },
    });
    throw new AppError('validation/invalid-input', message, status, { title: UPLOAD_MESSAGES.invalidFile });
  }

  app.get('/api/admin/meditations', staff, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { meditations: await listForAdmin(db) };
  });

  app.patch('/api/admin/meditations/:id', staff, async (request) => {
    const { id } = meditationIdParams.parse(request.params);
    const input = editBody.parse(request.body ?? {});
    const [before] = await listForAdmin(db, id);
    if (!before) throw new AppError('not-found', 'Meditation not found', 404);
    const check = checkUploadFields({ title: input.title ?? before.title, description: input.description ?? before.description, categories: before.categories, tags: before.tags }, true);
    if (!check.valid) throw new AppError('validation/invalid-input', check.error, 400, { title: check.title });
    const title = input.title === undefined ? before.title : plain(input.title);
    const description = input.description === undefined ? before.description : plain(input.description);
    let transcript = before.transcript;
    if (input.transcript !== undefined) {
      const sent = input.transcript ?? '';
      if (sent.trim()) {
        const valid = validateContent(sent, UPLOAD.transcriptMax);
        if (!valid.valid) throw new AppError('validation/invalid-input', valid.error, 400, { title: UPLOAD_MESSAGES.invalidDescription });
      }
      transcript = plain(sent) || null;
    }
    await db.transaction(async (tx) => {
      await tx.update(meditationPreviews).set({ title, description, updatedAt: new Date() }).where(eq(meditationPreviews.id, id));
      if (input.transcript !== undefined) await tx.update(meditationContent).set({ transcript, updatedAt: new Date() }).where(eq(meditationContent.meditationId, id));
    });
    await logAdminAction(db, request, {
      action: 'meditation.update',
      targetResource: 'meditation_previews',
      targetId: id,
      changes: { title: title !== before.title ? { from: before.title, to: title } : undefined, description: description !== before.description ? 'changed' : undefined, transcript: input.transcript !== undefined ? 'changed' : undefined },
    });
    const [view] = await listForAdmin(db, id);
    return { meditation: view };
  });

  app.delete('/api/admin/meditations/:id', staff, async (request) => {
    const { id } = meditationIdParams.parse(request.params);
    const { preview, content } = await deleteMeditation({ db, storage, id });
    await logAdminAction(db, request, { action: 'meditation.delete', targetResource: 'meditation_previews', targetId: id, changes: { title: preview.title, file: content?.audioFileName ?? null }, severity: 'high' });
    return { deleted: id };
  });

  app.get('/api/admin/meditations/:id/download', staff, async (request, reply) => {
    const { id } = meditationIdParams.parse(request.params);
    const [content] = await db.select().from(meditationContent).where(eq(meditationContent.meditationId, id));
    if (!content) throw new AppError('not-found', 'Meditation not found', 404);
    const stored = await storage.stat(content.storageKey);
    if (!stored) throw new AppError('not-found', 'The audio file is missing from storage.', 404);
    const safeName = content.audioFileName.replace(/[^\w.\- ]+/g, '_').slice(0, 200) || content.storageKey;
    return reply
      .header('content-type', content.audioFileType)
      .header('content-length', stored.size)
      .header('content-disposition', `attachment; filename="${safeName}"`)
      .header('cache-control', 'private, no-store')
      .send(storage.read(content.storageKey));
  });
}
