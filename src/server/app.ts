/**
 * buildApp(config): plugins, then every feature's routes. Tests call it with their own database.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { JSON_BODY_LIMIT_BYTES } from '#shared/constants.ts';
import type { Config } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { installErrorHandler } from '#server/errors.ts';
import { catalogueRoutes } from '#server/features/catalogue/catalogue.routes.ts';
import { healthRoutes } from '#server/features/health/health.routes.ts';
import { registerSecurityHeaders } from '#server/security-headers.ts';
import { registerWebApp } from '#server/web-app.ts';

export type AppDeps = { config: Config; database: DatabaseHandle; logger?: boolean | object };

export type App = FastifyInstance;

/** Logs never carry query strings (reset and verification tokens travel there) or cookies. */
const requestSerializer = (req: { method: string; url: string; ip?: string }) => ({
  method: req.method,
  url: req.url.split('?')[0],
  ip: req.ip,
});

export async function buildApp({ config, database, logger }: AppDeps): Promise<App> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, serializers: { req: requestSerializer } },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    trustProxy: false,
    disableRequestLogging: config.nodeEnv === 'test',
  });
  installErrorHandler(app);
  await registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });

  healthRoutes(app, { database });
  catalogueRoutes(app, { db: database.db });

  await registerWebApp(app, { distDir: config.webDistDir });
  return app;
}
