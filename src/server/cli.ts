/**
 * Operator commands: `npm run cli -- <command>` (the list: USAGE in features/operations/cli-commands.ts).
 * They use the same config (DATA_DIR / DATABASE_URL) as the server.
 *
 * On the embedded database only one process may open DATA_DIR: when a server holds it, the command
 * runs inside that server over its control socket (same code, the server's own database); otherwise
 * the CLI takes the folder's lock and opens the database itself. With DATABASE_URL the CLI talks to
 * PostgreSQL directly, beside any number of servers.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '#server/config.ts';
import { runCommand, USAGE } from '#server/features/operations/cli-commands.ts';
import { describeManifest, restoreBackup } from '#server/features/operations/backup.ts';
import { sendControlRequest, type CommandResult } from '#server/features/operations/control-channel.ts';
import { acquireDataDirLock, DataDirBusyError, describeTakeover, type DataDirLock } from '#server/features/operations/data-dir-lock.ts';
import { logSecuredDataDir, openDatabase, PRIVATE_UMASK, secureDataDir } from '#server/startup.ts';

const COMMANDS = ['grant-role', 'create-user', 'grant-subscription', 'setup-token', 'backup', 'restore'];

export async function runCli(argv: string[], config: Config = loadConfig()): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || !COMMANDS.includes(command)) return print({ exitCode: 1, output: USAGE });
  // File names are the operator's, relative to where they typed the command (a server's cwd may differ).
  const args = command === 'backup' && rest.length === 1 ? [command, resolve(rest[0])] : argv;
  logSecuredDataDir(secureDataDir(config.dataDir), { warn: (_obj: object, msg: string) => console.error(msg) });

  if (config.databaseUrl) return print(await runDirect(config, args));

  let lock: DataDirLock;
  try {
    lock = await acquireDataDirLock({ dataDir: config.dataDir, role: 'cli' });
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    const { holder } = error;
    if (holder.role !== 'server' || !holder.socket) return print({ exitCode: 1, output: error.message });
    if (command === 'restore') {
      return print({ exitCode: 1, output: `A Harbour Mind server (pid ${holder.pid}) is running on DATA_DIR ${config.dataDir}: stop it before restoring.` });
    }
    return print(await sendControlRequest(holder.socket, { command: 'run', argv: args }));
  }
  try {
    if (lock.tookOverFrom) console.error(describeTakeover(config.dataDir, lock.tookOverFrom));
    return print(await runDirect(config, args));
  } finally {
    lock.release();
  }
}

/** Runs the command on a database this process opens (PostgreSQL, or PGlite under the CLI's lock). */
async function runDirect(config: Config, argv: string[]): Promise<CommandResult> {
  if (argv[0] === 'restore') return restore(config, argv.slice(1));
  const database = openDatabase(config);
  try {
    await database.migrate();
    return await runCommand({ db: database.db, database, config }, argv);
  } catch (error) {
    return { exitCode: 1, output: (error as Error).message };
  } finally {
    await database.close();
  }
}

async function restore(config: Config, args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: false, options: { force: { type: 'boolean' }, 'deletions-from': { type: 'string', multiple: true } } });
  if (positionals.length !== 1) return { exitCode: 1, output: USAGE };
  const file = resolve(positionals[0]);
  const newer = values['deletions-from'];
  const deletionsFrom = (Array.isArray(newer) ? newer : []).filter((name): name is string => typeof name === 'string').map((name) => resolve(name));
  try {
    const { manifest, reapplied, notes } = await restoreBackup({ config, file, force: values.force === true, openTarget: () => openDatabase(config), deletionsFrom });
    const into = config.databaseUrl ? `the PostgreSQL database and ${config.dataDir}` : config.dataDir;
    const erased = `${reapplied} account${reapplied === 1 ? '' : 's'} deleted after the backup erased again`;
    return { exitCode: 0, output: [`Restored ${file} into ${into} (${describeManifest(manifest)}, backed up ${manifest.createdAt}); ${erased}`, ...notes].join('\n') };
  } catch (error) {
    return { exitCode: 1, output: (error as Error).message };
  }
}

function print({ exitCode, output }: CommandResult): number {
  if (exitCode === 0) console.log(output);
  else console.error(output);
  return exitCode;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // As the server does: whatever the CLI writes in DATA_DIR (database, secrets, mail) is private.
  process.umask(PRIVATE_UMASK);
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
