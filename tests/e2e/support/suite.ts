/**
 * What every e2e file sets up: a server and Chromium. Most journeys use their worker's shared server,
 * in one line at the top of the file (the worker's browser stays; the file's contexts close after its last test):
 *   const { server, browser } = await useSharedSuite();
 * A journey that needs a configuration of its own, restarts its server or reads its whole data folder
 * starts its own (startSuite), as the teardown-returning `beforeAll`:
 *   beforeAll(async () => {
 *     const suite = await startSuite({ SOME_SETTING: '1' });
 *     ({ server, browser } = suite);
 *     return suite.stop;
 *   });
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, inject } from 'vitest';
import { launchBrowser } from '#tests/e2e/support/browser.ts';
import { startServer, type RunningServer } from '#tests/setup/server-process.ts';

/** What a journey may do with its server: a shared one is never stopped or killed by a file. */
export type SuiteServer = Pick<RunningServer, 'url' | 'port' | 'dataDir' | 'logs'>;
export type Suite<S extends SuiteServer = RunningServer> = { server: S; browser: Browser; stop: () => Promise<void> };

/**
 * Starts both; when one of them fails to start, the other is stopped before the error is rethrown.
 * `browser.full`: the full browser instead of the headless shell (support/browser.ts).
 */
export async function startSuite(env?: Parameters<typeof startServer>[0], options?: Parameters<typeof startServer>[1], browserOptions?: Parameters<typeof launchBrowser>[0]): Promise<Suite> {
  const [server, browser] = await Promise.allSettled([startServer(env, options), launchBrowser(browserOptions)]);
  if (server.status === 'rejected' || browser.status === 'rejected') {
    if (server.status === 'fulfilled') await server.value.stop();
    if (browser.status === 'fulfilled') await browser.value.close();
    throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
  }
  return {
    server: server.value,
    browser: browser.value,
    stop: async () => {
      await browser.value.close();
      await server.value.stop();
    },
  };
}

/**
 * The worker's browser, launched by its first file that asks and kept for the files after it (the
 * journeys run a worker's files in one process): a launch costs the browser, GPU and network
 * processes' start, about a CPU-second, 25 times a run before. Playwright closes it when the worker
 * exits. Each file still starts from a clean browser: its contexts are closed after its last test.
 */
let workerBrowser: Promise<Browser> | undefined;

async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()));
}

/** This worker's shared server (tests/setup/e2e-global-setup.ts) and browser. */
async function startSharedSuite(): Promise<Suite<SuiteServer>> {
  const servers = inject('e2eSharedServers');
  const { url, port, dataDir, logFile } = servers[(Number(process.env.VITEST_POOL_ID ?? '1') - 1) % servers.length];
  workerBrowser ??= launchBrowser();
  let browser: Browser;
  try {
    browser = await workerBrowser;
  } catch (error) {
    workerBrowser = undefined;
    throw error;
  }
  if (!browser.isConnected()) {
    workerBrowser = launchBrowser();
    browser = await workerBrowser;
  }
  return { server: { url, port, dataDir, logs: () => readFileSync(logFile, 'utf8') }, browser, stop: () => closeContexts(browser) };
}

/**
 * The shared suite for a whole file, from its top level (`await useSharedSuite()`): started while the
 * file is collected; the contexts it opened are closed after its last test.
 */
export async function useSharedSuite(): Promise<Pick<Suite<SuiteServer>, 'server' | 'browser'>> {
  const suite = await startSharedSuite();
  afterAll(suite.stop);
  return suite;
}

/** Waits for a toast with this text (sonner renders each as [data-sonner-toast]). */
export const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();
