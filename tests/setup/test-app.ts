/**
 * The app as tests use it: buildApp() over a fresh database and a temporary DATA_DIR, driven
 * with app.inject() (a real Fastify request pipeline) or a real listening socket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp, type App } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import type { MediaStorage } from '#server/features/media/media-storage.ts';
import { openMediaStorage } from '#server/startup.ts';
import { createTestDatabase, type TestDbKind } from '#tests/setup/test-db.ts';

export type TestApp = {
  app: App;
  database: DatabaseHandle;
  storage: MediaStorage;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
};

export async function createTestApp({
  kind = 'pglite',
  env = {},
  config: overrides = {},
  logger,
}: {
  kind?: TestDbKind;
  env?: Record<string, string>;
  config?: Partial<Config>;
  logger?: boolean | object;
} = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hm-test-'));
  const config = loadConfig(
    // Load shedding off unless a test turns it on (load-shedding.test.ts): in-process PGlite holds the
    // event loop during a test's bulk setup, and on a busy machine the next request was shed (503).
    { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', MAX_EVENT_LOOP_DELAY_MS: '0', ...env },
    { webDistDir: join(dataDir, 'no-web-build'), ...overrides },
  );
  const database = await createTestDatabase(kind);
  const storage = openMediaStorage(config);
  const app = await buildApp({ config, database, storage, logger: logger ?? false });
  await app.ready();
  return {
    app,
    database,
    storage,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A log stream for createTestApp({ logger: { level, stream } }) that keeps every line, for tests that read the log. */
export function captureLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}
