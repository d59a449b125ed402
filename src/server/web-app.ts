/**
 * Serves the built single-page app: hashed assets with long caching, index.html for every page
 * route, and a real 404 (logged) for paths the app does not know.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isKnownPageRoute } from '#shared/routes.ts';
import { AppError } from '#server/errors.ts';

export async function registerWebApp(app: FastifyInstance, { distDir }: { distDir: string }): Promise<void> {
  const indexPath = join(distDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  const indexHtml = hasBuild ? readFileSync(indexPath, 'utf8') : undefined;

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
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
    return reply
      .status(known ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
}
