/**
 * The end-to-end encrypted journal across accounts, browsers and the server (issue 18, item 1):
 * two accounts on one browser never see each other's journal; an entry written in one browser opens,
 * decrypted, in a second browser of the same account once unlocked, and edits travel both ways; the
 * recovery key opens it when the passphrase is forgotten; and no word of any entry is anywhere in
 * the server's database files.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { entry, setUpJournal, synced, unlockJournal, write } from '#tests/e2e/support/journal.ts';
import { signInOnScreen } from '#tests/e2e/support/subscriber.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';
import { startSuite, toast } from '#tests/e2e/support/suite.ts';
import type { RunningServer } from '#tests/setup/server-process.ts';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  // The data folder is kept past the server's stop, for the last test to search its files.
  const suite = await startSuite({}, { keepData: true });
  ({ server, browser } = suite);
  return async () => {
    await suite.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  };
});

/** Every phrase written in this file: none may reach the server's disk. */
const WRITTEN = ['the lighthouse at Cromer', 'Bo keeps this to himself', 'tide tables by the door', 'written on the second laptop'];

async function signOut(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL(`${server.url}/sign-in`);
}

const journalDatabases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).filter((name) => name === 'harbour-mind-journal'));

describe('the private journal across accounts and browsers', () => {
  it('keeps each account’s journal to itself on a shared browser, and leaves nothing of it behind at sign-out', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Ann Reed', email: 'ann@example.com', password: 'shared-browser-1' });
    await page.goto(`${server.url}/journal`);
    await page.getByRole('region', { name: 'Your journal on this device' }).getByText('Set it up once to start writing.', { exact: false }).waitFor();
    // Saving before set-up asks for it, keeps the draft meanwhile, and saves once it is done.
    await write(page, WRITTEN[0]);
    await page.getByRole('dialog', { name: 'Set up your private journal' }).getByText('If you forget it and lose your recovery key, your journal cannot be opened by anyone', { exact: false }).waitFor();
    await setUpJournal(page, 'north sea morning', { afterSave: true });
    // Saved while 'Keep your recovery key' was open: it said so there, not in a toast over it (issue 38).
    await entry(page, WRITTEN[0]).waitFor();
    await synced(page);
    expect(await page.getByRole('form', { name: 'CBT entry' }).getByLabel('Thought patterns').inputValue()).toBe('');

    await signOut(page);
    expect(await journalDatabases(page)).toEqual([]);

    // Bo signs in on the same browser: his own, empty journal to set up, nothing of Ann's.
    await signedInSubscriber(server, context, { name: 'Bo Quinn', password: 'shared-browser-2' });
    await page.goto(`${server.url}/journal`);
    await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Set up my journal' }).waitFor();
    expect(await page.getByText(WRITTEN[0]).count()).toBe(0);
    await setUpJournal(page, 'a different passphrase');
    await write(page, WRITTEN[1]);
    await entry(page, WRITTEN[1]).waitFor();
    await synced(page);
    expect(await page.getByTestId('journal-entry').count()).toBe(1);
    await signOut(page);

    // Ann again: her journal is locked here (sign-out forgot its key), and opens to hers alone.
    await signInOnScreen(page, server, 'ann@example.com', 'shared-browser-1');
    await page.goto(`${server.url}/journal`);
    await unlockJournal(page, 'north sea morning');
    await entry(page, WRITTEN[0]).waitFor();
    await synced(page);
    expect(await page.getByText(WRITTEN[1]).count()).toBe(0);
    expect(await page.getByTestId('journal-entry').count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens, decrypted, in a second browser of the same account after unlocking, and edits travel both ways', async () => {
    const first = await openPage(browser);
    const cy = await signedInSubscriber(server, first.context, { name: 'Cy Moss', password: 'two-laptops-1' });
    await first.page.goto(`${server.url}/journal`);
    const recoveryKey = await setUpJournal(first.page, 'shingle and spray');
    expect(recoveryKey).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){12}[0-9A-HJKMNP-TV-Z]{4}$/);
    await write(first.page, WRITTEN[2]);
    await entry(first.page, WRITTEN[2]).waitFor();
    await synced(first.page);

    const second = await openPage(browser);
    await signInOnScreen(second.page, server, cy.email, 'two-laptops-1');
    await second.page.goto(`${server.url}/journal`);
    await second.page.getByRole('region', { name: 'Your journal on this device' }).getByText('Your journal is locked on this device.').waitFor();
    // A wrong passphrase is refused in the dialog, and nothing opens.
    await second.page.getByRole('button', { name: 'Unlock your journal' }).click();
    const dialog = second.page.getByRole('dialog', { name: 'Unlock your journal' });
    await dialog.getByLabel('Passphrase', { exact: true }).fill('not the passphrase');
    await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
    await dialog.getByRole('alert').filter({ hasText: 'That passphrase does not open this journal.' }).waitFor();
    await dialog.getByLabel('Passphrase', { exact: true }).fill('shingle and spray');
    await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
    await entry(second.page, WRITTEN[2]).waitFor();

    // The second browser deletes that entry and writes another; the first sees both changes.
    await entry(second.page, WRITTEN[2]).getByRole('button', { name: /Delete the cbt entry/ }).click();
    await second.page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await write(second.page, WRITTEN[3]);
    await entry(second.page, WRITTEN[3]).waitFor();
    await synced(second.page);
    // A reload locks the first browser (the key was only in the page's memory, issue 36): unlocked again, it has both changes.
    await first.page.reload();
    await unlockJournal(first.page, 'shingle and spray');
    await entry(first.page, WRITTEN[3]).waitFor();
    await synced(first.page);
    expect(await entry(first.page, WRITTEN[2]).count()).toBe(0);

    // A third browser with the passphrase forgotten: the recovery key opens it and sets a new one.
    const third = await openPage(browser);
    await signInOnScreen(third.page, server, cy.email, 'two-laptops-1');
    await third.page.goto(`${server.url}/journal`);
    await third.page.getByRole('button', { name: 'Unlock your journal' }).click();
    await third.page.getByRole('button', { name: 'Forgotten your passphrase?' }).click();
    const recover = third.page.getByRole('dialog', { name: 'Use your recovery key' });
    await recover.getByRole('textbox', { name: 'Recovery key' }).fill(recoveryKey.toLowerCase().replaceAll('-', ' '));
    await recover.getByLabel('New passphrase').fill('pebbles after the storm');
    await recover.getByLabel('Passphrase again').fill('pebbles after the storm');
    await recover.getByRole('button', { name: 'Unlock and save new passphrase' }).click();
    await entry(third.page, WRITTEN[3]).waitFor();
    // The first browser stays unlocked: the journal's key did not change, only its wrapping.
    expect(await entry(first.page, WRITTEN[3]).isVisible()).toBe(true);
    expect(await first.page.getByRole('button', { name: 'Lock journal', exact: true }).isVisible()).toBe(true);

    // Changing the passphrase takes the current one; then only the new one unlocks.
    await first.page.getByRole('button', { name: 'More journal actions' }).click();
    await first.page.getByRole('menuitem', { name: 'Change journal passphrase' }).click();
    const change = first.page.getByRole('dialog', { name: 'Change your journal passphrase' });
    await change.getByLabel('Current passphrase').fill('shingle and spray');
    await change.getByLabel('New passphrase').fill('lantern on the quay');
    await change.getByLabel('Passphrase again').fill('lantern on the quay');
    await change.getByRole('button', { name: 'Save new passphrase' }).click();
    await change.getByRole('alert').filter({ hasText: 'That passphrase does not open this journal.' }).waitFor();
    await change.getByLabel('Current passphrase').fill('pebbles after the storm');
    await change.getByRole('button', { name: 'Save new passphrase' }).click();
    await toast(first.page, 'Journal passphrase changed');
    await third.page.getByRole('button', { name: 'Lock journal', exact: true }).click();
    await third.page.getByRole('button', { name: 'Unlock your journal' }).click();
    const unlock = third.page.getByRole('dialog', { name: 'Unlock your journal' });
    await unlock.getByLabel('Passphrase', { exact: true }).fill('pebbles after the storm');
    await unlock.getByRole('button', { name: 'Unlock', exact: true }).click();
    await unlock.getByRole('alert').filter({ hasText: 'That passphrase does not open this journal.' }).waitFor();
    await unlock.getByLabel('Passphrase', { exact: true }).fill('lantern on the quay');
    await unlock.getByRole('button', { name: 'Unlock', exact: true }).click();
    await entry(third.page, WRITTEN[3]).waitFor();

    for (const each of [first, second, third]) {
      expect(each.problems).toEqual([]);
      await each.context.close();
    }
  });

  it('leaves no word of any entry in the server’s database files', async () => {
    await server.stop();
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push(path);
      }
    };
    walk(server.dataDir);
    const contents = files.map((path) => readFileSync(path));
    // The search can see plain text in these files: the accounts' e-mail addresses are there.
    expect(contents.some((bytes) => bytes.includes('ann@example.com')), 'the scan finds stored plain text').toBe(true);
    for (const words of WRITTEN) {
      expect(
        files.filter((_, i) => contents[i].includes(words)),
        `"${words}"`,
      ).toEqual([]);
    }
  });
});
