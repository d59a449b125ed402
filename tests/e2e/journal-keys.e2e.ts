/**
 * The journal's keys in Chromium (issue 36, items 2 and 3; decision 0061): Argon2id runs in the page under the
 * real CSP ('wasm-unsafe-eval'); the passphrase's strength is shown with the warning not to reuse the account
 * password, and a weak one is refused; a keyring under PBKDF2 is upgraded to Argon2id at unlock; and "Change
 * passphrase" with the key replaced makes a second browser of the same account unlock again, with the new
 * passphrase only, keeping every entry.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { entry, lockedCard, setUpJournal, synced, unlockJournal, write } from '#tests/e2e/support/journal.ts';
import { signedInSubscriber, signIn } from '#tests/e2e/support/people.ts';
import { useSharedSuite, toast } from '#tests/e2e/support/suite.ts';
import { changePassphrase, createPbkdf2Keyring, sealRecord, type Keyring } from '#web/features/journal/journal-crypto.ts';

const { server, browser } = await useSharedSuite();

const serverKeyring = async (page: Page) => ((await (await page.request.get(`${server.url}/api/journal/keyring`)).json()) as { keyring: Keyring }).keyring;

describe('the journal’s keys', () => {
  it('replaces the key on one browser: the other must unlock again, with the new passphrase only, and keeps every entry', async () => {
    const first = await openPage(browser);
    const person = await signedInSubscriber(server, first.context, { name: 'Noor Vale', password: 'two-browsers-1' });
    await first.page.goto(`${server.url}/journal`);
    await write(first.page, 'the breakwater at low tide');
    const oldRecovery = await setUpJournal(first.page, 'gulls over the harbour', { afterSave: true });
    await entry(first.page, 'the breakwater at low tide').waitFor();
    await synced(first.page);
    expect((await serverKeyring(first.page)).passphrase).toMatchObject({ kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4 });

    const second = await openPage(browser);
    await signIn(server, second.context, person);
    await second.page.goto(`${server.url}/journal`);
    await unlockJournal(second.page, 'gulls over the harbour');
    await entry(second.page, 'the breakwater at low tide').waitFor();
    await synced(second.page);

    // The first browser changes the passphrase and replaces the key.
    await first.page.getByRole('button', { name: 'More journal actions' }).click();
    await first.page.getByRole('menuitem', { name: 'Change journal passphrase' }).click();
    const change = first.page.getByRole('dialog', { name: 'Change your journal passphrase' });
    await change.getByText('Do not use your account password here.', { exact: false }).waitFor();
    await change.getByLabel('Current passphrase').fill('gulls over the harbour');
    // Too easy to guess: the strength says so, and the dialog refuses it.
    await change.getByLabel('New passphrase').fill('password1234');
    await change.getByLabel('Passphrase again').fill('password1234');
    await change.getByTestId('passphrase-strength').getByText('Passphrase strength: Weak').waitFor();
    await change.getByRole('button', { name: 'Save new passphrase' }).click();
    await change.getByRole('alert').filter({ hasText: 'This passphrase is too easy to guess.' }).waitFor();
    await change.getByLabel('New passphrase').fill('a fresh start by the sea');
    await change.getByLabel('Passphrase again').fill('a fresh start by the sea');
    await change.getByTestId('passphrase-strength').getByText('Passphrase strength: Very strong').waitFor();
    await change.getByLabel('Also replace the key that encrypts my entries').check();
    await change.getByRole('button', { name: 'Save new passphrase' }).click();
    const keep = first.page.getByRole('dialog', { name: 'Keep your recovery key' });
    const newRecovery = (await keep.getByTestId('recovery-key').textContent())!;
    expect(newRecovery).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){12}[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(newRecovery).not.toBe(oldRecovery);
    await keep.getByLabel('I have kept my recovery key somewhere safe.').check();
    await keep.getByRole('button', { name: 'Go to my journal' }).click();
    await entry(first.page, 'the breakwater at low tide').waitFor();
    await synced(first.page);
    expect((await serverKeyring(first.page)).generation).toBe(2);

    // The second browser learns of it at its next sync (the connection coming back is one such moment) and locks.
    await second.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await toast(second.page, 'Your journal’s key was replaced on another device. Unlock your journal again with your passphrase.');
    await lockedCard(second.page).waitFor();
    await second.page.getByRole('button', { name: 'Unlock your journal' }).click();
    const unlock = second.page.getByRole('dialog', { name: 'Unlock your journal' });
    await unlock.getByLabel('Passphrase', { exact: true }).fill('gulls over the harbour');
    await unlock.getByRole('button', { name: 'Unlock', exact: true }).click();
    await unlock.getByRole('alert').filter({ hasText: 'That passphrase does not open this journal.' }).waitFor();
    await unlock.getByLabel('Passphrase', { exact: true }).fill('a fresh start by the sea');
    await unlock.getByRole('button', { name: 'Unlock', exact: true }).click();
    await entry(second.page, 'the breakwater at low tide').waitFor();
    await write(second.page, 'written after the new key');
    await entry(second.page, 'written after the new key').waitFor();
    await synced(second.page);
    await first.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await entry(first.page, 'written after the new key').waitFor();

    for (const each of [first, second]) {
      expect(each.problems).toEqual([]);
      await each.context.close();
    }
  });

  it('upgrades a PBKDF2 keyring to Argon2id at unlock, in the page, and the same passphrase opens it on the next browser', async () => {
    const first = await openPage(browser);
    const person = await signedInSubscriber(server, first.context, { name: 'Olly Marsh', password: 'old-keyring-1' });
    const { user } = (await (await first.context.request.get(`${server.url}/api/auth/get-session`)).json()) as { user: { id: string } };
    // A journal set up before Argon2id: its data key under PBKDF2, and an entry sealed under it. The server
    // takes only Argon2id keyrings now, so it is given the same data key and recovery wrap under Argon2id, and
    // this browser is shown the PBKDF2 keyring it held before (the unlock's one read of it).
    const { keyring: pbkdf2, dataKey } = await createPbkdf2Keyring('the old tide tables');
    const held = await changePassphrase(pbkdf2, { passphrase: 'the old tide tables' }, 'the old tide tables');
    const headers = { origin: server.url };
    expect((await first.context.request.post(`${server.url}/api/journal/keyring`, { data: { keyring: held }, headers })).status()).toBe(201);
    const id = crypto.randomUUID();
    const sealed = await sealRecord(dataKey, user.id, id, { entry: { id: '1', type: 'cbt', date: '2026-11-28', timeOfDay: 'evening', content: { thoughtPatterns: 'kept since before Argon2id', cognitiveDistortions: [], reframe: '' } }, updatedAt: 1, device: 'old', rev: 1 });
    expect((await first.context.request.put(`${server.url}/api/journal/records/${id}`, { data: { ...sealed, baseSeq: null }, headers })).status()).toBe(200);
    // Until this browser stores the upgrade, it is shown the keyring as it was.
    let upgradedHere = false;
    await first.page.route(`${server.url}/api/journal/keyring`, async (route) => {
      if (route.request().method() === 'PUT') upgradedHere = true;
      if (route.request().method() !== 'GET' || upgradedHere) return route.fallback();
      await route.fulfill({ json: { keyring: pbkdf2 } });
    });

    await first.page.goto(`${server.url}/journal`);
    await unlockJournal(first.page, 'the old tide tables');
    await entry(first.page, 'kept since before Argon2id').waitFor();
    await synced(first.page);
    expect(upgradedHere).toBe(true);
    // Upgraded in the page: the same recovery wrap, a new Argon2id wrap (its own salt), stored with its parameters.
    const upgraded = await serverKeyring(first.page);
    expect(upgraded.passphrase).toMatchObject({ kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4 });
    expect(upgraded.passphrase.salt).not.toBe(held.passphrase.salt);
    expect(upgraded.passphrase.salt).not.toBe(pbkdf2.passphrase.salt);
    expect(upgraded.recovery).toEqual(pbkdf2.recovery);

    const second = await openPage(browser);
    await signIn(server, second.context, person);
    await second.page.goto(`${server.url}/journal`);
    await unlockJournal(second.page, 'the old tide tables');
    await entry(second.page, 'kept since before Argon2id').waitFor();
    for (const each of [first, second]) {
      expect(each.problems).toEqual([]);
      await each.context.close();
    }
  });
});
