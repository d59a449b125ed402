/**
 * Zero third-party requests (issue 18, item 5), for what a person does besides reading pages: a
 * visitor plays a free sample; a subscriber plays a meditation and writes a journal entry. Every
 * request the browser makes (audio and the service worker's included) stays on the app's origin.
 * accessibility.e2e checks every page, signed out, as a subscriber and as an admin, the same way.
 */
import { describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { setUpJournal } from '#tests/e2e/support/journal.ts';
import { waitForPlaying } from '#tests/e2e/support/player.ts';
import { leavingOrigin, recordRequests } from '#tests/e2e/support/requests.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';

const { server, browser } = await useSharedSuite();

describe('privacy: nothing leaves for another server', () => {
  it('keeps a visitor’s free sample, and a subscriber’s listening and journalling, on the app alone', async () => {
    const visitor = await openPage(browser, { serviceWorkers: 'allow' });
    const visitorRequests = recordRequests(visitor.context);
    await visitor.page.goto(`${server.url}/meditations/morning`);
    await visitor.page.getByTestId('meditation-card').filter({ hasText: 'Free to try' }).first().locator('h2 button').click();
    await waitForPlaying(visitor.page, 0.3);
    await visitor.page.waitForLoadState('networkidle');
    expect(visitorRequests.some((url) => url.includes('/media/'))).toBe(true);
    expect(leavingOrigin(visitorRequests, server.url)).toEqual([]);
    await visitor.context.close();

    const { page, context, problems } = await openPage(browser, { serviceWorkers: 'allow' });
    const requests = recordRequests(context);
    await signedInSubscriber(server, context, { name: 'Pia Lund', password: 'still-water-4' });
    await page.goto(`${server.url}/meditations/mindfulness`);
    await page.getByTestId('meditation-card').first().locator('h2 button').click();
    await waitForPlaying(page, 0.3);
    await page.goto(`${server.url}/journal`);
    const entry = page.getByRole('form', { name: 'Mindfulness entry' });
    await entry.getByLabel('Gratitude').fill('A quiet cup of tea.');
    await entry.getByRole('button', { name: 'Save entry' }).click();
    // The first save sets up the private journal (keys made on the device), then syncs the sealed entry.
    await setUpJournal(page, 'tea by the window', { afterSave: true });
    await page.getByTestId('journal-entry').filter({ hasText: 'A quiet cup of tea.' }).waitFor();
    await page.getByTestId('journal-sync').filter({ hasText: 'Encrypted and synced' }).waitFor();
    await page.waitForLoadState('networkidle');

    expect(requests.some((url) => url.includes('/media/'))).toBe(true);
    expect(requests.some((url) => url.endsWith('.woff2'))).toBe(true);
    expect(leavingOrigin(requests, server.url)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
