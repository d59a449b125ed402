// @vitest-environment jsdom
/**
 * The spec's 'Your Journal Entries' list with its empty state, for everyone who has no entries
 * (issue 33): a visitor and an account whose journal is not set up see it too, not only an
 * unlocked journal. A locked journal may hold entries, so it does not claim there are none.
 */
import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JOURNAL_MESSAGES as M } from '#shared/journal.ts';
import { JOURNAL_LOCK_MESSAGES as L } from '#shared/journal-keys.ts';
import { EntriesList } from '#web/features/journal/journal-entries.tsx';
import { JournalPage } from '#web/features/journal/journal-page.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const ivy = { user: { id: 'u-ivy', email: 'ivy@example.com', name: 'Ivy', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'user', subscribed: true };
/** The journal opens from IndexedDB, then asks the server: more than findBy's one second on a loaded machine. */
const WAIT = { timeout: 10_000 };
const visitor = { user: null, role: null, subscribed: false };
/** A keyring as the server holds one (its contract); the page only learns from it that the journal is set up. */
const wrapped = { iv: 'A'.repeat(16), data: 'A'.repeat(64) };
const KEYRING = { version: 1, passphrase: { kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4, salt: `${'A'.repeat(22)}==`, wrapped }, recovery: { kdf: 'HKDF-SHA-256', salt: `${'A'.repeat(22)}==`, wrapped } };

function renderJournal({ me, keyring }: { me: unknown; keyring?: unknown }) {
  answerFetch((url) => {
    if (url.endsWith('/api/me')) return json(me);
    if (url.endsWith('/api/journal/keyring')) return json({ keyring: keyring ?? null });
    return json({ error: { code: 'not-found', message: 'Not found' } }, 404);
  });
  renderWithQueries(<JournalPage />, { router: '/journal' });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the journal entries list', () => {
  it('shows a visitor the heading and the empty state', async () => {
    renderJournal({ me: visitor });
    expect(await screen.findByText(L.signedOutCard, {}, WAIT)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: M.entriesHeading })).toBeTruthy();
    expect(screen.getByText(M.empty)).toBeTruthy();
    // Nothing to act on: no export, lock or delete.
    expect(screen.queryByRole('button', { name: 'More journal actions' })).toBeNull();
  });

  it('shows it to an account whose journal is not set up yet', async () => {
    renderJournal({ me: ivy });
    expect(await screen.findByText(L.setUpCard, {}, WAIT)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: M.entriesHeading })).toBeTruthy();
    expect(screen.getByText(M.empty)).toBeTruthy();
  });

  it('does not say "no entries" of a locked journal, which may hold some', async () => {
    renderJournal({ me: ivy, keyring: KEYRING });
    expect(await screen.findByText(L.lockedCard, {}, WAIT)).toBeTruthy();
    expect(screen.queryByText(M.empty)).toBeNull();
  });

  it('marks a conflicted copy as such, beside the version that kept the record (issue 36, item 4)', () => {
    const cbt = (id: string, words: string) => ({ id, type: 'cbt' as const, date: '2026-11-27', timeOfDay: 'evening' as const, content: { thoughtPatterns: words, cognitiveDistortions: [], reframe: '' } });
    const none = () => undefined;
    renderWithQueries(<EntriesList entries={[cbt('2', 'the phone’s words'), cbt('1', 'the laptop’s words')]} actions={{ conflicted: new Set(['2']), onDelete: none, onDeleteAll: none, onLock: none, onChangePassphrase: none }} />);
    const [copy, original] = screen.getAllByTestId('journal-entry');
    expect(copy.textContent).toContain('the phone’s words');
    expect(copy.textContent).toContain(L.conflictedCopy);
    expect(copy.textContent).toContain(L.conflictedCopyHint);
    expect(original.textContent).not.toContain(L.conflictedCopy);
  });
});
