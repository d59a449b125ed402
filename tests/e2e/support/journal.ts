/**
 * The private journal's dialogs, as a person uses them (issue 18): set-up (passphrase, the plain
 * warning, the recovery key kept) and unlocking. Each starts from the dialog being open, or opens it
 * from the journal page's card.
 */
import type { Page } from 'playwright-core';

/** Completes set-up and returns the recovery key the dialog showed. */
export async function setUpJournal(page: Page, passphrase: string, { afterSave = false }: { afterSave?: boolean } = {}): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'Set up your private journal' });
  // A first save opens the dialog by itself, holding the entry until the journal is set up. Asking
  // whether it was open yet raced the save: a run found it not yet open, pressed the page's own
  // "Set up my journal", and that dialog had no entry to save.
  if (afterSave) await dialog.waitFor();
  else await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Set up my journal' }).click();
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

/** Writes a CBT entry's thought patterns and saves it. */
export async function write(page: Page, words: string): Promise<void> {
  const form = page.getByRole('form', { name: 'CBT entry' });
  await page.getByRole('tab', { name: 'CBT' }).click();
  await form.getByLabel('Thought patterns').fill(words);
  await form.getByRole('button', { name: 'Save entry' }).click();
}

/** The listed entry holding these words. */
export const entry = (page: Page, words: string) => page.getByTestId('journal-entry').filter({ hasText: words });
/** Waits until the journal says everything is encrypted and synced. */
export const synced = (page: Page) => page.getByTestId('journal-sync').filter({ hasText: 'Encrypted and synced' }).waitFor();
/** The journal page's card saying the journal is locked on this device. */
export const lockedCard = (page: Page) => page.getByRole('region', { name: 'Your journal on this device' }).getByText('Your journal is locked on this device.');
