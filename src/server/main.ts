/** Reads config, builds the app, listens; shuts down cleanly on SIGTERM/SIGINT. */
import { buildApp } from '#server/app.ts';
import { ConfigError, loadConfig, type Config } from '#server/config.ts';
import { runCommand, type CommandContext } from '#server/features/operations/cli-commands.ts';
import { DataDirBusyError, describeTakeover } from '#server/features/operations/data-dir-lock.ts';
import { holdDataDir, type DataDirHold } from '#server/features/operations/hold-data-dir.ts';
import { armHardExit, closeGracefully, HARD_EXIT_MARGIN_MS } from '#server/shutdown.ts';
import { logSecuredDataDir, openDatabase, openMediaStorage, prepareDatabase, PRIVATE_UMASK, secureDataDir } from '#server/startup.ts';

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
  // The embedded database has one writer: hold DATA_DIR before opening it, and run the CLI's
  // commands (sent over the control socket) on this process's database once it is prepared.
  let commandContext: (context: CommandContext) => void = () => {};
  const prepared = new Promise<CommandContext>((resolve) => (commandContext = resolve));
  let log: { error(details: object, message: string): void } = { error: (details, message) => console.error(message, details) };
  let hold: DataDirHold | undefined;
  if (!config.databaseUrl) {
    try {
      hold = await holdDataDir({ dataDir: config.dataDir, run: async (argv) => runCommand(await prepared, argv), log: { error: (details, message) => log.error(details, message) } });
    } catch (error) {
      if (error instanceof DataDirBusyError) {
        console.error(error.message);
        process.exit(1);
      }
      throw error;
    }
  }
  const database = openDatabase(config);
  const storage = openMediaStorage(config);
  const app = await buildApp({ config, database, storage });
  log = app.log;
  logSecuredDataDir(tightened, app.log);
  if (hold?.lock.tookOverFrom) app.log.warn({ pid: hold.lock.tookOverFrom.pid }, describeTakeover(config.dataDir, hold.lock.tookOverFrom));
  await prepareDatabase({ config, database, storage, log: app.log });
  commandContext({ db: database.db, database, config });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Graceful shutdown (issue 13, item 6; src/server/shutdown.ts): in-flight requests and uploads get
    // SHUTDOWN_GRACE_SECONDS to finish, then are cut; a close that still hangs exits a few seconds later.
    armHardExit(config.shutdownGraceSeconds * 1000 + HARD_EXIT_MARGIN_MS);
    try {
      await closeGracefully(app, { graceMs: config.shutdownGraceSeconds * 1000 });
      await database.close();
      // Only once the database is closed may another process open DATA_DIR.
      await hold?.release();
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
