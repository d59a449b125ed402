/**
 * Everyday use (issue 38) in Chromium: where toasts sit and when, where focus goes when a dialog,
 * the menu or the full player closes, and what the keyboard and a screen reader meet first.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { toast as waitForToast, useSharedSuite } from '#tests/e2e/support/suite.ts';
import { signedInMember, signedInSubscriber } from '#tests/e2e/support/people.ts';
import { axeFindings } from '#tests/e2e/support/axe.ts';
import { setUpJournal } from '#tests/e2e/support/journal.ts';

const { server, browser } = await useSharedSuite();

const phone = { viewport: { width: 390, height: 800 } };

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The toast's box once it has settled where it stays. */
async function settledBox(toast: Locator): Promise<Box> {
  await toast.waitFor();
  await toast.page().waitForFunction((el) => el.getAttribute('data-mounted') === 'true' && el.getAnimations({ subtree: true }).every((a) => a.playState !== 'running'), await toast.elementHandle());
  return (await toast.boundingBox())!;
}

/** What has focus: its tag and accessible name, as a person hears it ('body' when nothing has). */
/**
 * What has focus now. Read with expect.poll: Radix gives focus back when the closed dialog's focus
 * scope unmounts, a task after the dialog leaves the page, and a loaded machine reached that task after
 * the check (focus was on <body> for that moment in a full run).
 */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return `${el.tagName.toLowerCase()}: ${(el.getAttribute('aria-label') ?? el.textContent).trim().slice(0, 60)}`;
  });

/** Tabs through `container` once from what has focus, and returns each stop's name and position. */
async function tabStops(page: Page, count: number): Promise<{ name: string; x: number; y: number }[]> {
  const stops: { name: string; x: number; y: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    stops.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const box = el.getBoundingClientRect();
        return { name: (el.getAttribute('aria-label') ?? el.textContent).trim(), x: Math.round(box.x), y: Math.round(box.y) };
      }),
    );
    await page.keyboard.press('Tab');
  }
  return stops;
}

