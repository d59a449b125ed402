/**
 * A fresh, migrated database per test (file): PGlite from the migrated template, or a new
 * PostgreSQL database created and dropped around the test.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';

export type TestDbKind = 'pglite' | 'postgres';

/** The engines this run can test against: PGlite always, PostgreSQL when it answered. */
export function testDatabaseKinds(): TestDbKind[] {
  return inject('postgresUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

let templateBytes: Buffer | undefined;

export async function createTestDatabase(kind: TestDbKind): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    templateBytes ??= readFileSync(inject('pgliteTemplatePath'));
    const client = new PGlite({ loadDataDir: new Blob([new Uint8Array(templateBytes)]) });
    return openPglite({ client });
  }
  const baseUrl = inject('postgresUrl');
  if (!baseUrl) throw new Error('PostgreSQL is not available in this run');
  const name = `hm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), 4);
  await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
