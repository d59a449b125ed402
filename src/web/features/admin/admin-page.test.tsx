// @vitest-environment jsdom
/** The dashboard's own states: the 10 s loading bypass and the error fallback. */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES as M } from '#shared/admin.ts';
import { AdminPage } from '#web/features/admin/admin-page.tsx';
import { PlayerProvider } from '#web/features/player/player-context.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

/**
 * Set by the error-fallback test: the Meditations tab throws while rendering, as a tab with a bug
 * would (a malformed answer no longer does: in tests every reply is checked against its contract, and
 * the tab shows that failure in place).
 */
const tabBreaks = vi.hoisted(() => ({ now: false }));
vi.mock('#web/features/admin/meditations-tab.tsx', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#web/features/admin/meditations-tab.tsx')>();
  return {
    MeditationsTab: () => {
      if (tabBreaks.now) throw new Error('the Meditations tab broke');
      return <actual.MeditationsTab />;
    },
  };
});

const me = { user: { id: 'u1', email: 'ada@example.com', name: 'Ada', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'admin', subscribed: true };

function renderDashboard(answer: (path: string) => Promise<Response>) {
  answerFetch(answer);
  renderWithQueries(
    <PlayerProvider>
      <AdminPage />
    </PlayerProvider>,
    { router: true },
  );
}

afterEach(() => {
  cleanup();
  tabBreaks.now = false;
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('admin dashboard states', () => {
  it('offers Continue Anyway after 10 s of loading, and shows the page without the status', async () => {
    vi.useFakeTimers();
    renderDashboard((path) => (path.startsWith('/api/me') ? Promise.resolve(json(me)) : new Promise<Response>(() => undefined)));
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByText(M.loading)).toBeTruthy();
    // Absence by text, not role: a bypass rendered but hidden from the accessibility tree still fails.
    expect(screen.queryByText(M.continueAnyway)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(9_950));
    // The 10 s have passed: back to the real clock, which Testing Library's user-event wrapper waits on
    // (it only advances Jest's fake timers, not vitest's).
    vi.useRealTimers();
    await userEvent.setup().click(screen.getByRole('button', { name: M.continueAnyway }));
    expect(screen.queryByText(M.loading)).toBeNull();
    // Without a verified status nothing admin-only is offered.
    expect(screen.getByText(M.accessDeniedTitle)).toBeTruthy();
    expect(screen.queryAllByRole('tab', { hidden: true })).toHaveLength(0);
  });

  it('shows the error fallback with Reload Dashboard and Go to Homepage when a tab breaks', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('hm.adminTab', 'meditations');
    tabBreaks.now = true;
    const reply = (path: string) => {
      if (path.startsWith('/api/me')) return json(me);
      // The player's saved places (PlayerProvider reads them for the signed-in person).
      if (path.startsWith('/api/practice/positions')) return json({ positions: [] });
      if (path.startsWith('/api/admin/status')) return json({ role: 'admin', isAdmin: true, canManageMeditations: true, adminExists: true, sandbox: true, authMode: 'server-session' });
      if (path.startsWith('/api/admin/meditations')) return json({ meditations: [] });
      return json({});
    };
    renderDashboard((path) => Promise.resolve(reply(path)));
    await waitFor(() => expect(screen.getByText(M.errorTitle)).toBeTruthy());
    expect(screen.getByRole('button', { name: M.reload })).toBeTruthy();
    expect(screen.getByRole('link', { name: M.goHome }).getAttribute('href')).toBe('/');
  });

  it('offers the sidebar: Meditations and Waitlist open their tab (stored, broadcast), Subscribers leads to /account; Security Status shows the auth mode', async () => {
    localStorage.setItem('hm.adminTab', 'setup');
    const reply = (path: string) => {
      if (path.startsWith('/api/me')) return json(me);
      // The player's saved places (PlayerProvider reads them for the signed-in person).
      if (path.startsWith('/api/practice/positions')) return json({ positions: [] });
      if (path.startsWith('/api/admin/status')) return json({ role: 'admin', isAdmin: true, canManageMeditations: true, adminExists: true, sandbox: false, authMode: 'server-session' });
      if (path.startsWith('/api/admin/waitlist')) return json({ entries: [], total: 0, totalIsEstimate: false, nextCursor: null });
      if (path.startsWith('/api/admin/meditations')) return json({ meditations: [] });
      return json({});
    };
    renderDashboard((path) => Promise.resolve(reply(path)));
    expect((await screen.findByTestId('auth-mode')).textContent).toBe('server-session');
    const sidebar = screen.getByRole('navigation', { name: 'Admin shortcuts' });
    const heard: unknown[] = [];
    window.addEventListener('admin-tab-change', (event) => heard.push((event as CustomEvent).detail));
    const user = userEvent.setup();
    await user.click(within(sidebar).getByRole('button', { name: 'Waitlist' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Waitlist' }).getAttribute('aria-selected')).toBe('true'));
    expect(await screen.findByText('No waitlist entries yet')).toBeTruthy();
    expect(localStorage.getItem('hm.adminTab')).toBe('waitlist');
    await user.click(within(sidebar).getByRole('button', { name: 'Meditations' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Meditations' }).getAttribute('aria-selected')).toBe('true'));
    expect(heard).toEqual(['waitlist', 'meditations']);
    expect(within(sidebar).getByRole('link', { name: 'Subscribers' }).getAttribute('href')).toBe('/account');
  });
});
