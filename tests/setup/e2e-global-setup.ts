/**
 * Once per e2e run, after the shared setup (global-setup.ts, which bundles the server): one server
 * start on a fresh DATA_DIR, kept as the template the journeys' servers start from (server-process.ts).
 */
import { rmSync } from 'node:fs';
import { SERVER_TEMPLATE_ENV, startServer } from '#tests/setup/server-process.ts';

export default async function setup(): Promise<() => void> {
  const first = await startServer({}, { keepData: true });
  await first.stop();
  // Workers inherit the environment.
  process.env[SERVER_TEMPLATE_ENV] = first.dataDir;
  return () => rmSync(first.dataDir, { recursive: true, force: true });
}
