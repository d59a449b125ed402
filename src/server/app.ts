/**
 * buildApp(config): plugins, then every feature's routes. Tests call it with their own database.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { APP_VERSION_LABEL, JSON_BODY_LIMIT_BYTES } from '#shared/constants.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { configWarnings, type Config } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { AppError, installErrorHandler, sendAppError } from '#server/errors.ts';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import { createAuth, type Auth } from '#server/auth.ts';
import { authRoutes } from '#server/features/auth/auth.routes.ts';
import { createCredentialsLimiter } from '#server/features/auth/credentials-limiter.ts';
import { authHooks } from '#server/features/auth/auth-hooks.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { createDatabaseRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { registerSecurityMonitor } from '#server/features/security/ip-block-guard.ts';
import { registerProbeLog } from '#server/features/security/probe-log.ts';
import { createMailer } from '#server/mail.ts';
import { startTrialReminders } from '#server/features/billing/trial-reminders.ts';
import { remindersRoutes } from '#server/features/reminders/reminders.routes.ts';
import { pushSenderFor, startReminderScheduler } from '#server/features/reminders/reminder-scheduler.ts';
import { reminderMailerFor } from '#server/features/reminders/reminder-mail.ts';
import { loadOrCreateSecret } from '#server/secrets.ts';
import { createAppStoreBilling, loadRootCertificates } from '#server/features/billing/app-store-billing.ts';
import { iapRoutes } from '#server/features/billing/iap.routes.ts';
import { createRevenueCatBilling } from '#server/features/billing/revenuecat-billing.ts';
import { revenueCatRoutes } from '#server/features/billing/revenuecat.routes.ts';
import { favouritesRoutes } from '#server/features/favourites/favourites.routes.ts';
import { practiceRoutes } from '#server/features/practice/practice.routes.ts';
import { accountDataRoutes } from '#server/features/account/account-data.routes.ts';
import { journalRoutes } from '#server/features/journal/journal.routes.ts';
import { journalShareRoutes } from '#server/features/journal/journal-share.routes.ts';
import { programmesRoutes } from '#server/features/programmes/programmes.routes.ts';
import { startShareSweeper } from '#server/features/journal/journal-share.service.ts';
import { billingRoutes } from '#server/features/billing/billing.routes.ts';
import { createStripeBilling, createStripeClient } from '#server/features/billing/stripe-billing.ts';
import { createMediaSigner } from '#server/features/media/media-signing.ts';
import { mediaRoutes } from '#server/features/media/media.routes.ts';
import { metricsRoutes } from '#server/features/metrics/metrics.routes.ts';
import { adminMeditationRoutes } from '#server/features/admin/admin-meditations.routes.ts';
import { adminRoutes } from '#server/features/admin/admin.routes.ts';
import { waitlistRoutes } from '#server/features/waitlist/waitlist.routes.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';
import { openMediaStorage } from '#server/startup.ts';
import { catalogueLaneLookup, catalogueRoutes } from '#server/features/catalogue/catalogue.routes.ts';
import { healthLaneLookup, healthRoutes } from '#server/features/health/health.routes.ts';
import { openApiRoutes } from '#server/openapi.ts';
import { appLinksRoutes } from '#server/features/native/app-links.routes.ts';
import { appleOnAndroidRoutes } from '#server/features/auth/apple-on-android.ts';
import { registerLoadShedding } from '#server/load-shedding.ts';
import { openFailFastRedis, registerGlobalRateLimit } from '#server/global-rate-limit.ts';
import { registerShutdownRefusal } from '#server/shutdown.ts';
import { registerSecurityHeaders } from '#server/security-headers.ts';
import { registerWebApp } from '#server/web-app.ts';
import { createPagePreparer } from '#server/features/prerender/prepared-pages.ts';
import { registerBodyDeadline, serverTimeoutOptions } from '#server/request-timeouts.ts';
import { registerCanonicalRequestTarget } from '#server/request-target.ts';
import { registerCsrfGuard } from '#server/csrf-guard.ts';
import { registerNativeCors } from '#server/native-cors.ts';
import { installApiContracts } from '#server/api-contracts.ts';
import { loggedRoute, OneLineRequestLog, redactPath, requestLogSerializers } from '#server/request-log.ts';
import { AUTH_BASE_PATH } from '#server/features/auth/auth-endpoints.ts';
import { appleSignInFor, startAppleRevocations, type AppleSignIn } from '#server/features/auth/apple-revocations.ts';
import { tokenSealer } from '#server/features/auth/apple-tokens.ts';
import { sealStoredProviderTokens } from '#server/features/auth/stored-tokens.ts';
import { CATALOGUE_CHANNEL, createCatalogueCache, type CatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';
import fastifyCompress from '@fastify/compress';
import proxyAddr from '@fastify/proxy-addr';
import { createServer, type IncomingMessage } from 'node:http';
import { createPreparedLane, type PreparedLane } from '#server/prepared-lane.ts';

export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  storage?: MediaStorage;
  logger?: boolean | object;
  /**
   * The background jobs every process runs (trial-ending e-mails, daily reminders). On unless set to
   * false: route tests leave them off, so no timer of theirs runs a query beside the test's own.
   */
  schedulers?: boolean;
};

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** The better-auth instance, for feature routes' requireUser/requirePolicy hooks. */
    auth: Auth;
    /** The prepared lane in front of Fastify (prepared-lane.ts); tests switch it off to compare. */
    preparedLane: PreparedLane;
  }
}