describe('toasts', () => {
  it('say what happened inside the open dialog, below its heading, not in a toast over it', async () => {
    const { page, context, problems } = await openPage(browser, phone);
    await signedInSubscriber(server, context, { name: 'Tove Aske' });
    await page.goto(`${server.url}/journal`);
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

describe('focus', () => {
  it("reads and tabs through the paywall in the order it is seen, and goes back to the card when it closes", async () => {
    for (const viewport of [{ width: 390, height: 800 }, { width: 1280, height: 900 }]) {
      const { page, problems } = await openPage(browser, { viewport });
      await page.goto(`${server.url}/meditations/all`);
      // The first locked card (the free ones come first for a visitor: issue 38, item 1).
      const card = page.getByTestId('meditation-card').filter({ hasText: 'Subscribe to listen' }).first();
      await card.waitFor();
      const opener = card.getByRole('button').first();
      const openerName = await focusedNameOf(opener);
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: openerName });
      await dialog.waitFor();
      // Four controls: the close button at the top, then the three choices; Tab comes round to the first again.
      await dialog.getByRole('button', { name: 'Close' }).focus();
      const stops = await tabStops(page, 4);
      const seen = [...stops].sort((a, b) => a.y - b.y || a.x - b.x);
      expect(stops.map((s) => s.name)).toEqual(seen.map((s) => s.name));
      expect(stops.map((s) => s.name)).toEqual(['Close', 'Start 7-day free trial', 'Subscribe to Continue', 'Maybe Later']);

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe(`button: ${openerName}`);
      await opener.click();
      await dialog.getByRole('button', { name: 'Maybe Later' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe(`button: ${openerName}`);
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it('goes back to the button that opened the cancel dialog, the phone menu and the journal set-up', async () => {
    const { page, context, problems } = await openPage(browser, phone);
    await signedInSubscriber(server, context, { name: 'Vera Lund' });
    await page.goto(`${server.url}/account`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const cancel = page.getByRole('button', { name: 'Cancel', exact: true });
    await cancel.click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('button: Cancel');
    await cancel.click();
    await confirm.getByRole('button', { name: 'Keep subscription' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('button: Cancel');

    // The phone menu: Escape from a link inside it returns to its button.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page)).toBe('a: Meditations');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('button: Open menu');

    // The journal: saving asks for set-up, then shows the recovery key; closing it lands in the form, not on <body>.
    await page.goto(`${server.url}/journal`);
    await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Set up my journal' }).waitFor();
    const mindfulness = page.getByRole('form', { name: 'Mindfulness entry' });
    await mindfulness.getByLabel('Gratitude').fill('A slow breakfast.');
    await mindfulness.getByRole('button', { name: 'Save entry' }).click();
    const setUp = page.getByRole('dialog', { name: 'Set up your private journal' });
    await setUp.getByLabel('Passphrase', { exact: true }).fill('harbour lights at dusk');
    // Its toggles say what the field holds (not 'Show password').
    expect(await setUp.getByRole('button', { name: 'Show passphrase' }).count()).toBe(2);
    await setUp.getByLabel('Passphrase again').fill('harbour lights at dusk');
    await setUp.getByLabel('I understand that a forgotten passphrase without the recovery key means my journal is lost.').check();
    await setUp.getByRole('button', { name: 'Set up my journal' }).click();
    const keep = page.getByRole('dialog', { name: 'Keep your recovery key' });
    await keep.getByLabel('I have kept my recovery key somewhere safe.').check();
    await keep.getByRole('button', { name: 'Go to my journal' }).click();
    await keep.waitFor({ state: 'detached' });
    // 'Save entry' is disabled now that the form is empty: the form's first control takes focus. In the task
    // after the dialog leaves the page, not with it (Radix's focus scope returns focus from a timeout as it
    // unmounts): read at once, a busy machine once found focus still on its way (a run of the e2e half alone).
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('form')?.getAttribute('aria-label'))).toBe('Mindfulness entry');
    expect(problems).toEqual([]);
  });

  it('opens the full player on Play/Pause, says it is loading, returns to the card or the bar, and a skip link reaches the mini player', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Nils Aren' });
    // The audio is held until the test lets it go: the player is loading meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/media/meditations/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/meditations/mindfulness`);
    const opener = page.getByTestId('meditation-card').filter({ hasText: 'A Single Breath' }).getByRole('button', { name: 'A Single Breath', exact: true });
    await opener.click();
    const sheet = page.getByRole('dialog', { name: 'A Single Breath' });
    await sheet.waitFor();
    await sheet.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
    await expect.poll(() => focused(page)).toBe('button: Loading…');
    expect(await sheet.getByRole('button', { name: 'Play', exact: true }).count()).toBe(0);
    release();
    await sheet.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await expect.poll(() => focused(page)).toBe('button: Pause');
    await page.unroute('**/media/meditations/**');

    // Escape minimises: focus is back on the card's button.
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('button: A Single Breath');

    // From the bar, and back to the bar with 'Minimise player'.
    const bar = page.getByRole('region', { name: 'Now playing' });
    await bar.getByRole('button', { name: 'Expand player' }).click();
    await sheet.waitFor();
    await expect.poll(() => focused(page)).toBe('button: Pause');
    await sheet.getByRole('button', { name: 'Minimise player' }).click();
    await sheet.waitFor({ state: 'detached' });
    await expect.poll(() => focused(page)).toBe('button: Expand player');

    // Right after 'Skip to content', the page's first stop, comes 'Skip to player', which lands on the bar.
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page)).toBe('a: Skip to player');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Now playing');
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page)).toBe('button: Pause');
    expect(problems).toEqual([]);
  });
});

describe('a link to a meditation', () => {
  it('says when the meditation is not in the library, instead of silently showing them all', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${server.url}/meditation/00000000-0000-4000-8000-000000000000`);
    await page.getByRole('status').filter({ hasText: 'Meditation not found' }).waitFor();
    await page.getByTestId('meditation-card').first().waitFor();
    expect(problems).toEqual([]);
  });
});

describe('the journal', () => {
  it('locks from a button in sight, opens its menu without tripping axe, says the disclaimer once and counts "1 entry"', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Maja Sand' });
    await page.goto(`${server.url}/journal`);
    await setUpJournal(page, 'gulls over the harbour');
    const mindfulness = page.getByRole('form', { name: 'Mindfulness entry' });
    await mindfulness.getByLabel('Gratitude').fill('Warm tea.');
    await mindfulness.getByRole('button', { name: 'Save entry' }).click();
    await page.getByRole('region', { name: 'Your Journal Entries' }).getByText('Warm tea.').waitFor();

    expect(await page.getByText('This journal is for self-reflection only', { exact: false }).count()).toBe(1);
    const week = page.getByRole('list', { name: 'Entries each day this week' });
    expect(await week.textContent()).toContain('1 entry');
    expect(await week.textContent()).not.toContain('1 entries');

    await page.getByRole('button', { name: 'More journal actions' }).click();
    await page.getByRole('menuitem', { name: 'Change journal passphrase' }).waitFor();
    expect(await axeFindings(page, 'journal menu open')).toEqual([]);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Lock journal', exact: true }).click();
    await page.getByRole('button', { name: 'Unlock your journal' }).waitFor();
    expect(problems).toEqual([]);
  });
});

describe('Account › Favourites', () => {
  it('keeps its headings in order with favourites listed (axe heading-order)', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Lena Voss' });
    await page.goto(`${server.url}/meditations/mindfulness`);
    const card = page.getByTestId('meditation-card').filter({ hasText: 'A Single Breath' });
    await card.getByRole('button', { name: 'Save A Single Breath to favourites' }).click();
    // The heart fills at once; the toast is the server's answer, which the account page then lists
    // (leaving before it, the account's list could be read before the save was stored).
    await waitForToast(page, 'Saved “A Single Breath” to your favourites');
    await page.goto(`${server.url}/account`);
    await page.getByRole('tab', { name: 'Favourites' }).click();
    await page.getByTestId('favourite-item').first().waitFor();
    expect(await axeFindings(page, 'Account › Favourites')).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** A control's accessible name as the focus check reads it. */
const focusedNameOf = (control: Locator) => control.evaluate((el) => (el.getAttribute('aria-label') ?? el.textContent).trim().slice(0, 60));
