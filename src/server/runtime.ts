/**
 * Opens what the running app needs from a Config: the database (migrated) and media storage,
 * and seeds the demo catalogue into an empty database unless SEED_DEMO=false.
 */
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { isCatalogueEmpty, seedDemoCatalogue } from '#server/db/seed.ts';
import { sweepUploads } from '#server/features/admin/meditation-upload.service.ts';
import { issueSetupToken } from '#server/features/admin/setup-token.service.ts';
import { createLocalMediaStorage, type MediaStorage } from '#server/media-storage.ts';
import { createS3Client, createS3MediaStorage } from '#server/s3-media-storage.ts';

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
  }
  // A fresh deployment has no admin: print a one-time token for the Admin Setup card.
  const token = await issueSetupToken(database.db);
  if (token) log.warn(`No administrator yet. Sign in, open /admin and enter this one-time setup token: ${token} (a new one is printed at each start until it is used; or run: npm run cli -- setup-token)`);
}
