/**
 * Serves the built single-page app: its files from memory (hashed assets with long caching, and the
 * .br/.gz copies the build wrote beside them, by Accept-Encoding), the public pages as prepared HTML (features/prerender),
 * index.html for every other page route from memory, already compressed, and a real 404 (logged)
 * for paths the app does not know.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { isKnownPageRoute, isNoIndexPage, isSharedEntryPage } from '#shared/routes.ts';
import { AppError } from '#server/errors.ts';
import type { PagePreparer } from '#server/features/prerender/prepared-pages.ts';
import { sendPrepared } from '#server/prepared-response.ts';
import { isHashedAsset, loadStaticFiles, type StaticFile } from '#server/static-files.ts';
import { loggedRoute } from '#server/request-log.ts';
import type { LaneLookup } from '#server/prepared-lane.ts';
import { dropDocumentHeaders } from '#server/security-headers.ts';

/** Returns the build's files for the prepared lane (prepared-lane.ts); hashed ones are not counted by the global brake. */
export function registerWebApp(app: FastifyInstance, { distDir, pages }: { distDir: string; pages?: PagePreparer }): LaneLookup {
  // Every file of the build, from memory with the build's compressed copies (static-files.ts); HEAD is
  // answered by Fastify from GET. The app shell is the same prepared index.html, read once.
  const files = existsSync(join(distDir, 'index.html')) ? loadStaticFiles(distDir) : new Map<string, StaticFile>();
  for (const [path, file] of files) {
    const asset = isHashedAsset(path);
    app.get(path, { schema: { hide: true } }, (request, reply) => {
      if (asset) dropDocumentHeaders(reply);
      return sendPrepared(request, reply, file.prepared, file.cacheControl);
    });
  }
  const indexHtml = files.get('/index.html')?.prepared;

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (path.startsWith('/api/') || path.startsWith('/media/') || !wantsPage || !indexHtml) {
      // The redacted route, as every request line says it: a path can carry a token (issue 33, row 9).
      request.log.info({ route: loggedRoute(request), method: request.method }, 'not found');
      throw new AppError('not-found', 'Not found.', 404);
    }
    const known = isKnownPageRoute(path);
    if (!known) {
      request.log.warn({ route: loggedRoute(request) }, '404 unknown page route');
      return sendPrepared(request, reply.status(404), indexHtml, 'no-cache');
    }
    if (isNoIndexPage(path)) reply.header('x-robots-tag', 'noindex, nofollow');
    if (isSharedEntryPage(path)) return sendPrepared(request, reply.header('referrer-policy', 'no-referrer'), indexHtml, 'no-store');
    return pages?.page(path).then((page) => sendPrepared(request, reply, page ?? indexHtml, 'no-cache')) ?? sendPrepared(request, reply, indexHtml, 'no-cache');
  });
  return (target) => {
    const file = files.get(target);
    const asset = isHashedAsset(target);
    return file && { route: target, prepared: file.prepared, cacheControl: file.cacheControl, uncounted: asset, asset };
  };
}
