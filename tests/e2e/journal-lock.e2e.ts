/**
 * The journal locks (issue 36, item 1; decision 0054): after the idle time the person chose (the page's
 * clock moved on, never waited for), by its visible "Lock journal" button, and on reload, since the
 * opened key lives in the page's memory only; the passphrase opens it again. Signing out with changes
 * not yet on the server asks first, and wipes the device first whatever the server answers.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from '#tests/e2e/support/axe.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { entry, lockedCard, setUpJournal, unlockJournal, write } from '#tests/e2e/support/journal.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';
import { useSharedSuite, toast } from '#tests/e2e/support/suite.ts';

const { server, browser } = await useSharedSuite();

const journalDatabases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).filter((name) => name === 'harbour-mind-journal'));
/** Every value the journal's device store holds, as the browser stored it. */
const storedDevices = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[][]>((resolve, reject) => {
        const open = indexedDB.open('harbour-mind-journal');
        open.onerror = () => reject(new Error('not opened'));
        open.onsuccess = () => {
          const all = open.result.transaction('devices').objectStore('devices').getAll();
          all.onsuccess = () => {
            resolve((all.result as Record<string, unknown>[]).map((device) => Object.keys(device).sort()));
            open.result.close();
          };
        };
      }),
  );

describe('the journal locks', () => {
  it('after the idle time chosen, by its button and on reload; the passphrase opens it again', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Iris Hale', password: 'locks-itself-1' });
    // The page's clock runs as usual until moved on; installed before the page loads so every timer is on it.
    await page.clock.install();
    await page.goto(`${server.url}/journal`);
    await write(page, 'The ferry was late and I was fine');
    await setUpJournal(page, 'gulls over the breakwater', { afterSave: true });
    await entry(page, 'The ferry was late and I was fine').waitFor();
    await page.getByTestId('journal-sync').filter({ hasText: 'Encrypted and synced' }).waitFor();
    // No key is stored on the device: only its id, read position and the keyring (sealed by the passphrase).
    expect(await storedDevices(page)).toEqual([['accountId', 'cursor', 'device', 'keyring']]);

    // The lock is in sight, beside the idle time (15 minutes unless chosen).
    const lockAfter = page.getByLabel('Lock after');
    expect(await lockAfter.inputValue()).toBe('15');
    expect(await axeFindings(page, 'journal open, with its lock')).toEqual([]);
    await lockAfter.selectOption({ label: '5 minutes' });
    // Activity keeps it open: four quiet minutes, a movement, four more.
    await page.clock.fastForward('04:00');
    await page.mouse.move(200, 300);
    await page.clock.fastForward('04:00');
    await page.mouse.move(220, 320);
    expect(await entry(page, 'The ferry was late and I was fine').isVisible()).toBe(true);
    // Five quiet minutes: locked, the entries gone from the page.
    await page.clock.fastForward('05:01');
    await lockedCard(page).waitFor();
    expect(await page.getByTestId('journal-entry').count()).toBe(0);
    await unlockJournal(page, 'gulls over the breakwater');
    await entry(page, 'The ferry was late and I was fine').waitFor();

    // The button, in sight (not in the "More journal actions" menu).
    await page.getByRole('button', { name: 'Lock journal', exact: true }).click();
    await toast(page, 'Journal locked on this device');
    await lockedCard(page).waitFor();
    await unlockJournal(page, 'gulls over the breakwater');
    await entry(page, 'The ferry was late and I was fine').waitFor();

    // A reload forgets the key (it was only in the page's memory); the chosen idle time is kept on the device.
    await page.reload();
    await lockedCard(page).waitFor();
    await unlockJournal(page, 'gulls over the breakwater');
    await entry(page, 'The ferry was late and I was fine').waitFor();
    expect(await page.getByLabel('Lock after').inputValue()).toBe('5');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks before signing out loses changes not yet synced, and wipes the device first whatever the server answers', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Owen Pike', password: 'locks-itself-2' });
    await page.goto(`${server.url}/journal`);
    await write(page, 'Synced before the storm');
    await setUpJournal(page, 'lanterns along the quay', { afterSave: true });
    await page.getByTestId('journal-sync').filter({ hasText: 'Encrypted and synced' }).waitFor();

    // The server cannot be reached for the journal: the next entry stays on this device.
    await page.route('**/api/journal/records/*', (route) => route.abort('internetdisconnected'));
    await write(page, 'Written while the server was away');
    await page.getByTestId('journal-sync').filter({ hasText: 'Saved on this device. 1 change waits to sync' }).waitFor();

    const signOut = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' });
    await signOut.click();
    const warning = page.getByRole('alertdialog', { name: 'Sign out and lose unsynced journal changes?' });
    await warning.getByText('1 journal change has not reached Harbour Mind yet.', { exact: false }).waitFor();
    expect(await axeFindings(page, 'sign-out warning')).toEqual([]);
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'detached' });
    // Nothing lost, nothing signed out.
    await entry(page, 'Written while the server was away').waitFor();
    expect(await journalDatabases(page)).toEqual(['harbour-mind-journal']);

    // Signing out anyway, with the server failing the sign-out: the device is wiped all the same.
    await page.route('**/api/auth/sign-out', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Something went wrong' } }) }));
    await signOut.click();
    await warning.getByRole('button', { name: 'Sign out anyway' }).click();
    await toast(page, 'Failed to sign out. Please try again.');
    expect(await journalDatabases(page)).toEqual([]);
    expect(await page.getByTestId('journal-entry').count()).toBe(0);

    // The server answers again: signing out asks nothing more (nothing is left to lose) and goes to sign-in.
    await page.unroute('**/api/auth/sign-out');
    await signOut.click();
    await page.waitForURL(`${server.url}/sign-in`);
    // The only problems: the journal's requests the test cut off, and the sign-out it failed.
    expect(problems.filter((problem) => !/Failed to load resource/.test(problem))).toEqual([]);
    await context.close();
  });

  it('starts a new journal when both secrets are lost: only with the word typed, and the old entries are gone', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Nell Crane', password: 'locks-itself-3' });
    // Saved before the page knows who is asking or whether the journal is set up (both answers held back
    // until the save was pressed): the save waits for them, then asks for set-up, and the entry is kept.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    for (const path of ['/api/me', '/api/journal/keyring'])
      await page.route(`${server.url}${path}`, async (route) => {
        await answered;
        await route.continue();
      });
    await page.goto(`${server.url}/journal`);
    await write(page, 'Words from the old journal');
    answer();
    await setUpJournal(page, 'a passphrase soon forgotten', { afterSave: true });
    await entry(page, 'Words from the old journal').waitFor();
    await page.getByTestId('journal-sync').filter({ hasText: 'Encrypted and synced' }).waitFor();
    await page.getByRole('button', { name: 'Lock journal', exact: true }).click();

    // Neither the passphrase nor the recovery key: the recovery view offers the way on.
    await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Unlock your journal' }).click();
    await page.getByRole('button', { name: 'Forgotten your passphrase?' }).click();
    await page.getByRole('dialog', { name: 'Use your recovery key' }).getByRole('button', { name: 'Start a new journal' }).click();
    const reset = page.getByRole('dialog', { name: 'Start a new journal?' });
    await reset.getByText('Every entry in your journal is deleted, from Harbour Mind and from this device, for good', { exact: false }).waitFor();
    await reset.getByLabel('Type DELETE to confirm').fill('delete');
    await reset.getByRole('button', { name: 'Delete my journal and start again' }).click();
    await reset.getByText('Type DELETE exactly, in capitals, to delete your journal.').waitFor();
    expect(await axeFindings(page, 'start a new journal')).toEqual([]);
    expect(((await (await context.request.get(`${server.url}/api/journal/records`)).json()) as { records: unknown[] }).records).toHaveLength(1);
    await reset.getByLabel('Type DELETE to confirm').fill('DELETE');
    await reset.getByRole('button', { name: 'Delete my journal and start again' }).click();
    await toast(page, 'Your old journal is deleted. Set up a new one to start writing.');

    // The server holds nothing of it; a new journal is set up, empty.
    expect(((await (await context.request.get(`${server.url}/api/journal/records`)).json()) as { records: unknown[] }).records).toEqual([]);
    expect(((await (await context.request.get(`${server.url}/api/journal/keyring`)).json()) as { keyring: unknown }).keyring).toBeNull();
    await setUpJournal(page, 'a fresh start by the sea');
    await page.getByText('No journal entries yet', { exact: false }).waitFor();
    expect(await page.getByText('Words from the old journal').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
