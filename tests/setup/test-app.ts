/**
 * The app as tests use it: buildApp() over a fresh database and a temporary DATA_DIR, driven
 * with app.inject() (a real Fastify request pipeline) or a real listening socket. Its background
 * jobs (trial-ending e-mails, daily reminders) are off unless a test asks for them: their timers
 * would otherwise query the test's database on the real clock, beside the test's own requests.
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
  schedulers = false,
  database: shared,
}: {
  kind?: TestDbKind;
  env?: Record<string, string>;
  config?: Partial<Config>;
  logger?: boolean | object;
  /** The app's background jobs, as production runs them (buildApp's `schedulers`). */
  schedulers?: boolean;
  /**
   * An open database (createTestDatabase) that several apps of one file share, for tests that each
   * need an app of their own (its configuration, its in-memory limits) but not a database of their
   * own: starting a database is most of what building an app costs. The app leaves it open; by
   * default it has a fresh one, closed with it.
   */
  database?: DatabaseHandle;
} = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hm-test-'));
  const config = loadConfig(
    // Load shedding off unless a test turns it on (load-shedding.test.ts): in-process PGlite holds the
    // event loop during a test's bulk setup, and on a busy machine the next request was shed (503).
    { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', MAX_EVENT_LOOP_DELAY_MS: '0', ...env },
    { webDistDir: join(dataDir, 'no-web-build'), ...overrides },
  );
  const database = shared ?? (await createTestDatabase(kind));
  const storage = openMediaStorage(config);
  const app = await buildApp({ config, database, storage, logger: logger ?? false, schedulers });
  await app.ready();
  return {
    app,
    database,
    storage,
    config,
    dataDir,
    async close() {
      await app.close();
      if (!shared) await database.close();
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
