/**
 * A fresh PostgreSQL database on the server that `adminUrl` points at, for one test file or run,
 * and dropped afterwards (closing any session still on it): empty, for whoever uses it to migrate,
 * or a copy of a migrated template (global-setup.ts makes one per run; a copy takes a fraction of
 * the time the migrations do).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type PostgresDatabase = { url: string; name: string; drop(): Promise<void> };

/**
 * How long the tests wait for a PostgreSQL connection: `npm test` runs both halves, the checks and
 * Chromium on two cores, and a connection once took more than the server's own 5 s (global set-up
 * failed with a connection timeout while PostgreSQL itself was well).
 */
export const TEST_PG_CONNECT_TIMEOUT_MS = 20_000;

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: TEST_PG_CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * `prefix` names the suite in the database's name, so a database left by a killed run says whose it
 * is. `template`: the name of a database to copy (no session may be open on it).
 */
export async function createPostgresDatabase(adminUrl: string, prefix = 'hm_test', { template }: { template?: string } = {}): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, `create database "${name}"${template ? ` template "${template}"` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => asAdmin(adminUrl, `drop database if exists "${name}" with (force)`) };
}
