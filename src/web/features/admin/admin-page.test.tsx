// @vitest-environment jsdom
/** The dashboard's own states: the 10 s loading bypass and the error fallback. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES as M } from '#shared/admin.ts';
import { AdminPage } from '#web/features/admin/admin-page.tsx';
import { PlayerProvider } from '#web/features/player/player-context.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const me = { user: { id: 'u1', email: 'ada@example.com', name: 'Ada', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'admin', subscribed: true };

function render(answer: (path: string) => Promise<Response>) {
  vi.stubGlobal('fetch', vi.fn((input: string) => answer(input)));
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => {
    root.render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <PlayerProvider>
            <AdminPage />
          </PlayerProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  return { container, root };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('admin dashboard states', () => {
  it('offers Continue Anyway after 10 s of loading, and shows the page without the status', async () => {
    vi.useFakeTimers();
    const { container } = render((path) => (path.startsWith('/api/me') ? Promise.resolve(json(me)) : new Promise<Response>(() => undefined)));
    await act(async () => vi.advanceTimersByTimeAsync(100));
    expect(container.textContent).toContain(M.loading);
    expect(container.textContent).not.toContain(M.continueAnyway);
    await act(async () => vi.advanceTimersByTimeAsync(9_950));
    const bypass = [...container.querySelectorAll('button')].find((b) => b.textContent === M.continueAnyway);
    expect(bypass).toBeDefined();
    act(() => {
      bypass!.click();
    });
    expect(container.textContent).not.toContain(M.loading);
    // Without a verified status nothing admin-only is offered.
    expect(container.textContent).toContain(M.accessDeniedTitle);
    expect(container.querySelectorAll('[role="tab"]')).toHaveLength(0);
  });

  it('shows the error fallback with Reload Dashboard and Go to Homepage when a tab breaks', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('hm.adminTab', 'meditations');
    const reply = (path: string) => {
      if (path.startsWith('/api/me')) return json(me);
      if (path.startsWith('/api/admin/status')) return json({ role: 'admin', isAdmin: true, canManageMeditations: true, adminExists: true, sandbox: true, authMode: 'server-session' });
      if (path.startsWith('/api/admin/meditations')) return json({ meditations: null }); // a malformed answer
      return json({});
    };
    const { container } = render((path) => Promise.resolve(reply(path)));
    await vi.waitFor(() => expect(container.textContent).toContain(M.errorTitle), { timeout: 3000 });
    const labels = [...container.querySelectorAll('button, a')].map((el) => el.textContent);
    expect(labels).toContain(M.reload);
    expect(labels).toContain(M.goHome);
  });
});
