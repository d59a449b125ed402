/**
 * Zero third-party requests (issue 18, item 5): a visitor and then a subscriber go through every
 * page, play a meditation and write a journal entry, and every request the browser makes (pages,
 * scripts, styles, fonts, images, audio, API calls, the service worker's) stays on the app's origin.
 * The privacy and cookie pages promise this; this test keeps the promise true.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { waitForPlaying } from '#tests/e2e/support/player.ts';
import { createSubscriber } from '#tests/e2e/support/subscriber.ts';
import { startSuite } from '#tests/e2e/support/suite.ts';
import type { RunningServer } from '#tests/setup/server-process.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const suite = await startSuite();
  ({ server, browser } = suite);
  return suite.stop;
});

const PAGES = [
  '/',
  '/meditations/all',
  '/meditations/sleeping',
  '/why-i-created-harbour-mind',
  '/about',
  '/support',
  '/privacy',
  '/cookies',
  '/terms',
  '/sign-in',
  '/sign-up',
  '/subscribe',
  '/waitlist',
  '/journal',
  '/morning-routine',
  '/evening-routine',
  '/account',
  '/welcome',
  '/no-such-page',
];

/** Every URL the context asks for, service worker included. */
function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

const elsewhere = (urls: string[]) => {
  const own = new URL(server.url).origin;
  return [...new Set(urls.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== own))];
};

async function visitAll(page: Page) {
  for (const path of PAGES) {
    await page.goto(`${server.url}${path}`);
    // (/sign-up opens a dialog over the page, which hides the heading from the accessibility tree.)
    await page.locator('h1').first().waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
  }
  await page.waitForLoadState('networkidle');
}

describe('privacy: nothing leaves for another server', () => {
  it('sends every request of a visitor and of a subscriber (pages, playing, journalling) to the app alone', async () => {
    const visitor = await openPage(browser);
    const visitorUrls = recordRequests(visitor.context);
    await visitAll(visitor.page);
    // A free sample plays for a visitor too.
    await visitor.page.goto(`${server.url}/meditations/morning`);
    await visitor.page.getByTestId('meditation-card').filter({ hasText: 'Free to try' }).first().locator('h2 button').click();
    await waitForPlaying(visitor.page, 0.3);
    expect(visitorUrls.length).toBeGreaterThan(PAGES.length);
    expect(elsewhere(visitorUrls)).toEqual([]);
    await visitor.context.close();

    const { page, context, problems } = await openPage(browser);
    const urls = recordRequests(context);
    await createSubscriber(server, context, { name: 'Pia Lund', email: 'no-third-party@example.com', password: 'still-water-4' });
    await visitAll(page);
    await page.goto(`${server.url}/meditations/mindfulness`);
    await page.getByTestId('meditation-card').first().locator('h2 button').click();
    await waitForPlaying(page, 0.3);
    await page.goto(`${server.url}/journal`);
    const entry = page.getByRole('form', { name: 'Mindfulness entry' });
    await entry.getByLabel('Gratitude').fill('A quiet cup of tea.');
    await entry.getByRole('button', { name: 'Save entry' }).click();
    await page.getByText('A quiet cup of tea.').waitFor();
    await page.waitForLoadState('networkidle');

    expect(urls.some((url) => url.includes('/media/'))).toBe(true);
    expect(urls.some((url) => url.endsWith('.woff2'))).toBe(true);
    expect(elsewhere(urls)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
