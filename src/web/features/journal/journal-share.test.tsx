// @vitest-environment jsdom
/**
 * Sharing one entry on the page (issue 36, item 5; decision 0050): the dialog sends only sealed bytes
 * and shows the link with its key after #; the recipient's page opens it with that key, and says
 * plainly when the key is missing or wrong or the link is gone.
 */
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { blankCbt, createEntry } from '#shared/journal.ts';
import { SHARE_MESSAGES as M, type SharedPayload } from '#shared/journal-share.ts';
import { ShareEntryDialog } from '#web/features/journal/journal-share-dialog.tsx';
import { sealShare } from '#web/features/journal/journal-share-crypto.ts';
import { JournalPage } from '#web/features/journal/journal-page.tsx';
import { SharedEntryPage } from '#web/features/journal/journal-shared-page.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const WORDS = 'I froze when they asked me to speak';
const entry = createEntry('cbt', { ...blankCbt(), thoughtPatterns: WORDS }, new Date('2026-11-27T10:00:00Z'));
const ID = '0b6e2a4c-2f0f-4c38-9a55-7d3f8c1e2a10';
const WAIT = { timeout: 10_000 };
/** A keyring as the server holds one (its contract); the page only learns from it that the journal is set up. */
const wrapped = { iv: 'A'.repeat(16), data: 'A'.repeat(64) };
const KEYRING = { version: 1, passphrase: { kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4, salt: `${'A'.repeat(22)}==`, wrapped }, recovery: { kdf: 'HKDF-SHA-256', salt: `${'A'.repeat(22)}==`, wrapped } };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.location.hash = '';
});

describe('Share with someone you trust', () => {
  it('sends sealed bytes and the expiry, and shows the link with its key after #', async () => {
    const fetch = answerFetch((url) =>
      url.endsWith('/api/journal/shares') ? json({ id: ID, createdAt: '2026-11-27T10:00:00.000Z', expiresAt: '2026-11-28T10:00:00.000Z', views: 0 }, 201) : json({ links: [] }),
    );
    renderWithQueries(<ShareEntryDialog entry={entry} entries={[entry]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('radio', { name: '1 day' }));
    fireEvent.click(screen.getByRole('button', { name: M.create }));
    const field = await screen.findByRole<HTMLInputElement>('textbox', { name: M.linkLabel }, WAIT);
    expect(field.readOnly).toBe(true);
    expect(field.value).toMatch(new RegExp(`^${window.location.origin}/shared/${ID}#[A-Za-z0-9_-]{43}$`));
    const [, init] = fetch.mock.calls.find(([url]) => url.endsWith('/api/journal/shares')) ?? [];
    const body = init?.body as string;
    expect(JSON.parse(body)).toMatchObject({ expiresInDays: 1 });
    expect(body).not.toContain(WORDS);
    expect(body).not.toContain(field.value.split('#')[1]);
  });

  it('says why a link could not be made, and keeps the choices', async () => {
    answerFetch(() => json({ error: { code: 'subscription/required', message: 'Saving your reflections is part of your subscription.' } }, 403));
    renderWithQueries(<ShareEntryDialog entry={entry} entries={[entry]} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: M.create }));
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe('Saving your reflections is part of your subscription.');
    expect(screen.getByRole('button', { name: M.create })).toBeTruthy();
  });
});

describe('the shared entry’s page', () => {
  const payload: SharedPayload = { version: 1, entry, summary: null };
  const openAt = (hash: string, answer: () => Response) => {
    const fetch = answerFetch(answer);
    window.location.hash = hash;
    renderWithQueries(
      <Routes>
        <Route path="/shared/:shareId" element={<SharedEntryPage />} />
      </Routes>,
      { router: `/shared/${ID}` },
    );
    return fetch;
  };

  it('opens the entry with the key from the fragment, which it never sends', async () => {
    const { key, sealed } = await sealShare(payload);
    const fetch = openAt(key, () => json({ ...sealed, expiresAt: '2026-12-01T00:00:00.000Z' }));
    expect(await screen.findByText(WORDS, {}, WAIT)).toBeTruthy();
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([`/api/shared/${ID}`]);
    expect(document.querySelector('meta[name="referrer"]')?.getAttribute('content')).toBe('no-referrer');
  });

  it('says a link is no longer available when the server has none', async () => {
    const { key } = await sealShare(payload);
    openAt(key, () => json({ error: { code: 'not-found', message: M.unavailable } }, 404));
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe('This link is no longer available.');
  });

  it('says the key does not match, or is missing (and then asks nothing of the server)', async () => {
    const { sealed } = await sealShare(payload);
    const other = await sealShare(payload);
    openAt(other.key, () => json({ ...sealed, expiresAt: '2026-12-01T00:00:00.000Z' }));
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe(M.wrongKey);
    cleanup();
    const fetch = openAt('', () => json({ ...sealed, expiresAt: '2026-12-01T00:00:00.000Z' }));
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe(M.noKey);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('Shared links', () => {
  it('lists a locked journal’s links too, and revokes one after asking (no key needed)', async () => {
    const me = { user: { id: 'u-ivy', email: 'ivy@example.com', name: 'Ivy', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'user', subscribed: true };
    let links = [{ id: ID, createdAt: '2026-11-27T10:00:00.000Z', expiresAt: '2026-12-04T10:00:00.000Z', views: 3 }];
    const fetch = answerFetch((url, init) => {
      if (url.endsWith('/api/me')) return json(me);
      if (url.endsWith('/api/journal/keyring')) return json({ keyring: KEYRING });
      if (url.endsWith(`/api/journal/shares/${ID}`) && init?.method === 'DELETE') {
        links = [];
        return json({ revoked: true });
      }
      if (url.endsWith('/api/journal/shares')) return json({ links });
      return json({ error: { code: 'not-found', message: 'Not found' } }, 404);
    });
    renderWithQueries(<JournalPage />, { router: '/journal' });
    const region = await screen.findByRole('region', { name: M.listHeading }, WAIT);
    const item = await within(region).findByTestId('shared-link', {}, WAIT);
    expect(item.textContent).toContain('3 views');
    fireEvent.click(within(item).getByRole('button', { name: M.revoke }));
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: M.revokeTitle })).getByRole('button', { name: M.revoke }));
    expect(await within(region).findByText(M.listEmpty, {}, WAIT)).toBeTruthy();
    expect(fetch.mock.calls.some(([url, init]) => url.endsWith(`/api/journal/shares/${ID}`) && init?.method === 'DELETE')).toBe(true);
  });
});
