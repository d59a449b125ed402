/**
 * /api/ready (issue 13, item 7): ready with every dependency answering, and not-ready, naming the
 * check, for each way one can fail: a closed database, a pending migration, an unwritable media
 * folder, an unreachable bucket, an unreachable Redis, a check that hangs. No answer carries a
 * secret, a URL or a path.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ReadinessResponse } from '#shared/contracts/health.ts';
import { checkReadiness, migrationJournal, READY_CHECK_TIMEOUT_MS } from '#server/features/health/readiness.service.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';
import { startFakeS3 } from '#tests/fakes/fake-s3.ts';
import { redisAnswers } from '#tests/setup/redis.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { createTestDatabase, testDatabaseKinds } from '#tests/setup/test-db.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';

const LOCAL_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Nothing listens on port 1: connections are refused at once. */
const UNREACHABLE_REDIS = 'redis://:hunter2-secret@127.0.0.1:1';


let t: TestApp | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  t = undefined;
});

const ready = async (app: TestApp) => {
  const res = await app.app.inject({ method: 'GET', url: '/api/ready' });
  return { status: res.statusCode, body: res.json<ReadinessResponse>(), text: res.body, headers: res.headers };
};

/** Nothing an attacker could use: no connection string, credential, host path or error message. */
function expectNoSecrets(text: string, app: TestApp) {
  expect(text).not.toContain(app.dataDir);
  expect(text).not.toMatch(/postgres(ql)?:\/\/|redis:\/\/|hunter2|secret|password/i);
}

