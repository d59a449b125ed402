/**
 * Before each web test file. The web project runs a worker's files in one process (vitest.config.ts),
 * so each file starts as if alone:
 * - the app's own modules are loaded afresh (vi.resetModules: their state, such as the toast queue or
 *   the platform, is the file's own), while React, jsdom and the other packages stay loaded;
 * - nothing an earlier file stubbed or faked is left: globals, environment variables, timers.
 * And the waits (findBy…, waitFor) last as long as expect.poll's: Testing Library's default second is
 * not an answer on two cores busy with the rest of `npm test` (a lazy chunk, a query and a render can
 * take longer there), and a wait returns as soon as its check passes, so a passing test is no slower.
 * A check that never passes still fails, after ten seconds.
 * Nothing a file starts outlives it: idle callbacks are the file's own (file-idle.ts), and its end
 * waits for the imports it left under way. An import finishing in the next file, after that file
 * reset its modules but before its mocks were registered, left it modules bound to the real ones.
 * The reply check call() loads in development and tests (src/web/lib/reply-check.ts) is loaded here, in
 * real time: loaded by the first call of a test that has stopped the clock, it never arrived.
 */
import { configure } from '@testing-library/dom';
import { afterAll, vi } from 'vitest';
import { fileIdle } from './file-idle.ts';

vi.resetModules();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
vi.useRealTimers();

configure({ asyncUtilTimeout: 10_000 });

const idle = fileIdle();
if (typeof window !== 'undefined') Object.assign(window, { requestIdleCallback: idle.requestIdleCallback, cancelIdleCallback: idle.cancelIdleCallback });
afterAll(async () => {
  idle.close();
  await vi.dynamicImportSettled();
});

await import('#web/lib/reply-check.ts');
