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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminMeditationResponse } from '#shared/contracts/admin.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import { checkAudioFile, checkStoredType, checkUploadFields, normaliseTags, UPLOAD, UPLOAD_MESSAGES } from '#shared/uploads.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requirePolicy, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { findMeditationDownload, getAdminMeditation, listAdminMeditations, plainText, plainTitle, updateMeditation } from '#server/features/admin/admin-meditations.service.ts';
import { createMeditationFromUpload, deleteMeditation, processTempDir } from '#server/features/admin/meditation-upload.service.ts';
import { auditContextOf } from '#server/features/admin/request-context.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { routeServer } from '#server/serve-route.ts';
import type { CatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';

/** `catalogue`: cleared here at once after each change; other processes hear the database's NOTIFY. */
type Deps = { auth: Auth; db: Database; storage: MediaStorage; dataDir: string; catalogue: CatalogueCache };

const tags = ['admin'];

/** An upload failure as the caller should see it: over-size and malformed bodies are the sender's fault, not ours. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  if ('code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('upload/too-large', UPLOAD_MESSAGES.tooLarge, 413);
  // busboy's parse errors (a cut or malformed multipart body) carry no status.
  if (!('statusCode' in error) && /multipart|malformed part header|unexpected end of form/i.test(error.message)) return new AppError('validation/invalid-input', UPLOAD_MESSAGES.invalidFile, 400);
  return error;
}

export async function adminMeditationRoutes(app: FastifyInstance, { auth, db, storage, dataDir, catalogue }: Deps): Promise<void> {
  const serve = routeServer(app, { auth, db });
  const staff = requirePolicy(auth, db, 'staff');

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

  await app.register(async (scope) => {
    // The file may be one byte under 50 MB; one more and the stream is cut and the upload refused.
    // preservePath: the name as sent, so a path in it is refused rather than silently trimmed.
    await scope.register(multipart, { preservePath: true, limits: { fileSize: UPLOAD.maxBytes - 1, files: 1, fields: 40, fieldSize: 128 * 1024, parts: 45 } });

    // The multipart body is read and checked part by part (a schema cannot stream a 50 MB file).
    withContracts(scope).post('/api/admin/meditations', { onRequest: staff, schema: { tags, consumes: ['multipart/form-data'], response: { 201: adminMeditationResponse } } }, async (request, reply) => {
      // Staff only from here: up to 50 MB over a slow line may take UPLOAD_TIMEOUT_SECONDS, not the ordinary deadline.
      request.allowLongBody();
      const tempDir = processTempDir(dataDir);
      await mkdir(tempDir, { recursive: true, mode: 0o700 });
      const tempPath = join(tempDir, `${randomUUID()}.part`);
      let id: string;
      try {
        id = await receiveUpload(request, tempPath);
      } catch (error) {
        throw uploadError(error);
      } finally {
        await rm(tempPath, { force: true });
      }
      return reply.status(201).send({ meditation: await getAdminMeditation(db, id) });
    });
  });

  /** Streams the one file to `tempPath`, checks it and the fields, and stores the meditation; returns its id. */
  async function receiveUpload(request: FastifyRequest, tempPath: string): Promise<string> {
    const fields: Record<string, string[] | undefined> = {};
    let file: { name: string; type: string; size: number } | null = null;
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        (fields[part.fieldname] ??= []).push(String(part.value));
        continue;
      }
      if (file) throw new AppError('validation/invalid-input', UPLOAD_MESSAGES.invalidFile, 400);
      // Typed as a string, but a part without a file name is the sender's to get wrong.
      const name = (part.filename as string | undefined) ?? '';
      // Name and declared type first: nothing dangerous is even written to disk.
      const declared = checkAudioFile({ name, size: 0, type: part.mimetype });
      const stored = declared.valid ? checkStoredType({ name, type: part.mimetype }) : declared;
      if (!stored.valid) {
        part.file.resume();
        await rejectUpload(request, stored.error, name);
      }
      // 0600: the stored copy keeps this mode (copyFile copies it), whatever the umask.
      await pipeline(part.file, createWriteStream(tempPath, { mode: 0o600 }));
      if (part.file.truncated) await rejectUpload(request, UPLOAD_MESSAGES.tooLarge, name, 413);
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
    const check = checkUploadFields(raw, file !== null);
    if (!check.valid) throw new AppError('validation/invalid-input', check.error, 400, { title: check.title });
    // checkUploadFields has refused a form without a file; this only tells the compiler.
    if (!file) throw new AppError('validation/invalid-input', UPLOAD_MESSAGES.required, 400, { title: UPLOAD_MESSAGES.uploadFailedTitle });
    const created = await createMeditationFromUpload({
      db,
      storage,
      by: auditContextOf(request),
      input: {
        title: plainTitle(raw.title),
        description: plainText(raw.description),
        categories: raw.categories,
        tags: normaliseTags(raw.tags.map(plainText)),
        transcript: plainText(raw.transcript) || null,
        originalName: file.name.slice(0, 255),
        tempPath,
      },
    });
    catalogue.invalidate();
    return created.id;
  }

  serve(adminApi.meditations, async () => ({ meditations: await listAdminMeditations(db) }));

  serve(adminApi.updateMeditation, async ({ params, body, request }) => {
    const meditation = await updateMeditation({ db, by: auditContextOf(request), id: params.id, input: body });
    catalogue.invalidate();
    return { meditation };
  });

  serve(adminApi.removeMeditation, async ({ params, request }) => {
    await deleteMeditation({ db, storage, id: params.id, by: auditContextOf(request) });
    catalogue.invalidate();
    return { deleted: params.id };
  });

  // The original file: a download, not JSON (outside the route table).
  withContracts(app).get('/api/admin/meditations/:id/download', { onRequest: staff, schema: { tags, params: meditationIdParams, description: 'The original audio file (audio/mpeg or audio/mp4) as an attachment.' } }, async (request, reply) => {
    const download = await findMeditationDownload({ db, storage, id: request.params.id });
    return reply
      .header('content-type', download.type)
      .header('content-length', download.size)
      .header('content-disposition', `attachment; filename="${download.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(download.body);
  });
}