describe.each(testDatabaseKinds())('readiness on %s', (kind) => {
  // One database for the tests that undo what they break; the closed database has one of its own.
  const database = openForSuite(() => createTestDatabase(kind));

  it('is ready when the database, its migrations and the media folder all answer (Redis skipped when unset)', async () => {
    t = await createTestApp({ database });
    const { status, body, text, headers } = await ready(t);
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-store');
    expect(body.status).toBe('ready');
    expect(body.checks.database.status).toBe('ok');
    expect(body.checks.migrations).toMatchObject({ status: 'ok', applied: migrationJournal().length, pending: 0 });
    expect(body.checks.storage.status).toBe('ok');
    expect(body.checks.redis).toEqual({ status: 'skipped' });
    expectNoSecrets(text, t);
  });

  it('is not ready, and says migrations are pending, when the database lacks the last migration', async () => {
    t = await createTestApp({ database });
    // The last migration's record, put back afterwards.
    const removed = await t.database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning id, hash, created_at`);
    const [row] = z.object({ rows: z.array(z.object({ id: z.number(), hash: z.string(), created_at: z.union([z.string(), z.number()]) })) }).parse(removed).rows;
    onTestFinished(async () => {
      await database.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`);
    });
    const { status, body } = await ready(t);
    expect(status).toBe(503);
    expect(body.status).toBe('not-ready');
    expect(body.checks.migrations).toMatchObject({ status: 'fail', reason: 'pending', applied: migrationJournal().length - 1, pending: 1 });
    expect(body.checks.database.status).toBe('ok');
  });

  it('is not ready when the database was never migrated', async () => {
    t = await createTestApp({ database });
    // Drizzle's bookkeeping out of sight, as in a database no migration ever ran on; back afterwards.
    await t.database.db.execute(sql`alter schema drizzle rename to drizzle_hidden`);
    onTestFinished(async () => {
      await database.db.execute(sql`alter schema drizzle_hidden rename to drizzle`);
    });
    const { status, body } = await ready(t);
    expect(status).toBe(503);
    expect(body.checks.migrations).toMatchObject({ status: 'fail', reason: 'not-migrated', applied: 0, pending: migrationJournal().length });
  });

  it('is not ready when the database is closed (while /api/health, liveness, stays up)', async () => {
    const app = await createTestApp({ kind });
    try {
      const live = await app.app.inject({ method: 'GET', url: '/api/health' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      expect(live.headers['cache-control']).toBe('no-store');
      await app.database.close();
      const { status, body, text } = await ready(app);
      expect(status).toBe(503);
      expect(body.checks.database).toMatchObject({ status: 'fail' });
      expect(body.checks.migrations).toMatchObject({ status: 'fail', reason: 'database-unavailable' });
      expect(body.checks.storage.status).toBe('ok');
      expectNoSecrets(text, app);
      // A database outage is not a reason to restart every process: liveness stays up, readiness goes down.
      expect((await app.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.app.close();
      rmSync(app.dataDir, { recursive: true, force: true });
    }
  });
});

describe('readiness of media storage and Redis', () => {
  const s3 = openForSuite(() => startFakeS3('hm-media'));
  // Each test's app has its own configuration and DATA_DIR; none of them changes the database.
  const database = openForSuite(() => createTestDatabase('pglite'));

  it('is not ready when the media folder cannot be written (a file where the folder should be)', async () => {
    t = await createTestApp({ database });
    // chmod would not stop root (these tests may run as root): a file in the folder's place stops anyone.
    const folder = join(t.dataDir, 'media', 'meditations');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(join(t.dataDir, 'media'), { recursive: true });
    writeFileSync(folder, 'not a folder');
    const { status, body, text } = await ready(t);
    expect(status).toBe(503);
    expect(body.checks.storage.status).toBe('fail');
    expect(body.checks.storage.reason).toMatch(/^E[A-Z]+$/);
    expect(body.checks.database.status).toBe('ok');
    expectNoSecrets(text, t);
  });

  it('checks an S3 bucket by listing it: ready when it answers, not ready when the bucket is missing', async () => {
    const s3Env = { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'test-key', S3_SECRET_ACCESS_KEY: 'test-secret', S3_FORCE_PATH_STYLE: 'true' };
    t = await createTestApp({ database, env: { ...s3Env, S3_BUCKET: 'hm-media' } });
    expect((await ready(t)).body.checks.storage.status).toBe('ok');
    expect(s3.requests.some((r) => r.startsWith('GET /hm-media') && r.includes('max-keys=1'))).toBe(true);
    await t.close();

    t = await createTestApp({ database, env: { ...s3Env, S3_BUCKET: 'hm-missing' } });
    const { status, body, text } = await ready(t);
    expect(status).toBe(503);
    expect(body.checks.storage).toMatchObject({ status: 'fail', reason: 'NoSuchBucket' });
    expectNoSecrets(text, t);
  });

  it('is not ready when REDIS_URL is set and Redis cannot be reached, without naming the URL or its password', async () => {
    t = await createTestApp({ database, env: { REDIS_URL: UNREACHABLE_REDIS } });
    const { status, body, text } = await ready(t);
    expect(status).toBe(503);
    expect(body.checks.redis.status).toBe('fail');
    // Refused at once, not waited out: the answer names the refusal, not the check's time limit.
    expect(body.checks.redis.reason).not.toBe('timeout');
    expect(body.checks.database.status).toBe('ok');
    expectNoSecrets(text, t);
  });

  it('is ready with a Redis that answers PING', async ({ skip }) => {
    if (!(await redisAnswers(LOCAL_REDIS))) skip(`no Redis at ${LOCAL_REDIS}`);
    const app = await createTestApp({ database, env: { REDIS_URL: LOCAL_REDIS } });
    t = app;
    // A process just started may still be connecting (not ready until it is): ready once connected.
    await expect.poll(async () => (await ready(app)).body.checks.redis.status).toBe('ok');
    expect((await ready(app)).status).toBe(200);
  });

  it('bounds a check that never answers, and runs one set of checks for probes that arrive together', async () => {
    t = await createTestApp({ database });
    let checks = 0;
    const hanging: MediaStorage = { ...t.storage, check: () => ((checks += 1), new Promise<void>(() => {})) };
    // The time limit on the clock of the test: the answer comes when it passes, not a moment before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let settled = false;
    const pending = checkReadiness({ database: t.database, storage: hanging }).finally(() => (settled = true));
    // The database answers in real time (not vi.waitFor: it would move the clock); then only the
    // hanging check's limit is left on the clock.
    while (vi.getTimerCount() > 1) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(READY_CHECK_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    vi.useRealTimers();
    expect(result.status).toBe('not-ready');
    expect(result.checks.storage).toMatchObject({ status: 'fail', reason: 'timeout' });
    expect(result.checks.database.status).toBe('ok');
    expect(checks).toBe(1);

    // Through the route: ten probes at once, one run of the checks.
    let runs = 0;
    const check = t.storage.check.bind(t.storage);
    t.storage.check = () => ((runs += 1), check());
    const answers = await Promise.all(Array.from({ length: 10 }, () => t!.app.inject({ method: 'GET', url: '/api/ready' })));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(runs).toBe(1);
  });
});
