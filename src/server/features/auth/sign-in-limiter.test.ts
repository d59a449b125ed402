import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createSignInLimiter, SIGN_IN_WINDOW_MS } from '#server/features/auth/sign-in-limiter.ts';
import { createDatabaseRateLimitStore, createRedisRateLimitStore } from '#server/features/security/rate-limit-store.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';

describe('sign-in limiter on the database store (fake clock)', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
  });
  afterAll(() => database.close());

  it('blocks after 10 failures and releases when the 5-minute window has passed', async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const limiter = createSignInLimiter(createDatabaseRateLimitStore(database.db, () => now), () => now);
    for (let i = 0; i < 9; i += 1) await limiter.recordFailure('a@b.co', '1.1.1.1');
    expect(await limiter.check('a@b.co', '1.1.1.1')).toEqual({ blocked: false });
    await limiter.recordFailure('A@B.co', '1.1.1.1');
    expect(await limiter.check('a@b.co', '2.2.2.2')).toEqual({ blocked: true, retryAfterSeconds: 300 });
    now += 120_000;
    expect(await limiter.check('a@b.co', '2.2.2.2')).toEqual({ blocked: true, retryAfterSeconds: 180 });
    now += SIGN_IN_WINDOW_MS - 120_000;
    expect(await limiter.check('a@b.co', '1.1.1.1')).toEqual({ blocked: false });
    // A new window starts from one.
    expect(await limiter.recordFailure('a@b.co', '1.1.1.1')).toBe(1);
  });

  it('a success clears the account counter but not the IP counter', async () => {
    const now = Date.UTC(2026, 0, 2);
    const limiter = createSignInLimiter(createDatabaseRateLimitStore(database.db, () => now), () => now);
    for (let i = 0; i < 10; i += 1) await limiter.recordFailure('c@d.co', '3.3.3.3');
    await limiter.recordSuccess('c@d.co', '4.4.4.4');
    expect(await limiter.check('c@d.co', '4.4.4.4')).toEqual({ blocked: false });
    expect((await limiter.check('other@d.co', '3.3.3.3')).blocked).toBe(true);
  });
});

describe('sign-in limiter on Redis (shared between processes)', () => {
  let redisA: Redis | undefined;
  let redisB: Redis | undefined;
  let available = false;
  beforeAll(async () => {
    const probe = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
    try {
      await probe.connect();
      await probe.ping();
      available = true;
      redisA = probe;
      redisB = probe.duplicate();
    } catch {
      probe.disconnect();
    }
  });
  afterAll(async () => {
    await redisA?.quit();
    await redisB?.quit();
  });

  it('counts failures from two processes against one limit', async (ctx) => {
    if (!available) ctx.skip();
    const prefix = `hm:test:${Date.now()}:`;
    const processA = createSignInLimiter(createRedisRateLimitStore(redisA!, prefix));
    const processB = createSignInLimiter(createRedisRateLimitStore(redisB!, prefix));
    for (let i = 0; i < 5; i += 1) await processA.recordFailure('r@s.co', '5.5.5.5');
    for (let i = 0; i < 5; i += 1) await processB.recordFailure('r@s.co', '6.6.6.6');
    const state = await processA.check('r@s.co', '7.7.7.7');
    expect(state.blocked).toBe(true);
    if (state.blocked) expect(state.retryAfterSeconds).toBeLessThanOrEqual(300);
    await processB.recordSuccess('r@s.co', '6.6.6.6');
    expect(await processA.check('r@s.co', '7.7.7.7')).toEqual({ blocked: false });
  });
});
