// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInGuard } from '#web/features/auth/sign-in-guard.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

async function renderWithMe(me: unknown) {
  // The component's only input is GET /api/me; answer it as the server would.
  vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(JSON.stringify(me), { status: 200, headers: { 'content-type': 'application/json' } }))));
  const container = document.createElement('div');
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <SignInGuard>
            <button type="button">Save routine</button>
          </SignInGuard>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    // Let the /api/me answer arrive inside act, as a user would see it after the first paint.
    await Promise.resolve();
  });
  await act(async () => new Promise((r) => setTimeout(r, 20)));
  return { container, root };
}

afterEach(() => vi.unstubAllGlobals());

describe('SignInGuard', () => {
  it('shows the Sign In Required card to signed-out visitors', async () => {
    const { container, root } = await renderWithMe({ user: null, role: null, subscribed: false });
    expect(container.textContent).toContain('Sign In Required');
    expect(container.textContent).toContain('Please sign in to access this feature');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/sign-in');
    expect(container.textContent).not.toContain('Save routine');
    act(() => root.unmount());
  });

  it('shows the content to signed-in users', async () => {
    const { container, root } = await renderWithMe({ user: { id: 'u1', email: 'a@b.co', name: 'A', emailVerified: true, createdAt: '2025-01-01T00:00:00Z' }, role: 'user', subscribed: false });
    expect(container.textContent).toContain('Save routine');
    expect(container.textContent).not.toContain('Sign In Required');
    act(() => root.unmount());
  });
});
