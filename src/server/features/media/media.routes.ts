/**
 * Audio delivery: entitled users ask for a playback URL; the media route serves only requests
 * carrying a valid, unexpired signature, with Range (206) for seeking and private caching.
 */
import type { FastifyInstance } from 'fastify';
import { mediaParams, mediaQuery } from '#shared/contracts/media.ts';
import { mediaApi } from '#shared/contracts/media.routes.ts';
import { withContracts } from '#server/api-contracts.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import type { MediaSigner } from '#server/features/media/media-signing.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';
import { getPlayback } from '#server/features/media/media.service.ts';
import { routeServer } from '#server/serve-route.ts';

type Deps = { auth: Auth; db: Database; storage: MediaStorage; signer: MediaSigner };

const RANGE = /^bytes=(\d*)-(\d*)$/;

function contentTypeOf(key: string): string {
  if (key.endsWith('.m4a') || key.endsWith('.mp4')) return 'audio/mp4';
  return key.endsWith('.mp3') ? 'audio/mpeg' : 'application/octet-stream';
}

/** The inclusive byte span a Range header asks for, or null when it cannot be satisfied (416). */
function byteRange(header: string, size: number): { start: number; end: number } | null {
  const match = RANGE.exec(header);
  let start = match?.[1] ? Number(match[1]) : NaN;
  let end = match?.[2] ? Number(match[2]) : size - 1;
  // `bytes=-N` is a suffix: the last N bytes.
  if (match && !match[1] && match[2]) {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  }
  if (!match || Number.isNaN(start) || start > end || start >= size) return null;
  return { start, end: Math.min(end, size - 1) };
}

export function mediaRoutes(app: FastifyInstance, { auth, db, storage, signer }: Deps): void {
  const serve = routeServer(app, { auth, db });

  // Open to visitors for the free samples only; the service decides (401/403 for the rest).
  serve(mediaApi.playback, async ({ viewer, params }) => {
    const listener = viewer ? { userId: viewer.user.id, role: viewer.role } : undefined;
    return getPlayback({ db, signer, listener, meditationId: params.id });
  });

  // The audio bytes: not JSON, so outside the route table.
  withContracts(app).get(
    '/media/meditations/:key',
    { schema: { tags: ['media'], params: mediaParams, querystring: mediaQuery, description: 'The audio bytes (audio/mpeg or audio/mp4), with Range support (206, 416).' } },
    async (request, reply) => {
      const { key } = request.params;
      const verdict = signer.verify(key, request.query.exp, request.query.sig);
      if (verdict !== 'ok') {
        throw verdict === 'expired' ? new AppError('media/expired', 'This link has expired.', 403) : new AppError('media/forbidden', 'Forbidden', 403);
      }
      const stored = await storage.stat(key);
      if (!stored) throw new AppError('not-found', 'Not found.', 404);
      const size = stored.size;
      reply
        .header('accept-ranges', 'bytes')
        .header('content-type', contentTypeOf(key))
        .header('cache-control', 'private, max-age=600')
        .header('etag', `"${key}-${size}"`)
        .header('cross-origin-resource-policy', 'same-origin');

      const range = request.headers.range;
      if (!range) return reply.header('content-length', size).send(storage.read(key));
      const span = byteRange(range, size);
      if (!span) return reply.status(416).header('content-range', `bytes */${size}`).send();
      return reply
        .status(206)
        .header('content-range', `bytes ${span.start}-${span.end}/${size}`)
        .header('content-length', span.end - span.start + 1)
        .send(storage.read(key, span));
    },
  );
}
