/**
 * Runs once per test run: migrates a PGlite database and keeps a dump of it (each test database
 * starts from the dump in ~0.5 s instead of ~5 s), bundles the server for the tests that start it as a
 * process (server-bundle.ts), and finds out whether PostgreSQL answers; when it does, migrates one
 * database there that each PostgreSQL test database is copied from (test-db.ts), dropped at the end.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '#server/db/client.ts';
import { createPostgresDatabase, TEST_PG_CONNECT_TIMEOUT_MS, type PostgresDatabase } from '#tests/setup/postgres-database.ts';
import { buildServerBundles, CLI_BUNDLE_ENV, SERVER_BUNDLE_ENV } from '#tests/setup/server-bundle.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresUrl: string | null;
    /** The migrated database on `postgresUrl` that test databases are copied from (null without PostgreSQL). */
    postgresTemplate: string | null;
  }
}

export const TMP_DIR = resolve('.tmp');

async function findPostgres(): Promise<string | null> {
  const candidates = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/test'].filter(
    (url): url is string => Boolean(url),
  );
  for (const url of candidates) {
    // A machine without PostgreSQL refuses the connection at once; one with it may be slow to answer
    // while the rest of `npm test` starts (1.5 s was missed under load, and the run then skipped every
    // PostgreSQL test without a word but the line it prints).
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TEST_PG_CONNECT_TIMEOUT_MS });
    try {
      await client.connect();
      await client.query('select 1');
      return url;
    } catch {
      // not reachable: try the next one
    } finally {
      await client.end().catch(() => {});
    }
  }
  return null;
}

/** Whether PostgreSQL answers, and if so a migrated database there to copy test databases from (no session stays open on it). */
async function postgresWithTemplate(): Promise<{ url: string | null; template?: PostgresDatabase }> {
  const url = await findPostgres();
  if (!url) return { url };
  const template = await createPostgresDatabase(url, 'hm_template');
  const handle = openPostgres(template.url, 1, { connectTimeoutMs: TEST_PG_CONNECT_TIMEOUT_MS });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
  return { url, template };
}

/** The PGlite template: a migrated database's dump, in TMP_DIR. */
async function pgliteTemplate(): Promise<string> {
  const client = new PGlite();
  await openPglite({ client }).migrate();
  // Uncompressed: every test database is opened from it, and inflating it each time cost more than reading 40 MB.
  const dump = await client.dumpDataDir('none');
  await client.close();
  const templatePath = join(TMP_DIR, `pglite-template-${process.pid}.tar`);
  writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  return templatePath;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(TMP_DIR, { recursive: true });
  // All three at once: PostgreSQL's template migrates while the PGlite template and the bundles are made.
  const [postgres, templatePath, bundles] = await Promise.allSettled([postgresWithTemplate(), pgliteTemplate(), buildServerBundles(TMP_DIR)]);
  const cleanUp = async () => {
    // With the template's copy on disk that test-db.ts may have written beside it.
    if (templatePath.status === 'fulfilled') for (const path of [templatePath.value, `${templatePath.value}.pglite`]) rmSync(path, { recursive: true, force: true });
    if (bundles.status === 'fulfilled') for (const file of [bundles.value.server, bundles.value.cli]) rmSync(file, { force: true });
    if (postgres.status === 'fulfilled') await postgres.value.template?.drop();
  };
  if (postgres.status === 'rejected' || templatePath.status === 'rejected' || bundles.status === 'rejected') {
    await cleanUp();
    throw [postgres, templatePath, bundles].find((result) => result.status === 'rejected')?.reason;
  }

  project.provide('pgliteTemplatePath', templatePath.value);
  // Workers inherit the environment: their startServer and CLI runs use these bundles instead of the sources through tsx.
  process.env[SERVER_BUNDLE_ENV] = bundles.value.server;
  process.env[CLI_BUNDLE_ENV] = bundles.value.cli;
  project.provide('postgresUrl', postgres.value.url);
  project.provide('postgresTemplate', postgres.value.template?.name ?? null);
  console.log(postgres.value.url ? `PostgreSQL answers: integration tests run on PGlite and PostgreSQL` : 'PostgreSQL not reachable: integration tests run on PGlite only');
  return cleanUp;
}
