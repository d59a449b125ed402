/**
 * A fresh, migrated database per test (file): PGlite from the migrated template, or a new
 * PostgreSQL database (a copy of the run's migrated template) created and dropped around the test.
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { createPostgresDatabase, type PostgresDatabase } from '#tests/setup/postgres-database.ts';

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

export async function createTestDatabase(kind: TestDbKind): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    templateBytes ??= readFileSync(inject('pgliteTemplatePath'));
    const client = new PGlite({ loadDataDir: new Blob([new Uint8Array(templateBytes)]) });
    return openPglite({ client });
  }
  const database = await createThrowawayPostgres('hm_test', { migrated: true });
  const handle = openPostgres(database.url, 4);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}
