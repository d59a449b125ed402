/**
 * Runs several operator commands (`npm run cli -- …`) in one process, one after another, each
 * through the CLI's own code path: the crash test sets up its accounts in one start-up instead
 * of one per command. Usage: node --import tsx tests/integration/crash-cli.ts '[["create-user", …], …]'
 */
import { runCli } from '#server/cli.ts';
import { PRIVATE_UMASK } from '#server/startup.ts';

// As the CLI does when run itself: whatever it writes in DATA_DIR is this user's alone.
process.umask(PRIVATE_UMASK);

const commands = JSON.parse(process.argv[2] ?? '[]') as string[][];
for (const args of commands) {
  const code = await runCli(args);
  if (code !== 0) process.exit(code);
}
process.exit(0);
