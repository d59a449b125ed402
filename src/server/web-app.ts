/**
 * Serves the built single-page app: hashed assets with long caching (and the .br/.gz files the build
 * wrote beside them, by Accept-Encoding), index.html for every page route from memory, already
 * compressed, and a real 404 (logged) for paths the app does not know.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isKnownPageRoute } from '#shared/routes.ts';
import { AppError } from '#server/errors.ts';
import { prepareBytes, sendPrepared } from '#server/prepared-response.ts';

export async function registerWebApp(app: FastifyInstance, { distDir }: { distDir: string }): Promise<void> {
  const indexPath = join(distDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  const indexHtml = hasBuild ? await prepareBytes(readFileSync(indexPath), 'text/html; charset=utf-8') : undefined;

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(join(distDir, 'assets'));
        // The service worker and its manifest must be re-checked on every visit so updates arrive.
        const alwaysFresh = /(?:^|[/\\])(?:sw\.js|registerSW\.js|manifest\.webmanifest|index\.html)$/.test(filePath);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : alwaysFresh ? 'no-cache' : 'public, max-age=300');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (path.startsWith('/api/') || path.startsWith('/media/') || !wantsPage || !indexHtml) {
      request.log.info({ path, method: request.method }, 'not found');
      throw new AppError('not-found', 'Not found.', 404);
    }
    const known = isKnownPageRoute(path);
    if (!known) request.log.warn({ path }, '404 unknown page route');
    return sendPrepared(request, reply.status(known ? 200 : 404), indexHtml, 'no-cache');
  });
}
