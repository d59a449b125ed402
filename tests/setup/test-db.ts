/**
 * A fresh, migrated database per test (file): PGlite from the migrated template, or a new
 * PostgreSQL database (a copy of the run's migrated template) created and dropped around the test.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { createPostgresDatabase, TEST_PG_CONNECT_TIMEOUT_MS, type PostgresDatabase } from '#tests/setup/postgres-database.ts';

export type TestDbKind = 'pglite' | 'postgres';

/**
 * The engines this run can test against: PGlite always, PostgreSQL when it answered. Suites whose
 * outcome depends on SQL (unique violations, upserts, idempotency, counters, transactions, seeding,
 * raw input reaching the database) run on both; the rest use PGLITE_ONLY.
 */
export function testDatabaseKinds(): TestDbKind[] {
  return inject('postgresUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/** For suites about HTTP, headers or configuration, where the database engine changes nothing. */
export const PGLITE_ONLY: readonly TestDbKind[] = ['pglite'];

let templateBytes: Buffer | undefined;
const templateBlob = () => {
  templateBytes ??= readFileSync(inject('pgliteTemplatePath'));
  return new Blob([new Uint8Array(templateBytes)]);
};

/** The run's migrated PGlite database as a folder on disk: written by the first test process that asks, then copied. */
async function templateFolder(): Promise<string> {
  const folder = `${inject('pgliteTemplatePath')}.pglite`;
  if (existsSync(folder)) return folder;
  const making = `${folder}-${process.pid}`;
  const client = new PGlite({ dataDir: making, loadDataDir: templateBlob() });
  await client.waitReady;
  await client.close();
  // As the server keeps it (startup.ts, secureDataDir): the copies keep the mode.
  chmodSync(making, 0o700);
  try {
    renameSync(making, folder);
  } catch (error) {
    // Another test process wrote it first: use theirs.
    if (!existsSync(folder)) throw error;
    rmSync(making, { recursive: true, force: true });
  }
  return folder;
}

/**
 * Puts a migrated embedded database into `dataDir` (DATA_DIR/pglite), for a server or CLI process
 * that starts on an existing deployment: initialising and migrating a database on disk costs a process
 * several seconds of CPU. Tests about a first start (data-dir.test.ts, the CLI's fresh folder) make
 * theirs from nothing.
 */
export async function migratedDataDir(dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  cpSync(await templateFolder(), join(dataDir, 'pglite'), { recursive: true });
}

/**
 * A throwaway database on this run's PostgreSQL, dropped by `drop()`: migrated (a copy of the run's
 * template, global-setup.ts), or empty for a test whose subject is the migrating (a server's first
 * start, the CLI). `prefix` names the suite, so a database a killed run left behind says whose it is.
 */
export async function createThrowawayPostgres(prefix: string, { migrated }: { migrated: boolean }): Promise<PostgresDatabase> {
  const adminUrl = inject('postgresUrl');
  if (!adminUrl) throw new Error('PostgreSQL is not available in this run');
  if (!migrated) return createPostgresDatabase(adminUrl, prefix);
  const template = inject('postgresTemplate');
  if (!template) throw new Error('no migrated PostgreSQL template in this run');
  return createPostgresDatabase(adminUrl, prefix, { template });
}

/**
 * PGlite as the tests open it: a buffer pool of 16 MB instead of initdb's 128 MB. PGlite sets the pool
 * up at every start, and at 128 MB that was a third of the CPU an opened test database cost (measured
 * 2.0 s against 1.3 s here); no test's data comes near 16 MB. The server and the CLI keep theirs.
 */
const TEST_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

export async function createTestDatabase(kind: TestDbKind): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    const client = new PGlite({ loadDataDir: templateBlob(), startParams: TEST_START_PARAMS });
    return openPglite({ client });
  }
  const database = await createThrowawayPostgres('hm_test', { migrated: true });
  const handle = openPostgres(database.url, 4, { connectTimeoutMs: TEST_PG_CONNECT_TIMEOUT_MS });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}
