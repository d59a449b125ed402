// @vitest-environment jsdom
/**
 * 'Start 7-day free trial' tapped before /api/me has answered (the prepared page paints the button
 * first; issue 38, item 10): a person already signed in goes on to checkout, and is not shown the
 * sign-up dialog as a visitor would be.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const member = { user: { id: 'u1', email: 'early@example.com', name: 'Early', emailVerified: true, createdAt: '2026-01-01T00:00:00Z' }, role: 'user', subscribed: false, providers: ['credential'] };
const noSubscription = { subscribed: false, trialEligible: true, mode: 'sandbox', products: 2, subscription: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/subscribe before the page knows who is there', () => {
  it('takes a signed-in person’s early trial tap to checkout once /api/me answers', async () => {
    let answerMe!: () => void;
    const me = new Promise<void>((resolve) => (answerMe = resolve));
    const fetch = answerFetch(async (url, init) => {
      if (url.endsWith('/api/me')) {
        await me;
        return json(member);
      }
      if (url.endsWith('/api/subscription')) return json(noSubscription);
      if (url.endsWith('/api/billing/checkout') && init?.method === 'POST') return json({ url: '/welcome?session_id=sandbox_1', trial: true });
      return json({ error: { code: 'not-found', message: 'Not found' } }, 404);
    });
    const { SubscribePage } = await import('#web/features/billing/subscribe-page.tsx');
    renderWithQueries(<SubscribePage />, { router: '/subscribe' });
    fireEvent.click(await screen.findByRole('button', { name: 'Start 7-day free trial' }));
    answerMe();
    await waitFor(() => expect(fetch.mock.calls.some(([url, init]) => url.endsWith('/api/billing/checkout') && init?.method === 'POST')).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
