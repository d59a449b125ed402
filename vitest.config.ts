import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { TEST_NODE_FLAGS } from './tests/setup/server-bundle.ts';

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
 * - web: the web app's tests, isolated as before (jsdom documents, stubbed globals and module mocks
 *   are per file).
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
    // WebAssembly by V8's baseline compiler in the workers too (PGlite's first open; server-bundle.ts).
    execArgv: TEST_NODE_FLAGS,
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
