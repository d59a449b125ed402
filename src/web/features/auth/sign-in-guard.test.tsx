// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInGuard } from '#web/features/auth/sign-in-guard.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

function renderWithMe(me: unknown, at = '/') {
  // The component's only input is GET /api/me; answer it as the server would.
  answerFetch(() => json(me));
  renderWithQueries(
    <SignInGuard>
      <button type="button">Save routine</button>
    </SignInGuard>,
    { router: at, retry: true },
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SignInGuard', () => {
  it('shows the Sign In Required card to signed-out visitors', async () => {
    renderWithMe({ user: null, role: null, subscribed: false });
    expect(await screen.findByText('Sign In Required')).toBeTruthy();
    expect(screen.getByText(/Please sign in to access this feature/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/sign-in');
    // Absence by text, not role: content rendered but hidden from the accessibility tree still fails.
    expect(screen.queryByText('Save routine')).toBeNull();
  });

  it('brings the visitor back to the page after signing in', async () => {
    renderWithMe({ user: null, role: null, subscribed: false }, '/evening-routine');
    expect((await screen.findByRole('link', { name: 'Sign In' })).getAttribute('href')).toBe('/sign-in?next=%2Fevening-routine');
  });

  it('shows the content to signed-in users', async () => {
    renderWithMe({ user: { id: 'u1', email: 'a@b.co', name: 'A', emailVerified: true, createdAt: '2025-01-01T00:00:00Z' }, role: 'user', subscribed: false });
    expect(await screen.findByRole('button', { name: 'Save routine' })).toBeTruthy();
    expect(screen.queryByText('Sign In Required')).toBeNull();
  });
});
