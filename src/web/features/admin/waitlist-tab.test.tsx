// @vitest-environment jsdom
/** The waitlist table a page at a time: Show more follows the server's cursor; a large list's total is marked as an estimate. */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_EVENTS } from '#shared/admin.ts';
import type { WaitlistEntriesResponse } from '#shared/contracts/waitlist.ts';
import { WaitlistTab } from '#web/features/admin/waitlist-tab.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const entries = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `id-${from + i}`, name: `Person ${from + i}`, email: `p${from + i}@example.com`, reason: null, createdAt: '2026-11-01T10:00:00.000Z' }));

function renderTab(pages: Record<string, WaitlistEntriesResponse>) {
  const fetch = answerFetch((url) => json(pages[url] ?? { entries: [], total: 0, totalIsEstimate: false, nextCursor: null }));
  renderWithQueries(<WaitlistTab sandbox={false} />);
  return fetch;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('waitlist tab', () => {
  it('shows the first page, then the next one on Show more, until there is no more', async () => {
    const fetch = renderTab({
      '/api/admin/waitlist': { entries: entries(0, 100), total: 150, totalIsEstimate: false, nextCursor: 'id-99' },
      '/api/admin/waitlist?after=id-99': { entries: entries(100, 50), total: 150, totalIsEstimate: false, nextCursor: null },
    });
    expect(await screen.findByText('Showing 100 of 150 entries')).toBeTruthy();
    expect(screen.getByText('Person 99')).toBeTruthy();
    expect(screen.queryByText('Person 100')).toBeNull();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Showing 150 of 150 entries')).toBeTruthy();
    expect(screen.getByText('Person 149')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/admin/waitlist', '/api/admin/waitlist?after=id-99']);
  });

  it('says "about" when the total is the database estimate', async () => {
    renderTab({ '/api/admin/waitlist': { entries: entries(0, 100), total: 200_000, totalIsEstimate: true, nextCursor: 'id-99' } });
    expect(await screen.findByText('Showing 100 of about 200,000 entries')).toBeTruthy();
  });

  it("reloads on the 'waitlist-updated' and 'force-refresh' events, and Force Refresh sends the latter", async () => {
    const fetch = renderTab({ '/api/admin/waitlist': { entries: entries(0, 3), total: 3, totalIsEstimate: false, nextCursor: null } });
    await screen.findByText('Showing 3 of 3 entries');
    const reads = () => fetch.mock.calls.filter(([url]) => url === '/api/admin/waitlist').length;
    expect(reads()).toBe(1);
    act(() => void window.dispatchEvent(new Event(ADMIN_EVENTS.waitlistUpdated)));
    await waitFor(() => expect(reads()).toBe(2));
    act(() => void window.dispatchEvent(new Event(ADMIN_EVENTS.forceRefresh)));
    await waitFor(() => expect(reads()).toBe(3));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Force Refresh' }));
    await waitFor(() => expect(reads()).toBe(4));
  });
});
