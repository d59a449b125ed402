/**
 * Opens what the running app needs from a Config: the database (migrated) and media storage,
 * and seeds the demo catalogue into an empty database unless SEED_DEMO=false.
 */
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { isCatalogueEmpty, seedDemoCatalogue, seedDemoProgrammes } from '#server/db/seed.ts';
import { sweepUploads } from '#server/features/admin/meditation-upload.service.ts';
import { issueSetupToken } from '#server/features/admin/setup-token.service.ts';
import { createLocalMediaStorage, type MediaStorage } from '#server/features/media/media-storage.ts';
import { createS3Client, createS3MediaStorage } from '#server/features/media/s3-media-storage.ts';

/** Files the server and the CLI create are theirs alone (the PGlite WAL holds live session tokens). */
export const PRIVATE_UMASK = 0o077;

/** The folders the app keeps in DATA_DIR. */
const DATA_SUBFOLDERS = ['pglite', 'media', 'outbox', 'secrets', 'uploads'];

/**
 * Creates DATA_DIR readable only by this user (0700), or tightens an existing one (and its known
 * folders) that others could read or enter. Returns what was tightened, for the log. A folder
 * this user does not own cannot be changed: that is reported too, and the start goes on.
 */
export function secureDataDir(dataDir: string): { path: string; from: string; error?: string }[] {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const changed: { path: string; from: string; error?: string }[] = [];
  for (const path of [dataDir, ...DATA_SUBFOLDERS.map((name) => join(dataDir, name))]) {
    if (!existsSync(path)) continue;
    const mode = statSync(path).mode & 0o777;
    if (!(mode & 0o077)) continue;
    try {
      chmodSync(path, mode & 0o700);
      changed.push({ path, from: mode.toString(8) });
    } catch (error) {
      changed.push({ path, from: mode.toString(8), error: (error as Error).message });
    }
  }
  return changed;
}

/** The log line for each folder secureDataDir tightened (or could not). */
export function logSecuredDataDir(changed: ReturnType<typeof secureDataDir>, log: { warn(details: object, message: string): void }): void {
  for (const { path, from, error } of changed) {
    log.warn({ path, from, error }, error ? `${path} is readable by other users and could not be made private (chmod 700 it)` : `${path} was readable by other users: now 700`);
  }
}

export function openDatabase(config: Config): DatabaseHandle {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite({ dataDir: join(config.dataDir, 'pglite') });
}

/** S3-compatible storage when S3_BUCKET is set, the DATA_DIR/media folder otherwise. */
export function openMediaStorage(config: Config): MediaStorage {
  if (config.s3) return createS3MediaStorage(createS3Client(config.s3), config.s3.bucket);
  return createLocalMediaStorage(join(config.dataDir, 'media'));
}

export async function prepareDatabase({
  config,
  database,
  storage,
  log,
}: {
  config: Config;
  database: DatabaseHandle;
  storage: MediaStorage;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}): Promise<void> {
  await database.migrate();
  const swept = await sweepUploads({ db: database.db, storage, dataDir: config.dataDir });
  if (swept.temporary || swept.orphans) log.info(swept, 'removed unfinished uploads');
  if (config.seedDemo && (await isCatalogueEmpty(database.db))) {
    const { inserted, total } = await seedDemoCatalogue({ db: database.db, storage });
    log.info({ inserted, total }, 'seeded demo catalogue');
    log.info(await seedDemoProgrammes({ db: database.db }), 'seeded demo programmes');
  }
  // A fresh deployment has no admin: print a one-time token for the Admin Setup card.
  const token = await issueSetupToken(database.db);
  if (token) log.warn(`No administrator yet. Sign in, open /admin and enter this one-time setup token: ${token} (a new one is printed at each start until it is used; or run: npm run cli -- setup-token)`);
}
