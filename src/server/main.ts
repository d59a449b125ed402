/** Reads config, builds the app, listens; shuts down cleanly on SIGTERM/SIGINT. */
import { buildApp } from '#server/app.ts';
import { ConfigError, loadConfig, type Config } from '#server/config.ts';
import { logSecuredDataDir, openDatabase, openMediaStorage, prepareDatabase, PRIVATE_UMASK, secureDataDir } from '#server/runtime.ts';

async function main(): Promise<void> {
  // Before anything is written: the database, its WAL, secrets and mail are this user's alone.
  process.umask(PRIVATE_UMASK);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const tightened = secureDataDir(config.dataDir);
  const database = openDatabase(config);
  const storage = openMediaStorage(config);
  const app = await buildApp({ config, database, storage });
  logSecuredDataDir(tightened, app.log);
  await prepareDatabase({ config, database, storage, log: app.log });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Harbour Mind is listening on ${config.publicUrl} (${database.kind})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
