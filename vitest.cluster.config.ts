import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster` (scripts/test-cluster.mjs): two app processes behind nginx on one
 * PostgreSQL and one Redis. Not part of `npm test`: it needs nginx and the local servers.
 */
export default defineConfig({
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
