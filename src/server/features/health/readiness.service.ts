/**
 * Readiness (issue 13, item 7): can this process serve real requests right now? The database
 * answers, its schema is this build's (no migration pending), media storage can be written (a
 * folder) or reached (a bucket), and Redis answers when REDIS_URL is set. Each check is bounded in
 * time; the answer names what failed with a short code, never a URL, host or credential.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { MigrationsCheck, ReadinessCheck, ReadinessChecks, ReadinessResponse } from '#shared/contracts/health.ts';
import { MIGRATIONS_DIR, type DatabaseHandle } from '#server/db/client.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';

/** Per check; load balancers usually allow a probe about 5 s. */
export const READY_CHECK_TIMEOUT_MS = 2000;

export type ReadinessDeps = {
  database: DatabaseHandle;
  storage: MediaStorage;
  /** The fail-fast connection (global-rate-limit.ts), when REDIS_URL is set. */
  redis?: Pick<Redis, 'ping' | 'status' | 'once' | 'off'>;
  /** The migration journal of this build (tests pass their own). */
  journal?: readonly number[];
};

class CheckTimeout extends Error {
  override readonly name = 'timeout';
}

function withTimeout<T>(work: Promise<T>, ms = READY_CHECK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** An error's code or name, if it looks like one (ENOTDIR, NoSuchBucket); messages can hold hosts and URLs. */
function reasonOf(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown } | undefined;
  for (const candidate of [e?.code, e?.name]) {
    if (typeof candidate === 'string' && /^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(candidate) && candidate !== 'Error') return candidate;
  }
  return 'error';
}

/** Runs one check within the timeout: 'ok' when it resolves, 'fail' with a short reason when it throws or times out. */
function timed(work: () => Promise<unknown>): Promise<ReadinessCheck> {
  return timedResult(async () => {
    await work();
    return { status: 'ok' } as const;
  });
}

/** The same for a check that reports its own result (with counts); the time is added. */
async function timedResult<T extends ReadinessCheck>(work: () => Promise<T>): Promise<T | ReadinessCheck> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    return { ...(await withTimeout(work())), ms: ms() };
  } catch (error) {
    return { status: 'fail', reason: reasonOf(error), ms: ms() };
  }
}

let buildJournal: readonly number[] | undefined;

/** The `when` of every migration this build carries (drizzle-kit's journal), read once. */
export function migrationJournal(): readonly number[] {
  buildJournal ??= (JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] }).entries.map((e) => e.when);
  return buildJournal;
}

// Raw query results are typed `unknown` by the driver-neutral database type: read them through a schema.
const migrationTable = z.object({ rows: z.array(z.object({ name: z.string().nullable() })) });
const lastMigration = z.object({ rows: z.array(z.object({ last: z.string().nullable() })) });

/**
 * Drizzle's rule, as its migrator applies it: a migration is pending when it is newer than the last
 * one recorded in drizzle.__drizzle_migrations (created_at holds the journal's `when`).
 */
async function checkMigrations(database: DatabaseHandle, journal: readonly number[]): Promise<MigrationsCheck> {
  const found = migrationTable.parse(await database.db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`));
  if (!found.rows.at(0)?.name) return { status: 'fail', reason: 'not-migrated', applied: 0, pending: journal.length };
  const result = lastMigration.parse(await database.db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`));
  const last = Number(result.rows.at(0)?.last ?? 0);
  const pending = journal.filter((when) => when > last).length;
  const applied = journal.length - pending;
  return pending > 0 ? { status: 'fail', reason: 'pending', applied, pending } : { status: 'ok', applied, pending };
}

/** Waits for a connecting client to be ready or fail (bounded by the caller's timeout), then PINGs. */
async function pingRedis(redis: NonNullable<ReadinessDeps['redis']>): Promise<void> {
  if (redis.status === 'connecting' || redis.status === 'connect') {
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        redis.off('error', onError);
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => settle();
      const onError = (error: Error) => settle(error);
      const timer = setTimeout(() => settle(new CheckTimeout()), READY_CHECK_TIMEOUT_MS);
      redis.once('ready', onReady);
      redis.once('error', onError);
    });
  }
  if (redis.status !== 'ready') throw Object.assign(new Error('redis not connected'), { code: 'not-connected' });
  // Typed as any string: what comes back over the wire is the server's to decide.
  const answer: string = await redis.ping();
  if (answer !== 'PONG') throw Object.assign(new Error('unexpected answer'), { code: 'unexpected-answer' });
}

/** Runs every check (database first for migrations, the rest alongside) and the overall verdict. */
export async function checkReadiness({ database, storage, redis, journal = migrationJournal() }: ReadinessDeps): Promise<ReadinessResponse> {
  const databaseAndMigrations = (async () => {
    const db = await timed(async () => {
      if (!(await database.ping())) throw Object.assign(new Error('no answer'), { code: 'no-answer' });
    });
    const migrations: MigrationsCheck = db.status === 'ok' ? await timedResult(() => checkMigrations(database, journal)) : { status: 'fail', reason: 'database-unavailable' };
    return { database: db, migrations };
  })();
  const [{ database: db, migrations }, storageCheck, redisCheck] = await Promise.all([
    databaseAndMigrations,
    timed(() => storage.check()),
    redis ? timed(() => pingRedis(redis)) : Promise.resolve<ReadinessCheck>({ status: 'skipped' }),
  ]);
  const checks: ReadinessChecks = { database: db, migrations, storage: storageCheck, redis: redisCheck };
  const ready = Object.values(checks).every((check) => check.status !== 'fail');
  return { status: ready ? 'ready' : 'not-ready', checks };
}
