// @vitest-environment jsdom
/** The User Roles tab's failure toasts: the spec's titles for a check the server could not run. */
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_TEXT, type ErrorCode } from '#shared/error-text.ts';
import { RolesTab } from '#web/features/admin/roles-tab.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const me = { user: { id: 'u1', email: 'ada@example.com', name: 'Ada', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'admin', subscribed: true };

function renderWithRoleChangeFailing(code: ErrorCode) {
  answerFetch((url, init) => {
    if (url === '/api/me') return json(me);
    if (url === '/api/admin/csrf') return json({ token: 't'.repeat(43), expiresAt: new Date(Date.now() + 900_000).toISOString() });
    if (url === '/api/admin/roles' && init?.method === 'POST') return json({ error: { code, message: ERROR_TEXT[code] } }, 503);
    return json({ roles: [] });
  });
  renderWithQueries(
    <>
      <RolesTab />
      <Toaster />
    </>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('User Roles tab failures', () => {
  it.each([
    ['security/check-failed', 'Security Check Failed', 'Unable to verify rate limits. Please try again.'],
    ['admin/check-failed', 'Database Error', 'Unable to verify admin status'],
  ] as const)('%s shows the toast %s', async (code, title, body) => {
    renderWithRoleChangeFailing(code);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ben@example.com');
    await user.click(screen.getByRole('button', { name: /assign/i }));
    expect(await screen.findByText(title)).toBeTruthy();
    expect(screen.getByText(body)).toBeTruthy();
  });
});
