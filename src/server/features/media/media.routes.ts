/**
 * Audio delivery: entitled users ask for a playback URL; the media route serves only requests
 * carrying a valid, unexpired signature, with Range (206) for seeking and private caching.
 */
import type { FastifyInstance } from 'fastify';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { requireUser, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { meditationContent } from '#server/db/schema/catalogue.ts';
import { AppError } from '#server/errors.ts';
import { getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import type { MediaSigner } from '#server/features/media/media-signing.ts';
import type { MediaStorage } from '#server/media-storage.ts';
import { eq } from 'drizzle-orm';

type Deps = { auth: Auth; db: Database; storage: MediaStorage; signer: MediaSigner };

const RANGE = /^bytes=(\d*)-(\d*)$/;

export function mediaRoutes(app: FastifyInstance, { auth, db, storage, signer }: Deps): void {
  app.get('/api/meditations/:id/playback', { preHandler: requireUser(auth, db) }, async (request, reply) => {
    const { id } = meditationIdParams.parse(request.params);
    const viewer = request.viewer!;
    const entitlement = await getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
    if (!entitlement.subscribed) throw new AppError('subscription/required', BILLING_MESSAGES.notEntitled, 403);
    const [content] = await db.select().from(meditationContent).where(eq(meditationContent.meditationId, id));
    if (!content) throw new AppError('not-found', 'Meditation not found');
    const { url, expiresAt } = signer.sign(content.storageKey);
    reply.header('cache-control', 'no-store');
    return { url, expiresAt: expiresAt.toISOString(), mimeType: content.audioFileType, transcript: content.transcript };
  });

  app.get('/media/meditations/:key', async (request, reply) => {
    const { key } = request.params as { key: string };
    const { exp, sig } = request.query as { exp?: string; sig?: string };
    const verdict = signer.verify(key, exp, sig);
    if (verdict !== 'ok') {
      throw verdict === 'expired' ? new AppError('media/expired', 'This link has expired.', 403) : new AppError('media/forbidden', 'Forbidden', 403);
    }
    const stored = await storage.stat(key);
    if (!stored) throw new AppError('not-found', 'Not found.', 404);
    const size = stored.size;
    const type = key.endsWith('.m4a') || key.endsWith('.mp4') ? 'audio/mp4' : key.endsWith('.mp3') ? 'audio/mpeg' : 'application/octet-stream';
    reply
      .header('accept-ranges', 'bytes')
      .header('content-type', type)
      .header('cache-control', 'private, max-age=600')
      .header('etag', `"${key}-${size}"`)
      .header('cross-origin-resource-policy', 'same-origin');

    const range = request.headers.range;
    if (!range) return reply.header('content-length', size).send(storage.read(key));
    const match = RANGE.exec(range);
    let start = match?.[1] ? Number(match[1]) : NaN;
    let end = match?.[2] ? Number(match[2]) : size - 1;
    if (match && !match[1] && match[2]) {
      start = Math.max(0, size - Number(match[2]));
      end = size - 1;
    }
    if (!match || Number.isNaN(start) || start > end || start >= size) {
      return reply.status(416).header('content-range', `bytes */${size}`).send();
    }
    end = Math.min(end, size - 1);
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', end - start + 1)
      .send(storage.read(key, { start, end }));
  });
}
