/**
 * What every e2e file sets up: the built server as its own process and Chromium, started together.
 * Use as the teardown-returning `beforeAll`:
 *   beforeAll(async () => {
 *     const suite = await startSuite();
 *     ({ server, browser } = suite);
 *     return suite.stop;
 *   });
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '#tests/e2e/support/browser.ts';
import { startServer, type RunningServer } from '#tests/setup/server-process.ts';

export type Suite = { server: RunningServer; browser: Browser; stop: () => Promise<void> };

/** Starts both; when one of them fails to start, the other is stopped before the error is rethrown. */
export async function startSuite(...args: Parameters<typeof startServer>): Promise<Suite> {
  const [server, browser] = await Promise.allSettled([startServer(...args), launchBrowser()]);
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

/** Waits for a toast with this text (sonner renders each as [data-sonner-toast]). */
export const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();
