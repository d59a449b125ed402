/**
 * Sharing one journal entry, end to end encrypted (issue 36, item 5; decision 0050): a subscriber
 * shares a CBT entry; nothing the page sends holds its words or the link's key; someone with no
 * account opens the link in another browser and reads it; the owner revokes it and the link says so.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHARE_MESSAGES } from '#shared/journal-share.ts';
import { axeFindings } from '#tests/e2e/support/axe.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { setUpJournal } from '#tests/e2e/support/journal.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';
import { useSharedSuite, toast } from '#tests/e2e/support/suite.ts';

const { server, browser } = await useSharedSuite();

const THOUGHT = 'Everyone at the harbour meeting thought my plan was foolish';
const REFRAME = 'Two people asked questions; one said it could work';

/** Everything a page sends: the address and the body of every request. */
function recordSent(page: Page): { url: string; body: string }[] {
  const sent: { url: string; body: string }[] = [];
  page.on('request', (request: Request) => sent.push({ url: request.url(), body: request.postData() ?? '' }));
  return sent;
}

describe('share one journal entry', () => {
  it('shares an entry by a link only its holder can open, and revokes it', async () => {
    const owner = await openPage(browser);
    await signedInSubscriber(server, owner.context, { name: 'Tess Moor', password: 'share-with-care-1' });
    const sent = recordSent(owner.page);
    const { page } = owner;
    await page.goto(`${server.url}/journal`);

    // A CBT entry, saved (the journal is set up on the way, as the first save asks).
    const form = page.getByRole('form', { name: 'CBT entry' });
    await page.getByRole('tab', { name: 'CBT' }).click();
    await form.getByLabel('Thought patterns').fill(THOUGHT);
    await form.getByLabel('A kinder, more balanced thought').fill(REFRAME);
    await form.getByRole('button', { name: 'Save entry' }).click();
    await setUpJournal(page, 'a quiet harbour at dusk', { afterSave: true });
    // Saved while 'Keep your recovery key' was open: it said so there, not in a toast over it (issue 38).
    const entry = page.getByTestId('journal-entry').filter({ hasText: THOUGHT });
    await entry.waitFor();
    await page.getByTestId('journal-sync').filter({ hasText: 'Encrypted and synced' }).waitFor();

    // Share › 30 days, with the summary › Create link: the link carries its key after #.
    await page.getByRole('region', { name: 'Shared links' }).getByText(SHARE_MESSAGES.listEmpty).waitFor();
    await entry.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share with someone you trust' });
    await dialog.getByRole('radio', { name: '30 days' }).check();
    await dialog.getByLabel(SHARE_MESSAGES.summaryLabel).check();
    expect(await axeFindings(page, 'share dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const field = dialog.getByRole('textbox', { name: 'Share link' });
    await field.waitFor();
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/shared/[0-9a-f-]{36}#[A-Za-z0-9_-]{43}$`));
    const key = link.split('#')[1];

    // Nothing the page sent held the entry's words, nor the key (in a body or an address).
    expect(sent.some((s) => s.url.endsWith('/api/journal/shares') && s.body.includes('"expiresInDays":30'))).toBe(true);
    for (const { url, body } of sent) {
      for (const secret of [THOUGHT, 'harbour meeting', REFRAME, key]) {
        expect(body, url).not.toContain(secret);
        expect(url).not.toContain(secret);
      }
    }
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('region', { name: 'Shared links' }).getByTestId('shared-link').filter({ hasText: '0 views' }).waitFor();

    // Someone with no account, in another browser: the entry, the summary, nothing of the app or its author.
    const reader = await openPage(browser);
    const readerSent = recordSent(reader.page);
    const opened = await reader.page.goto(link);
    expect(opened?.headers()).toMatchObject({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow', 'cache-control': 'no-store' });
    await reader.page.getByRole('article').getByText(THOUGHT).waitFor();
    await reader.page.getByText(REFRAME).waitFor();
    await reader.page.getByRole('region', { name: SHARE_MESSAGES.summaryHeading }).waitFor();
    expect(await reader.page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    expect(await reader.page.getByText('Tess').count()).toBe(0);
    expect(await reader.page.getByRole('navigation').count()).toBe(0);
    expect(readerSent.some((s) => s.url.includes(key))).toBe(false);
    expect(await axeFindings(reader.page, 'shared entry')).toEqual([]);

    // The wrong key says so plainly; no key at all too.
    const wrong = await openPage(browser);
    await wrong.page.goto(`${link.split('#')[0]}#${'A'.repeat(43)}`);
    await wrong.page.getByRole('alert').filter({ hasText: SHARE_MESSAGES.wrongKey }).waitFor();
    await wrong.page.goto(link.split('#')[0]);
    await wrong.page.getByRole('alert').filter({ hasText: SHARE_MESSAGES.noKey }).waitFor();
    await wrong.context.close();

    // The owner sees the views, and revokes the link (after confirming).
    await page.reload();
    const listed = page.getByRole('region', { name: 'Shared links' }).getByTestId('shared-link');
    await listed.filter({ hasText: '2 views' }).waitFor();
    await listed.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke this link?' }).getByRole('button', { name: 'Revoke' }).click();
    await toast(page, 'Link revoked');
    await page.getByRole('region', { name: 'Shared links' }).getByText(SHARE_MESSAGES.listEmpty).waitFor();

    await reader.page.reload();
    await reader.page.getByText('This link is no longer available.').waitFor();
    expect(await reader.page.getByText(THOUGHT).count()).toBe(0);

    expect(owner.problems).toEqual([]);
    expect(reader.problems).toEqual([]);
    await reader.context.close();
    await owner.context.close();
  });
});
