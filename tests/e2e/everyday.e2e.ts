/**
 * Everyday use (issue 38) in Chromium: where toasts sit and when, where focus goes when a dialog,
 * the menu or the full player closes, and what the keyboard and a screen reader meet first.
 */
import type { Browser, Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { startSharedSuite, type SuiteServer } from '#tests/e2e/support/suite.ts';
import { signedInMember, signedInSubscriber } from '#tests/e2e/support/people.ts';

let server: SuiteServer;
let browser: Browser;
beforeAll(async () => {
  const suite = await startSharedSuite();
  ({ server, browser } = suite);
  return suite.stop;
});

const phone = { viewport: { width: 390, height: 800 } };

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The toast's box once it has settled where it stays. */
async function settledBox(toast: Locator): Promise<Box> {
  await toast.waitFor();
  await toast.page().waitForFunction((el) => el.getAttribute('data-mounted') === 'true' && el.getAnimations({ subtree: true }).every((a) => a.playState !== 'running'), await toast.elementHandle());
  return (await toast.boundingBox())!;
}

describe('toasts', () => {
  it('say what happened inside the open dialog, not over its heading, and nothing more once it closes', async () => {
    const { page, context, problems } = await openPage(browser, phone);
    await signedInSubscriber(server, context, { name: 'Tove Aske' });
    await page.goto(`${server.url}/journal`);
    // Once the page knows this device has no journal yet (a save before that is refused).
    await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Set up my journal' }).waitFor();
    const mindfulness = page.getByRole('form', { name: 'Mindfulness entry' });
    await mindfulness.getByLabel('Gratitude').fill('The sea this morning.');
    await mindfulness.getByRole('button', { name: 'Save entry' }).click();

    const setUp = page.getByRole('dialog', { name: 'Set up your private journal' });
    await setUp.getByLabel('Passphrase', { exact: true }).fill('harbour lights at dusk');
    await setUp.getByLabel('Passphrase again').fill('harbour lights at dusk');
    await setUp.getByLabel('I understand that a forgotten passphrase without the recovery key means my journal is lost.').check();
    await setUp.getByRole('button', { name: 'Set up my journal' }).click();
    // The entry is saved while 'Keep your recovery key' is open: the dialog says so, below its heading.
    const keep = page.getByRole('dialog', { name: 'Keep your recovery key' });
    const saved = keep.getByRole('status').getByText('Journal entry saved successfully');
    await saved.waitFor();
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    const heading = (await keep.getByRole('heading', { name: 'Keep your recovery key' }).boundingBox())!;
    expect((await saved.boundingBox())!.y).toBeGreaterThan(heading.y + heading.height);

    await keep.getByLabel('I have kept my recovery key somewhere safe.').check();
    await keep.getByRole('button', { name: 'Go to my journal' }).click();
    await keep.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Your Journal Entries' }).getByText('The sea this morning.').waitFor();
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('hand a message raised as a dialog closes on to a toast at the foot of the screen', async () => {
    const { page, context, problems } = await openPage(browser, phone);
    await signedInSubscriber(server, context, { name: 'Edda Holm' });
    await page.goto(`${server.url}/account`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await confirm.getByRole('button', { name: 'Yes, cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    const box = await settledBox(page.locator('[data-sonner-toast]', { hasText: 'Subscription cancelled' }));
    expect(overlap(box, (await page.locator('header').first().boundingBox())!)).toBe(false);
    expect(overlap(box, (await page.getByRole('heading', { level: 1 }).boundingBox())!)).toBe(false);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(problems).toEqual([]);
  });

  it("leave the welcome page's heading and Premium badge uncovered after checkout", async () => {
    const { page, context, problems } = await openPage(browser, phone);
    await signedInMember(server, context, { name: 'Ilse Berg' });
    await page.goto(`${server.url}/subscribe`);
    await page.getByRole('button', { name: 'Start 7-day free trial' }).click();
    await page.waitForURL(/\/subscribe\/sandbox-checkout\?session_id=/);
    await page.getByRole('button', { name: 'Complete sandbox payment' }).click();
    await page.waitForURL(`${server.url}/welcome`);
    const box = await settledBox(page.locator('[data-sonner-toast]', { hasText: 'Welcome to Premium!' }));
    for (const target of [page.getByRole('heading', { level: 1 }), page.locator('main').getByText('Premium', { exact: true }), page.locator('header').first()]) {
      expect(overlap(box, (await target.boundingBox())!)).toBe(false);
    }
    expect(problems).toEqual([]);
  });
});
