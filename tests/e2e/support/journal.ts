/**
 * The private journal's dialogs, as a person uses them (issue 18): set-up (passphrase, the plain
 * warning, the recovery key kept) and unlocking. Each starts from the dialog being open, or opens it
 * from the journal page's card.
 */
import type { Page } from 'playwright-core';

/** Completes set-up and returns the recovery key the dialog showed. */
export async function setUpJournal(page: Page, passphrase: string): Promise<string> {
  let dialog = page.getByRole('dialog', { name: 'Set up your private journal' });
  if (!(await dialog.isVisible())) await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Set up my journal' }).click();
  dialog = page.getByRole('dialog', { name: 'Set up your private journal' });
  await dialog.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await dialog.getByLabel('Passphrase again').fill(passphrase);
  await dialog.getByLabel('I understand that a forgotten passphrase without the recovery key means my journal is lost.').check();
  await dialog.getByRole('button', { name: 'Set up my journal' }).click();
  const keep = page.getByRole('dialog', { name: 'Keep your recovery key' });
  const recoveryKey = (await keep.getByTestId('recovery-key').textContent())!;
  await keep.getByLabel('I have kept my recovery key somewhere safe.').check();
  await keep.getByRole('button', { name: 'Go to my journal' }).click();
  await keep.waitFor({ state: 'detached' });
  return recoveryKey;
}

/** Unlocks with the passphrase from the journal page's "locked" card. */
export async function unlockJournal(page: Page, passphrase: string): Promise<void> {
  await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Unlock your journal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unlock your journal' });
  await dialog.getByLabel('Passphrase', { exact: true }).fill(passphrase);
  await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}
