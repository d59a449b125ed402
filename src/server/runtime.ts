/**
 * Opens what the running app needs from a Config: the database (migrated) and media storage,
 * and seeds the demo catalogue into an empty database unless SEED_DEMO=false.
 */
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '#server/db/client.ts';
import { isCatalogueEmpty, seedDemoCatalogue } from '#server/db/seed.ts';
import { createLocalMediaStorage, type MediaStorage } from '#server/media-storage.ts';

export function openDatabase(config: Config): DatabaseHandle {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite({ dataDir: join(config.dataDir, 'pglite') });
}

export function openMediaStorage(config: Config): MediaStorage {
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
  log: Pick<FastifyBaseLogger, 'info'>;
}): Promise<void> {
  await database.migrate();
  if (config.seedDemo && (await isCatalogueEmpty(database.db))) {
    const { inserted, total } = await seedDemoCatalogue({ db: database.db, storage });
    log.info({ inserted, total }, 'seeded demo catalogue');
  }
}
