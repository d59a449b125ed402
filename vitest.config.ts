import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Unit and integration tests. End-to-end journeys live in vitest.e2e.config.ts.
 * Two workers even on two cores (vitest's default there is one): many files wait on child
 * processes, sockets and PostgreSQL rather than on the CPU, and the run takes ~230 s instead of ~420 s.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'tests/*.test.ts', 'tests/integration/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/no-network.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's default second fails on a loaded machine; a poll returns as soon as it passes.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
