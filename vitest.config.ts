import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The web app's tests that start the real server in process (they need the server project's set-up). */
const WEB_WITH_SERVER = ['src/web/platform/store-purchases.test.ts', 'src/web/features/journal/journal-sync.test.ts', 'src/web/features/journal/journal-rotation.test.ts', 'src/web/features/journal/journal-biometric.test.ts'];

/**
 * Unit and integration tests. End-to-end journeys live in vitest.e2e.config.ts.
 * Two workers even on two cores (vitest's default there is one): many files wait on child
 * processes, sockets and PostgreSQL rather than on the CPU.
 *
 * Two projects:
 * - server: the server, shared code and integration tests, with the global set-up (database
 *   templates, server bundles). Not isolated: a worker loads the server's modules once and runs its
 *   files one after another in the same process, instead of loading them again for every file (that
 *   was a third of the half's time). Each file still owns its data: its own databases, apps, folders
 *   and fakes, closed in its hooks; no test changes module state that another file reads.
 * - web: the web app's tests, also not isolated: tests/setup/web-file.ts starts each file as if alone
 *   (its own modules and mocks, no stubs, idle work or imports left by the file before).
 */
export default defineConfig({
  test: {
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['tests/setup/no-network.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's default second fails on a loaded machine; a poll returns as soon as it passes.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // The workers keep V8's optimising WebAssembly compiler, unlike the servers and CLIs tests start
    // (TEST_NODE_FLAGS, server-bundle.ts): a worker lives for many files, so PGlite's first-open cost is
    // paid a few times a run, while the journal's Argon2id (hash-wasm, 64 MiB, three passes) runs in them
    // dozens of times and took twice as long on the baseline compiler alone (1.0 s against 0.5 s a
    // derivation). The three journal engine files: 101 CPU-s with the flag, 63 without; PGlite-heavy
    // server files: the same either way (48.8 and 48.9 CPU-s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts', 'tests/*.test.ts', 'tests/integration/**/*.test.ts', ...WEB_WITH_SERVER],
          globalSetup: ['tests/setup/global-setup.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          // With the shared set-up (no-network.ts): project settings add to the root's.
          setupFiles: ['tests/setup/web-file.ts'],
          isolate: false,
          exclude: ['tests/e2e/**', 'node_modules/**', ...WEB_WITH_SERVER],
        },
      },
    ],
  },
});