/** Behind N proxies the client is N hops back in X-Forwarded-For; with none, the header is ignored (it could be forged). */
function trustedProxies(hops: number): false | ((address: string, hop: number) => boolean) {
  return hops > 0 ? (_address: string, hop: number) => hop < hops : false;
}

export async function buildApp({ config, database, storage = openMediaStorage(config), logger, schedulers = true }: AppDeps): Promise<App> {
  const trustProxy = trustedProxies(config.trustProxyHops);
  const lane = createPreparedLane();
  const app = Fastify({
    // Tests may pass their own level and stream; the serializers that keep secrets out always apply.
    logger: logger === false ? false : { level: config.logLevel, ...(typeof logger === 'object' ? logger : {}), serializers: requestLogSerializers },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Errors Fastify answers before routing (bad percent-encoding, an overlong parameter) in the app's error shape.
    frameworkErrors: (error, _request, reply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void sendAppError(reply, new AppError('validation/invalid-input', ERROR_TEXT['validation/invalid-input'], status));
    },
    trustProxy,
    logController: new OneLineRequestLog({ disableRequestLogging: config.nodeEnv === 'test' && typeof logger !== 'object' }),
    // Slow clients must not hold connections: REQUEST_TIMEOUT_SECONDS, UPLOAD_TIMEOUT_SECONDS.
    ...serverTimeoutOptions(config),
    // Requests that arrive while draining are refused by shutdown.ts, in the app's error shape.
    return503OnClosing: false,
    // Fastify's own HTTP/1 server, with the prepared lane in front of its handler.
    serverFactory: (handler, options) => {
      // As Fastify sets up its own (fastify/lib/server.js), from the options it was given.
      const server = createServer(options.http ?? {}, lane.handler(handler));
      server.keepAliveTimeout = Number(options.keepAliveTimeout ?? 72_000);
      server.requestTimeout = Number(options.requestTimeout ?? 0);
      server.setTimeout(Number(options.connectionTimeout ?? 0));
      return server;
    },
  });
  app.decorate('preparedLane', lane);
  app.addHook('onClose', (_instance, done) => {
    lane.close();
    done();
  });
  // Before any hook that may answer early: a refused request's body still has to arrive in time.
  registerBodyDeadline(app, config);
  installErrorHandler(app);
  // The cheapest refusals, before any hook reads the path or the database (issue 13, item 6):
  // draining, load shedding, the global per-IP brake. One fail-fast Redis serves the brake and /api/ready.
  const failFastRedis = config.redisUrl ? openFailFastRedis(app, config.redisUrl) : undefined;
  const shutdown = registerShutdownRefusal(app);
  await registerLoadShedding(app, config);
  const brake = await registerGlobalRateLimit(app, { config, redis: failFastRedis });
  // First of all hooks: nothing downstream may see a path that another reader would read differently.
  registerCanonicalRequestTarget(app, {
    onRefused: async (request, normalised) => {
      if (!normalised.startsWith(`${AUTH_BASE_PATH}/`)) return;
      await logSecurityEvent({ db: database.db, eventType: 'lockout_bypass_attempt', severity: 'critical', ipAddress: request.ip, details: { method: request.method, route: redactPath(normalised) } });
    },
  });
  await registerNativeCors(app);
  registerCsrfGuard(app, {
    publicUrl: config.publicUrl,
    onRejected: (request) =>
      logSecurityEvent({ db: database.db, eventType: 'csrf_rejected', severity: 'high', ipAddress: request.ip, details: { method: request.method, route: loggedRoute(request), origin: request.headers.origin ?? null } }),
  });
  // Before every route: blocked IPs are refused sign-in, sign-up, admin setup and role changes.
  registerSecurityMonitor(app, { db: database.db });
  // Probing (staff routes by members, injection-shaped refusals, bulk reads) in the Security Log, aggregated.
  registerProbeLog(app, { db: database.db });
  const securityHeaders = registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });
  // Responses over 1 KB go out compressed when the client accepts it (brotli at a speed-minded
  // quality, or gzip); prepared answers and pre-compressed assets arrive already encoded and pass
  // through. Request bodies are never inflated: an upload or a JSON body is read as sent, within
  // its byte limit, never a small zip that expands past it.
  await app.register(fastifyCompress, { global: true, threshold: 1024, globalDecompression: false });
  // Before the routes: every route's schema is compiled by the zod contracts and collected for OpenAPI.
  await installApiContracts(app, { version: APP_VERSION_LABEL });

  healthRoutes(app, { database, storage, redis: failFastRedis });
  openApiRoutes(app);
  appLinksRoutes(app, { appLinks: config.appLinks });
  const observe = metricsRoutes(app, { token: config.metricsToken });

  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'outbox'), log: app.log });
  const authSecret = loadOrCreateSecret(config.dataDir, 'auth-secret', config.authSecret);
  const rateLimitStore = createRateLimitStore(app, config.redisUrl, database);
  // The hooks ask better-auth who is signed in, and use Apple's token exchange: both known once it is made.
  const appleRef: { current?: AppleSignIn } = {};
  const hooks = authHooks({
    db: database.db,
    credentials: createCredentialsLimiter(rateLimitStore, config),
    sessionOf: (headers) => auth.api.getSession({ headers }),
    apple: () => appleRef.current,
    log: app.log,
  });
  const auth = createAuth({
    config,
    db: database.db,
    mailer,
    secret: authSecret,
    log: app.log,
    onMailFailure: (kind, email) =>
      void logSecurityEvent({ db: database.db, eventType: 'mail_delivery_failed', severity: 'medium', userEmail: email, details: { kind } }).catch(() => {}),
    hooks,
  });
  app.decorate('auth', auth);
  // Sign in with Apple's tokens, kept sealed to be revoked at account deletion (decision 0064).
  const apple = await appleSignInFor(config, auth);
  appleRef.current = apple;
  // Provider tokens stored before they were sealed are sealed once the app is ready, after the start's
  // migrations (same decision). A failure is logged and the tokens are sealed at the next start.
  const sealer = tokenSealer((await auth.$context).secretConfig);
  app.addHook('onReady', async () => {
    try {
      const sealed = await sealStoredProviderTokens({ db: database.db, sealer });
      if (sealed > 0) app.log.info({ sealed }, 'stored provider tokens sealed');
    } catch (error) {
      app.log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'stored provider tokens not sealed; the next start tries again');
    }
  });
  await authRoutes(app, { auth, db: database.db, hooks, publicUrl: config.publicUrl, googleClientId: config.oauth.google?.clientIds[0], googleIosClientId: config.oauth.google?.iosClientId });
  // Sign in with Apple on Android: Apple's page in the system browser, back to the app by App Link with a PKCE-bound code (decision 0071).
  appleOnAndroidRoutes(app, { auth, db: database.db, publicUrl: config.publicUrl, appleConfigured: config.oauth.apple !== undefined });
  const catalogue = await openCatalogueCache(app, database);
  catalogueRoutes(app, { db: database.db, cache: catalogue });

  const stripe = config.stripe
    ? createStripeBilling({ config: config.stripe, stripe: createStripeClient(config.stripe), db: database.db, publicUrl: config.publicUrl })
    : undefined;
  await billingRoutes(app, { auth, db: database.db, mode: config.billingMode, stripe, limits: rateLimitStore });
  const appStore = config.appStore
    ? createAppStoreBilling({ config: config.appStore, db: database.db, rootCertificates: loadRootCertificates(config.appStore.rootCaFiles) })
    : undefined;
  iapRoutes(app, { auth, db: database.db, appStore });
  revenueCatRoutes(app, { db: database.db, revenueCat: config.revenueCat ? createRevenueCatBilling({ config: config.revenueCat, db: database.db }) : undefined });
  // Media URLs are signed with a key derived from the auth secret: one secret to share between processes.
  mediaRoutes(app, { auth, db: database.db, storage, signer: createMediaSigner(`media:${authSecret}`, Date.now, config.mediaUrlTtlSeconds) });
  practiceRoutes(app, { auth, db: database.db });
  favouritesRoutes(app, { auth, db: database.db });
  accountDataRoutes(app, { auth, db: database.db, stripe, limits: rateLimitStore, mailer, publicUrl: config.publicUrl, apple });
  // Every process retries the revocations Apple has not taken yet; the database gives each to one of them.
  if (schedulers && apple?.key) {
    const stopRevocations = startAppleRevocations({ db: database.db, apple, log: app.log });
    app.addHook('onClose', async () => {
      await stopRevocations();
    });
  }
  journalRoutes(app, { auth, db: database.db });
  // One entry shared by link, sealed on the device (decision 0050); every process sweeps expired links.
  journalShareRoutes(app, { auth, db: database.db, limits: rateLimitStore });
  programmesRoutes(app, { auth, db: database.db });
  if (schedulers) {
    const stopSweeper = startShareSweeper({ db: database.db, log: app.log });
    app.addHook('onClose', async () => {
      await stopSweeper();
    });
  }
  // Only BILLING_MODE=sandbox serves the in-app checkout and the admin test tools (docs/decisions/0008-billing-mode.md).
  const sandbox = config.billingMode === 'sandbox';
  for (const warning of configWarnings(config)) app.log.warn(warning);
  waitlistRoutes(app, { auth, db: database.db, limits: rateLimitStore, sandbox });
  adminRoutes(app, { auth, db: database.db, limits: rateLimitStore, sandbox });
  await adminMeditationRoutes(app, { auth, db: database.db, storage, dataDir: config.dataDir, catalogue });

  // Every process runs the reminder job; the database gives each trial's e-mail to one of them.
  if (schedulers) {
    const stopTrialReminders = startTrialReminders({ db: database.db, mailer, publicUrl: config.publicUrl, log: app.log });
    app.addHook('onClose', async () => {
      await stopTrialReminders();
    });
  }

  // Daily reminders by Web Push (issue 20, item 4): every process runs the scheduler; the database gives each day's reminder to one of them.
  const pushSender = pushSenderFor(authSecret, config);
  // By e-mail too (issue 38, item 6): the turn-off links are signed with a key of their own purpose.
  const reminderMail = reminderMailerFor(authSecret, mailer, config.publicUrl);
  remindersRoutes(app, { auth, db: database.db, pushKey: pushSender.vapid.publicKey, offSecret: pushSender.offSecret, mailOffSecret: reminderMail.offSecret, extraPushOrigins: config.webPush.extraOrigins, publicUrl: config.publicUrl });
  if (schedulers) {
    const stopReminders = startReminderScheduler({ db: database.db, sender: pushSender, mail: reminderMail, log: app.log, everyMs: config.webPush.everySeconds * 1000 });
    app.addHook('onClose', async () => {
      await stopReminders();
    });
  }

  const pages = await createPagePreparer({ distDir: config.webDistDir, ssrDir: join(dirname(config.webDistDir), 'ssr'), db: database.db, cache: catalogue, log: app.log });
  const buildFiles = registerWebApp(app, { distDir: config.webDistDir, pages });
  lane.open({
    lookups: [catalogueLaneLookup(catalogue), healthLaneLookup, buildFiles],
    refusing: app.hasDecorator('isUnderPressure') ? () => shutdown.isClosing() || app.isUnderPressure() : shutdown.isClosing,
    clientIp: trustProxy ? (request: IncomingMessage) => proxyAddr(request, trustProxy) : (request: IncomingMessage) => request.socket.remoteAddress ?? '',
    brake,
    securityHeaders,
    observe,
    log: config.nodeEnv === 'test' && typeof logger !== 'object' ? undefined : app.log,
  });
  return app;
}

/**
 * The prepared catalogue, cleared whenever the catalogue tables change in any process: the
 * database's trigger NOTIFYs (migration 0006) and every process LISTENs.
 */
async function openCatalogueCache(app: App, database: DatabaseHandle): Promise<CatalogueCache> {
  const cache = createCatalogueCache();
  const unlisten = await database.listen(CATALOGUE_CHANNEL, () => cache.invalidate());
  app.addHook('onClose', async () => {
    await unlisten();
  });
  return cache;
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
