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
import { createRequire } from 'node:module';
import { isIPv6 } from 'node:net';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Address6 } from 'ip-address';
import { Redis } from 'ioredis';
import type { Config } from '#server/config.ts';
import { AppError } from '#server/errors.ts';
import { isHashedAsset } from '#server/static-files.ts';

const WINDOW_MS = 60_000;
const LOG_EVERY_MS = 5000;

// The plugin's own stores (CommonJS, untyped paths): the brake holds its store, so the prepared
// lane (prepared-lane.ts) counts in the very same counters as the plugin's hook.
const require = createRequire(import.meta.url);
type StoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => FastifyRateLimitStore;
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as StoreCtor;
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as StoreCtor;

/** IPv6 clients are counted by /64 (one household or machine holds a whole /64), IPv4 by address. */
const IPV6_GROUP_BITS = 64;

/** The counter a client address is counted under (the plugin's default key, made here so the lane uses it too). */
function brakeKey(ip: string): string {
  if (!isIPv6(ip)) return ip.toLowerCase();
  const address = new Address6(ip);
  if (address.isMapped4()) return address.to4().correctForm();
  return new Address6(`${ip}/${IPV6_GROUP_BITS}`).startAddress().correctForm();
}

/** The X-RateLimit-* headers a counted request carries (a flat name, value list), or that Fastify's path must answer it. */
type BrakeVerdict = { pass: true; headers: string[] } | { pass: false };

/**
 * The brake as a function, for requests answered before Fastify's hooks (prepared-lane.ts). `done`
 * is called once: at once with the in-memory counters, when Redis answers otherwise.
 */
export type GlobalBrake = { count(ip: string, done: (verdict: BrakeVerdict) => void): void };

const PASS_UNCOUNTED: BrakeVerdict = { pass: true, headers: [] };
const REFER: BrakeVerdict = { pass: false };

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
): Promise<GlobalBrake | undefined> {
  const { perMinute, allowIps } = config.globalRateLimit;
  if (perMinute <= 0) return undefined;
  const allowed = new Set(allowIps);
  // One log line per interval, with the count: a flood must not turn into a flood of log lines.
  let refused = 0;
  let lastLog = 0;
  const store = redis ? new RedisStore(false, false, redis, 'hm:global-limit:') : new LocalStore(false, false, 20_000);
  await app.register(rateLimit, {
    // Not per route (404s and page routes would escape): one application-wide hook below.
    global: false,
    max: perMinute,
    timeWindow: WINDOW_MS,
    // request.ip honours TRUST_PROXY_HOPS; IPv6 clients are grouped by /64 (the plugin's default).
    allowList: (request, key) => allowed.has(request.ip) || allowed.has(key) || isHashedAsset(request.routeOptions.url),
    keyGenerator: (request) => brakeKey(request.ip),
    // A constructor that returns the brake's own store: the plugin and the lane share its counters.
    store: function SharedStore() {
      return store;
    } as unknown as new () => FastifyRateLimitStore,
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
  const limitHeader = String(perMinute);
  return {
    count(ip, done) {
      const key = brakeKey(ip);
      if (allowed.has(ip) || allowed.has(key)) {
        done(PASS_UNCOUNTED);
        return;
      }
      store.incr(
        key,
        (error, result) => {
          // Over the limit, or a counter that could not be read: Fastify's path answers (and refuses, logs or skips as the plugin does).
          if (error || !result || result.current > perMinute) done(REFER);
          else done({ pass: true, headers: ['x-ratelimit-limit', limitHeader, 'x-ratelimit-remaining', String(perMinute - result.current), 'x-ratelimit-reset', String(Math.ceil(result.ttl / 1000))] });
        },
        WINDOW_MS,
        perMinute,
      );
    },
  };
}
