import { defineConfig } from 'vitest/config';
import { TEST_NODE_FLAGS } from './tests/setup/server-bundle.ts';

/**
 * Whole user journeys in Debian's Chromium against the built server. Two files at a time, each
 * worker with its own shared server (tests/setup/e2e-global-setup.ts): the journeys wait on the
 * browser and the server more than on the CPU, and two workers halve the run on two cores.
 * No retries: a journey that fails once has found a race a person can meet.
 */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['tests/setup/global-setup.ts', 'tests/setup/e2e-global-setup.ts'],
    // A cap, not a budget: two journeys share two cores, and a stuck one still fails within two minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // WebAssembly by V8's baseline compiler in the workers too (PGlite's first open; server-bundle.ts).
    execArgv: TEST_NODE_FLAGS,
    maxWorkers: 2,
    // A worker loads Playwright, the support modules and the server's helpers once and runs its files
    // one after another, instead of a process and a fresh import of all of it per file (about 1.5 s
    // of CPU each). The files share no module state that matters: each opens its own browser
    // (support/suite.ts), makes its own people, stubs no globals and mocks no modules.
    isolate: false,
    retry: 0,
    // What a journey waits for arrives when the machine gets to it: a second on a loaded machine is not
    // an answer (expect.poll's default), and a journey only fails when the thing never comes. Playwright's
    // own waits have 30 s.
    expect: { poll: { timeout: 20_000, interval: 100 } },
  },
});
