/**
 * Once per e2e run, after the shared setup (global-setup.ts, which bundles the server):
 * - one server start on a fresh DATA_DIR, kept as the template the journeys' own servers start from
 *   (server-process.ts);
 * - one shared server per worker, which every journey that needs no configuration of its own uses
 *   (tests/e2e/support/suite.ts, useSharedSuite): a worker runs one file at a time, so a shared
 *   server sees what a file's own server used to, and the people each file makes have addresses of
 *   their own (tests/e2e/support/people.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { TMP_DIR } from '#tests/setup/global-setup.ts';
import { SERVER_TEMPLATE_ENV, startServer } from '#tests/setup/server-process.ts';

export type SharedServer = { url: string; port: number; dataDir: string; logFile: string };

declare module 'vitest' {
  export interface ProvidedContext {
    e2eSharedServers: SharedServer[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const first = await startServer({}, { keepData: true });
  await first.stop();
  // Workers inherit the environment.
  process.env[SERVER_TEMPLATE_ENV] = first.dataDir;

  const workers = Math.max(1, project.config.maxWorkers);
  const servers = await Promise.all(
    Array.from({ length: workers }, (_, i) => {
      const logFile = join(TMP_DIR, `e2e-shared-server-${i + 1}.log`);
      rmSync(logFile, { force: true });
      // One worker's journeys sign in one person after another from 127.0.0.1, well past the 30 sign-ins a
      // minute the credentials limiter's backstop allows one address (a full run met its 429). The limit itself
      // is tested on apps of its own (credentials-limits.test.ts, credentials-limiter.test.ts).
      return startServer({ SIGN_IN_REQUESTS_PER_MINUTE: '1000' }, { logFile }).then((server) => ({ server, logFile }));
    }),
  );
  project.provide(
    'e2eSharedServers',
    servers.map(({ server, logFile }) => ({ url: server.url, port: server.port, dataDir: server.dataDir, logFile })),
  );
  return async () => {
    await Promise.all(servers.map(({ server }) => server.stop()));
    rmSync(first.dataDir, { recursive: true, force: true });
    // The shared servers' logs stay in .tmp/ for a look after a failure; the next run starts them anew.
  };
}
