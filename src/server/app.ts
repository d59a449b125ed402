/**
 * buildApp(config): plugins, then every feature's routes. Tests call it with their own database.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { JSON_BODY_LIMIT_BYTES } from '#shared/constants.ts';
import type { Config } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { installErrorHandler } from '#server/errors.ts';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createAuth, type Auth } from '#server/auth.ts';
import { authRoutes } from '#server/features/auth/auth.routes.ts';
import { createSignInLimiter } from '#server/features/auth/sign-in-limiter.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { createDatabaseRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { createMailer } from '#server/mail.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { createAppStoreBilling, loadRootCertificates } from '#server/features/billing/app-store-billing.ts';
import { iapRoutes } from '#server/features/billing/iap.routes.ts';
import { favouritesRoutes } from '#server/features/favourites/favourites.routes.ts';
import { practiceRoutes } from '#server/features/practice/practice.routes.ts';
import { billingRoutes } from '#server/features/billing/billing.routes.ts';
import { createStripeBilling, createStripeClient } from '#server/features/billing/stripe-billing.ts';
import { createMediaSigner } from '#server/features/media/media-signing.ts';
import { mediaRoutes } from '#server/features/media/media.routes.ts';
import { metricsRoutes } from '#server/features/metrics/metrics.routes.ts';
import { adminMeditationRoutes } from '#server/features/admin/admin-meditations.routes.ts';
import { adminRoutes } from '#server/features/admin/admin.routes.ts';
import { waitlistRoutes } from '#server/features/waitlist/waitlist.routes.ts';
import type { MediaStorage } from '#server/media-storage.ts';
import { openMediaStorage } from '#server/runtime.ts';
import { catalogueRoutes } from '#server/features/catalogue/catalogue.routes.ts';
import { healthRoutes } from '#server/features/health/health.routes.ts';
import { registerSecurityHeaders } from '#server/security-headers.ts';
import { registerWebApp } from '#server/web-app.ts';

export type AppDeps = { config: Config; database: DatabaseHandle; storage?: MediaStorage; logger?: boolean | object };

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** The better-auth instance, for feature routes' requireUser/requireRole hooks. */
    auth: Auth;
  }
}

/** Logs never carry query strings (reset and verification tokens travel there) or cookies. */
const requestSerializer = (req: { method: string; url: string; ip?: string }) => ({
  method: req.method,
  url: req.url.split('?')[0],
  ip: req.ip,
});

export async function buildApp({ config, database, storage = openMediaStorage(config), logger }: AppDeps): Promise<App> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel, serializers: { req: requestSerializer } },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Behind N proxies the client is N hops back in X-Forwarded-For; with none, the header is ignored (it could be forged).
    trustProxy: config.trustProxyHops > 0 ? (_address: string, hop: number) => hop < config.trustProxyHops : false,
    disableRequestLogging: config.nodeEnv === 'test',
  });
  installErrorHandler(app);
  await registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });

  healthRoutes(app, { database });
  metricsRoutes(app, { token: config.metricsToken });

  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'outbox'), log: app.log });
  const authSecret = loadOrCreateSecret(config.dataDir, 'auth-secret', config.authSecret);
  const auth = createAuth({
    config,
    db: database.db,
    mailer,
    secret: authSecret,
    log: app.log,
    onMailFailure: (kind, email) =>
      void logSecurityEvent({ db: database.db, eventType: 'mail_delivery_failed', severity: 'medium', userEmail: email, details: { kind } }).catch(() => {}),
  });
  app.decorate('auth', auth);
  const rateLimitStore = createRateLimitStore(app, config.redisUrl, database);
  await authRoutes(app, { auth, db: database.db, limiter: createSignInLimiter(rateLimitStore), publicUrl: config.publicUrl });
  catalogueRoutes(app, { db: database.db });

  const stripe = config.stripe
    ? createStripeBilling({ config: config.stripe, stripe: createStripeClient(config.stripe), db: database.db, publicUrl: config.publicUrl })
    : undefined;
  await billingRoutes(app, { auth, db: database.db, stripe });
  const appStore = config.appStore
    ? createAppStoreBilling({ config: config.appStore, db: database.db, rootCertificates: loadRootCertificates(config.appStore.rootCaFiles) })
    : undefined;
  iapRoutes(app, { auth, db: database.db, appStore });
  // Media URLs are signed with a key derived from the auth secret: one secret to share between processes.
  mediaRoutes(app, { auth, db: database.db, storage, signer: createMediaSigner(`media:${authSecret}`, Date.now, config.mediaUrlTtlSeconds) });
  practiceRoutes(app, { auth, db: database.db });
  favouritesRoutes(app, { auth, db: database.db });
  // Sandbox billing (no Stripe keys) is also when the admin test tools are allowed.
  const sandbox = !config.stripe;
  waitlistRoutes(app, { auth, db: database.db, limits: rateLimitStore, sandbox });
  adminRoutes(app, { auth, db: database.db, limits: rateLimitStore, sandbox });
  await adminMeditationRoutes(app, { auth, db: database.db, storage, dataDir: config.dataDir });

  await registerWebApp(app, { distDir: config.webDistDir });
  return app;
}

/** Redis when configured (counters shared by every process), the database otherwise. */
function createRateLimitStore(app: App, redisUrl: string | undefined, database: DatabaseHandle): RateLimitStore {
  if (!redisUrl) return createDatabaseRateLimitStore(database.db);
  const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on('error', (error) => app.log.warn({ err: { message: error.message } }, 'redis error'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return createRedisRateLimitStore(redis);
}
