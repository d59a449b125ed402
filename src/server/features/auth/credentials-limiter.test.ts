import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createCredentialsLimiter, requestRules, SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS, type CredentialsLimiter, type CredentialsRequest } from '#server/features/auth/credentials-limiter.ts';
import { createDatabaseRateLimitStore, createRedisRateLimitStore } from '#server/features/security/rate-limit-store.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { createTestDatabase, testDatabaseKinds } from '#tests/setup/test-db.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';

/** The default sign-in request backstop (config.ts). */
const RULES = { signInRequestsPerMinute: 30 };

async function fail(limiter: CredentialsLimiter, email: string, ip: string) {
  const attempt = await limiter.begin(email, ip);
  if (!attempt.allowed) return 'blocked';
  return attempt.failed();
}

describe('sign-in limiter on the database store (fake clock)', () => {
  const database = openForSuite(() => createTestDatabase('pglite'));

  it('judges 10 attempts, refuses the 11th, and opens again when the 5-minute window has passed', async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const limiter = createCredentialsLimiter(createDatabaseRateLimitStore(database.db, () => now), RULES, () => now);
    for (let i = 1; i <= 9; i += 1) expect(await fail(limiter, 'a@b.co', '1.1.1.1')).toBe(i);
    expect(await fail(limiter, 'A@B.co', '1.1.1.1')).toBe(10);
    expect(await limiter.begin('a@b.co', '2.2.2.2')).toEqual({ allowed: false, retryAfterSeconds: 300 });
    now += 120_000;
    expect(await limiter.begin('a@b.co', '2.2.2.2')).toEqual({ allowed: false, retryAfterSeconds: 180 });
    now += SIGN_IN_WINDOW_MS - 120_000;
    // A new window starts from one.
    expect(await fail(limiter, 'a@b.co', '1.1.1.1')).toBe(1);
  });

  it('a success clears the account counter and returns its place on the IP counter', async () => {
    const now = Date.UTC(2026, 0, 2);
    const limiter = createCredentialsLimiter(createDatabaseRateLimitStore(database.db, () => now), RULES, () => now);
    for (let i = 0; i < 9; i += 1) await fail(limiter, 'c@d.co', '3.3.3.3');
    const ok = await limiter.begin('c@d.co', '3.3.3.3');
    if (!ok.allowed) throw new Error('should be allowed');
    await ok.succeeded();
    // Nine failures remain on the IP: one more failure is judged, then the IP is closed for every account.
    expect(await fail(limiter, 'other@d.co', '3.3.3.3')).toBe(10);
    expect((await limiter.begin('third@d.co', '3.3.3.3')).allowed).toBe(false);
    // The account itself starts afresh from another address.
    expect(await fail(limiter, 'c@d.co', '4.4.4.4')).toBe(1);
  });

  it('an attempt that was never judged gives both places back', async () => {
    const now = Date.UTC(2026, 0, 3);
    const limiter = createCredentialsLimiter(createDatabaseRateLimitStore(database.db, () => now), RULES, () => now);
    for (let i = 0; i < 30; i += 1) {
      const attempt = await limiter.begin('e@f.co', '5.5.5.5');
      if (!attempt.allowed) throw new Error(`refused after ${i}`);
      await attempt.notCounted();
    }
    expect(await fail(limiter, 'e@f.co', '5.5.5.5')).toBe(1);
  });

  it.each<CredentialsRequest>(['sign-in', 'sign-up', 'reset-mail', 'verification-mail'])('counts %s requests per IP, each kind on its own counter, until its window passes', async (kind) => {
    let now = Date.UTC(2026, 0, 4);
    const limiter = createCredentialsLimiter(createDatabaseRateLimitStore(database.db, () => now), RULES, () => now);
    const rule = requestRules(RULES.signInRequestsPerMinute)[kind];
    const ip = `6.6.6.${String(['sign-in', 'sign-up', 'reset-mail', 'verification-mail'].indexOf(kind))}`;
    for (let i = 0; i < rule.perWindow; i += 1) expect(await limiter.request(kind, ip)).toEqual({ allowed: true });
    expect(await limiter.request(kind, ip)).toEqual({ allowed: false, retryAfterSeconds: rule.windowMs / 1000 });
    // Another address, and another kind from the same address, are not held back.
    expect(await limiter.request(kind, '7.7.7.7')).toEqual({ allowed: true });
    expect(await limiter.request(kind === 'sign-up' ? 'sign-in' : 'sign-up', ip)).toEqual({ allowed: true });
    // Nor are this address's password judgements: the request counters are not the failed-attempt ones.
    expect((await limiter.begin('g@h.co', ip)).allowed).toBe(true);
    now += rule.windowMs;
    expect(await limiter.request(kind, ip)).toEqual({ allowed: true });
  });
});

describe.each(testDatabaseKinds())('count first, then decide (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('lets at most 10 of 25 simultaneous attempts be judged', async () => {
    const limiter = createCredentialsLimiter(createDatabaseRateLimitStore(database.db), RULES);
    const attempts = await Promise.all(Array.from({ length: 25 }, () => limiter.begin('race@b.co', '9.9.9.9')));
    // The account and IP counters are taken in separate steps, so a few places can go to attempts refused by the other counter.
    const judged = attempts.filter((a) => a.allowed).length;
    expect(judged).toBeGreaterThan(0);
    expect(judged).toBeLessThanOrEqual(SIGN_IN_MAX_FAILURES);
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

  it('counts failures from two processes against one limit, and a success clears the account', async (ctx) => {
    if (!available) ctx.skip();
    const prefix = `hm:test:${Date.now()}:`;
    const processA = createCredentialsLimiter(createRedisRateLimitStore(redisA!, prefix), RULES);
    const processB = createCredentialsLimiter(createRedisRateLimitStore(redisB!, prefix), RULES);
    for (let i = 0; i < 5; i += 1) await fail(processA, 'r@s.co', '5.5.5.5');
    for (let i = 0; i < 5; i += 1) await fail(processB, 'r@s.co', '6.6.6.6');
    const state = await processA.begin('r@s.co', '7.7.7.7');
    expect(state.allowed).toBe(false);
    if (!state.allowed) expect(state.retryAfterSeconds).toBeLessThanOrEqual(300);
    const fromB = await processB.begin('r@s.co', '8.8.8.8');
    expect(fromB.allowed).toBe(false);
    // What a success does to the account counter, seen from the other process.
    await createRedisRateLimitStore(redisB!, prefix).reset('signin:account:r@s.co');
    const again = await processA.begin('r@s.co', '7.7.7.7');
    expect(again.allowed).toBe(true);
  });

  it('lets at most 10 of 25 simultaneous attempts through, across two processes', async (ctx) => {
    if (!available) ctx.skip();
    const prefix = `hm:test:race:${Date.now()}:`;
    const a = createCredentialsLimiter(createRedisRateLimitStore(redisA!, prefix), RULES);
    const b = createCredentialsLimiter(createRedisRateLimitStore(redisB!, prefix), RULES);
    const attempts = await Promise.all(Array.from({ length: 25 }, (_, i) => (i % 2 ? a : b).begin('race@r.co', `10.0.0.${i}`)));
    // Each attempt comes from its own IP, so only the account counter decides: exactly 10.
    expect(attempts.filter((x) => x.allowed)).toHaveLength(SIGN_IN_MAX_FAILURES);
  });
});
