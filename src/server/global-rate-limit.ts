/**
 * The global brake (issue 13, item 6): requests per minute per client address over the whole app,
 * far above what a person using it ever sends, so one client (a scraper, a runaway script, a flood)
 * cannot take the server from everyone else. The tight limits on sign-in, sign-up, the waitlist and
 * role changes stay where they are; this one only stops volume.
 *
 * - Counted: every request (API, signed media, pages, the 404s scanners produce), before any hook
 *   reads its path or the database. Not counted: hashed build files under /assets/ (immutable, a
 *   page load fetches a dozen, a browser caches them for a year) and the addresses listed in
 *   GLOBAL_RATE_LIMIT_ALLOW_IPS. Nothing else is exempt, loopback included: a benchmark or a test
 *   that sends more must say so (scripts/bench/catalogue.ts does, and prints it).
 * - Counters live in Redis when REDIS_URL is set (shared by every process behind the load balancer),
 *   in process memory otherwise (one process on the embedded default).
 * - A Redis that is down (or not yet connected, just after start) never blocks a request: the client
 *   fails fast and the brake lets the request through uncounted (skipOnError); the readiness check
 *   reports Redis as failing meanwhile.
 *
 * docs/decisions/0011-load-shedding-and-global-limit.md weighs the numbers.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '#server/config.ts';
import { AppError } from '#server/errors.ts';

const WINDOW_MS = 60_000;
const LOG_EVERY_MS = 5000;

/** Build files with a content hash in their name, served from memory as one route each (static-files.ts). */
const isHashedAsset = (route: string | undefined) => route !== undefined && route.startsWith('/assets/');

/**
 * A Redis connection that never makes a request wait: no offline queue (a command while disconnected
 * fails at once), a short connect timeout, one retry. For the global brake and the readiness probe.
 */
export function openFailFastRedis(app: FastifyInstance, url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, connectTimeout: 1000, maxRetriesPerRequest: 1, commandTimeout: 1000 });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // One line per distinct error, not one per reconnection attempt.
    if (error.message !== lastError) app.log.warn({ err: { message: error.message } }, 'redis (global limit, readiness) error');
    lastError = error.message;
  });
  redis.on('ready', () => (lastError = ''));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/** Registers the brake as the first counting hook; call before any route is registered. */
export async function registerGlobalRateLimit(
  app: FastifyInstance,
  { config, redis }: { config: Pick<Config, 'globalRateLimit'>; redis?: Redis },
): Promise<void> {
  const { perMinute, allowIps } = config.globalRateLimit;
  if (perMinute <= 0) return;
  const allowed = new Set(allowIps);
  // One log line per interval, with the count: a flood must not turn into a flood of log lines.
  let refused = 0;
  let lastLog = 0;
  await app.register(rateLimit, {
    // Not per route (404s and page routes would escape): one application-wide hook below.
    global: false,
    max: perMinute,
    timeWindow: WINDOW_MS,
    // request.ip honours TRUST_PROXY_HOPS; IPv6 clients are grouped by /64 (the plugin's default).
    allowList: (request, key) => allowed.has(request.ip) || allowed.has(key) || isHashedAsset(request.routeOptions.url),
    ...(redis ? { redis, nameSpace: 'hm:global-limit:' } : { cache: 20_000 }),
    skipOnError: true,
    // Thrown by the plugin after it has set Retry-After and the X-RateLimit-* headers.
    errorResponseBuilder: () => new AppError('rate-limit/exceeded'),
    onExceeded: (request) => {
      refused += 1;
      if (Date.now() - lastLog < LOG_EVERY_MS) return;
      request.log.warn({ ip: request.ip, refused }, 'global rate limit exceeded');
      lastLog = Date.now();
      refused = 0;
    },
  });
  app.addHook('onRequest', app.rateLimit());
}
