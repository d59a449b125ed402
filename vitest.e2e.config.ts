import { defineConfig } from 'vitest/config';

/** Whole user journeys in Debian's Chromium against the built server. */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['tests/setup/global-setup.ts', 'tests/setup/e2e-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
