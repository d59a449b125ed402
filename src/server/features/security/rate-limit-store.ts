/**
 * Fixed-window counters for server-side rate limits. In the database by default (atomic upsert,
 * shared by every process on the same database), in Redis when REDIS_URL is set.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { ERROR_TEXT } from '#shared/error-text.ts';
import type { Database } from '#server/db/client.ts';
import { rateLimits } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';

type WindowCount = { count: number; resetAt: number };

export type RateLimitStore = {
  /** Counts one event in the key's current window and returns the new count. */
  hit(key: string, windowMs: number, ipAddress?: string): Promise<WindowCount>;
  /** The key's count in its current window (0 when the window has passed). */
  peek(key: string): Promise<WindowCount>;
  reset(key: string): Promise<void>;
  /** Takes back one event counted by hit() (an attempt that turned out not to count), never below 0. */
  release(key: string): Promise<void>;
};

/** How many events one key may count in a window. */
type RateRule = { perWindow: number; windowMs: number };

/**
 * Counts one request against `rule` for `key`; past its count, refuses it with the spec's
 * rate-limit error (429) and a Retry-After of the window's length.
 */
export async function enforceRateLimit(limits: RateLimitStore, reply: FastifyReply, key: string, ip: string, rule: RateRule): Promise<void> {
  const { count } = await limits.hit(key, rule.windowMs, ip);
  if (count > rule.perWindow) {
    reply.header('retry-after', String(Math.ceil(rule.windowMs / 1000)));
    throw new AppError('rate-limit/exceeded', ERROR_TEXT['rate-limit/exceeded']);
  }
}

export function createDatabaseRateLimitStore(db: Database, now: () => number = Date.now): RateLimitStore {
  return {
    async hit(key, windowMs, ipAddress) {
      const current = new Date(now());
      const resetAt = new Date(now() + windowMs);
      const [row] = await db
        .insert(rateLimits)
        .values({ key, count: 1, resetAt, ipAddress })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${rateLimits.resetAt} <= ${current.toISOString()}::timestamptz then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${rateLimits.resetAt} <= ${current.toISOString()}::timestamptz then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt });
      return { count: row.count, resetAt: row.resetAt.getTime() };
    },
    async peek(key) {
      const row = (await db.select().from(rateLimits).where(eq(rateLimits.key, key))).at(0);
      if (!row || row.resetAt.getTime() <= now()) return { count: 0, resetAt: now() };
      return { count: row.count, resetAt: row.resetAt.getTime() };
    },
    async reset(key) {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
    async release(key) {
      await db
        .update(rateLimits)
        .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
        .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, new Date(now()))));
    },
  };
}

export function createRedisRateLimitStore(redis: Redis, prefix = 'hm:rl:'): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const k = prefix + key;
      const result = await redis.multi().incr(k).pexpire(k, windowMs, 'NX').pttl(k).exec();
      const count = Number(result?.[0]?.[1] ?? 1);
      const ttl = Number(result?.[2]?.[1] ?? windowMs);
      return { count, resetAt: Date.now() + Math.max(0, ttl) };
    },
    async peek(key) {
      const k = prefix + key;
      const [count, ttl] = await Promise.all([redis.get(k), redis.pttl(k)]);
      if (!count || ttl <= 0) return { count: 0, resetAt: Date.now() };
      return { count: Number(count), resetAt: Date.now() + ttl };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async release(key) {
      // Decrement only a live counter above zero (an expired key must not come back as -1).
      await redis.eval("local v = tonumber(redis.call('GET', KEYS[1]) or '0') if v > 0 then redis.call('DECR', KEYS[1]) end return 0", 1, prefix + key);
    },
  };
}
