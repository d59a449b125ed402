// @vitest-environment jsdom
/**
 * The waitlist page's remaining spec rows (issue 33): any failure the spec does not name reads
 * 'Unable to join waitlist' / 'Please try again later.' (the server's wording of a fault is not shown),
 * and the custom share URL box with 'Set URL' is the admin's (decision 0043); everyone sees the URL shared.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAITLIST_MESSAGES as W } from '#shared/waitlist.ts';
import { WaitlistPage } from '#web/features/waitlist/waitlist-page.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const admin = { user: { id: 'u-admin', email: 'admin@example.com', name: 'Ada', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'admin', subscribed: false };
const visitor = { user: null, role: null, subscribed: false };

function renderPage({ me = visitor, join }: { me?: unknown; join?: () => Response | Promise<Response> } = {}) {
  const fetch = answerFetch((url) => {
    if (url.endsWith('/api/me')) return json(me);
    if (url.endsWith('/api/waitlist') && join) return join();
    return json({ error: { code: 'not-found', message: 'Not found' } }, 404);
  });
  renderWithQueries(<WaitlistPage />, { router: '/waitlist' });
  return fetch;
}

async function fillAndSubmit() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Name/), 'Ada Lovelace');
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.click(screen.getByRole('button', { name: W.submit }));
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('waitlist failures', () => {
  it('says "Please try again later." for a server fault, not the server\'s own words', async () => {
    renderPage({ join: () => json({ error: { code: 'internal', message: 'relation "waitlist_entries" does not exist' } }, 500) });
    await fillAndSubmit();
    const alert = await screen.findByTestId('waitlist-failure');
    expect(alert.textContent).toBe(`${W.failedTitle}${W.failedBody}`);
  });

  it('says the same when the server cannot be reached', async () => {
    renderPage({ join: () => Promise.reject(new TypeError('Failed to fetch')) });
    await fillAndSubmit();
    expect((await screen.findByTestId('waitlist-failure')).textContent).toBe(`${W.failedTitle}${W.failedBody}`);
  });

  it('keeps the refusal by policy (403) as the admin document words it', async () => {
    renderPage({ join: () => json({ error: { code: 'auth/forbidden', message: 'Forbidden' } }, 403) });
    await fillAndSubmit();
    expect((await screen.findByTestId('waitlist-failure')).textContent).toBe(`${W.failedTitle}${W.accessDenied}`);
  });
});

describe('the share URL box', () => {
  it('shows everyone the URL shared; only an admin gets the custom URL box with Set URL', async () => {
    const fetch = renderPage({ me: visitor });
    expect((await screen.findByTestId('share-url')).textContent).toContain('/waitlist');
    // Give /api/me its answer before concluding that the box is absent.
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => url.endsWith('/api/me'))).toBe(true));
    await act(async () => {
      await fetch.mock.results.at(0)?.value;
    });
    expect(screen.queryByRole('button', { name: 'Set URL' })).toBeNull();
  });

  it('lets an admin set a custom URL, refusing one that is not absolute http(s)', async () => {
    renderPage({ me: admin });
    const user = userEvent.setup();
    const set = await screen.findByRole('button', { name: 'Set URL' });
    await user.type(screen.getByLabelText('Custom share URL'), 'campaign.example/beta');
    await user.click(set);
    expect((await screen.findByTestId('share-url-outcome')).textContent).toBe(`${W.invalidUrlTitle} ${W.invalidUrlBody}`);
    await user.clear(screen.getByLabelText('Custom share URL'));
    await user.type(screen.getByLabelText('Custom share URL'), 'https://campaign.example/beta');
    await user.click(set);
    expect(screen.getByTestId('share-url-outcome').textContent).toBe(`${W.urlUpdatedTitle} ${W.urlUpdatedBody}`);
    expect(screen.getByTestId('share-url').textContent).toContain('https://campaign.example/beta');
  });
});
