/**
 * A fresh, migrated database per test (file): PGlite from the migrated template, or a new
 * PostgreSQL database created and dropped around the test.
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { createPostgresDatabase } from '#tests/setup/postgres-database.ts';

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

export async function createTestDatabase(kind: TestDbKind): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    templateBytes ??= readFileSync(inject('pgliteTemplatePath'));
    const client = new PGlite({ loadDataDir: new Blob([new Uint8Array(templateBytes)]) });
    return openPglite({ client });
  }
  const baseUrl = inject('postgresUrl');
  if (!baseUrl) throw new Error('PostgreSQL is not available in this run');
  const database = await createPostgresDatabase(baseUrl);
  const handle = openPostgres(database.url, 4);
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}
