/**
 * One database API over two engines: embedded PGlite in DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set. Same drizzle schema, same generated migrations.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from '#server/db/schema.ts';
import { listenOnPostgres } from '#server/db/listen.ts';

type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (from any process on this database); resolves to
   * a function that stops listening. On PostgreSQL also after a lost listening connection returns.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /** PGlite only: a consistent .tar.gz of the live database folder (backups; queries wait meanwhile). */
  dumpDataDir?(): Promise<Blob>;
};

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens PGlite in `dataDir` (created if needed) or over an existing PGlite instance (tests). */
export function openPglite(options: { dataDir?: string; client?: PGlite }): DatabaseHandle {
  // PGlite won't create parents. Private (0700): the database and its WAL hold live session tokens.
  if (options.dataDir) mkdirSync(dirname(options.dataDir), { recursive: true, mode: 0o700 });
  const client = options.client ?? new PGlite(options.dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      if (options.dataDir) makeOwnerOnly(options.dataDir);
    },
    ping: () => ping(db),
    close: async () => {
      if (!client.closed) await client.close();
    },
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, () => onNotify());
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    dumpDataDir: () => client.dumpDataDir('gzip'),
  };
}

/**
 * PGlite lays down a new cluster with an explicit chmod 0666 on every file (and rewrites its
 * relcache files 0644 at each start), whatever the process umask. Its WAL holds live session
 * tokens: take group and world bits off everything under its folder once it is open.
 */
function makeOwnerOnly(root: string): void {
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) chmodSync(path, stat.mode & 0o700);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
}

/** pg_advisory_lock key held while migrating ('hmmg'). */
const MIGRATION_LOCK_KEY = 0x68_6d_6d_67;

/**
 * Opens a PostgreSQL pool. A connection not made within `connectTimeoutMs` fails the query that
 * waited for it (a server answers with an error rather than hanging); tests on a loaded machine,
 * where PostgreSQL shares two cores with everything else, allow longer.
 */
export function openPostgres(connectionString: string, poolSize = 10, { connectTimeoutMs = 5000 }: { connectTimeoutMs?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: poolSize, connectionTimeoutMillis: connectTimeoutMs });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    // Several processes starting together on one database (a deploy of N replicas, docs/cluster.md)
    // would each run the pending migrations: the second CREATE TABLE fails and that process exits.
    // A session advisory lock lets one migrate; the others then find every migration applied.
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        // Ending the session releases the lock too: a connection that cannot unlock is discarded.
        const unlocked = await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).then(
          () => true,
          () => false,
        );
        client.release(!unlocked);
      }
    },
    ping: () => ping(db),
    listen: (channel, onNotify) => listenOnPostgres(connectionString, channel, onNotify),
    close: () => pool.end(),
  };
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
